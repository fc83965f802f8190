import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { caracasDate } from '@switch/connector-kit/formats';
import {
  cursorOffset,
  invalidCursor,
  statementPage,
  creditsOfDay,
  defineConnector,
  saldoRead,
  type BankConnectorKit,
  type BankDefinition,
  unknownOutcome,
  unsupported,
} from '@switch/connector-kit/connector';
import { memoryReferenceBook, ReplicaNonce, type ReferenceBook } from '@switch/connector-kit/references';
import type { BankOutcome } from '@switch/core/operation';
import type { BreakerOptions, GuardedSend, KitDeps } from '@switch/connector-kit/send';
import type { ExecuteOrder, OrderAccount, StatusQuery } from '@switch/connector-kit/bank-port';
import { PlazaTransport, type PlazaRequest } from './protocol';
import * as plaza from './requests';
import { accountData, field, orderOutcome, readFailure, readOperaciones, readStatement, statusOutcome, type Success } from './responses';

export interface BancoPlazaOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The merchant's RIF (`J123456789`) and 20-digit Banco Plaza account (PROTOCOLS §2.4 `{rif}`, cobrador/origen). */
  rif: string;
  account: string;
  /** The merchant's affiliated phone (11 digits), for P2P `telefonoAfiliado` and C2P `telefonoCobrador`. */
  phone?: string;
  clientIp?: string;
  timeoutMs: number;
  connectTimeoutMs?: number;
  breaker?: Partial<BreakerOptions>;
  /** This replica's id 0-999 among those sharing the API key (the nonce's suffix); random when absent. */
  replica?: number;
}

export interface BancoPlazaDeps extends KitDeps {
  /** Where the 12-digit merchant references are assigned: the store's `bankReferences` in a service (shared by replicas). */
  references?: ReferenceBook;
}

type Plan = { request: PlazaRequest; success: Success } | { outcome: BankOutcome };

/**
 * Banco Plaza (0138) as a kit definition: C2P and Débito Inmediato collections, pago móvil (P2P) and
 * Crédito Inmediato payouts, C2P reversal, status queries, balance and statement. Signing and nonces
 * are protocol.ts, request shapes requests.ts, answers responses.ts, codes codes.ts.
 */
function plazaBank(config: BancoPlazaOptions, kit: GuardedSend, deps: BancoPlazaDeps): BankDefinition & { transport: PlazaTransport } {
  const transport = new PlazaTransport(kit, config, config.baseUrl, new ReplicaNonce(() => kit.now().getTime(), config.replica));
  const references = deps.references ?? memoryReferenceBook();
  // A book given to the connector (the store's) is where every reference is assigned before its order
  // is sent: an attempt without one was never sent. A private one forgets on restart: it proves nothing.
  const durable = deps.references !== undefined;
  const m: plaza.Merchant = {
    rif: config.rif,
    account: config.account,
    clientIp: config.clientIp ?? '127.0.0.1',
    ...(config.phone ? { phone: config.phone } : {}),
  };
  const send = (req: PlazaRequest) => transport.send(req);
  const merchant = m;

  /**
   * Edge (merchant accounts): a live order carries the merchant's registered account at Plaza; it is
   * debited or credited, and its status asked, instead of the connector's configured one. The
   * holder's RIF, when registered, names the account's owner in the body (`identificacion_o`,
   * `identificacion_b`); the `{rif}` of the paths stays the API client's (the switch's credential).
   */
  function merchantOf(account: OrderAccount | undefined): plaza.Merchant {
    if (!account) return merchant;
    return {
      ...merchant,
      account: account.cuenta,
      ...(account.telefono ? { phone: account.telefono } : {}),
      ...(account.rif ? { holderRif: account.rif } : {}),
    };
  }

  async function plan(order: ExecuteOrder): Promise<Plan> {
    const m = merchantOf(order.account);
    const { request, rail } = order;
    switch (request.kind) {
      case 'token':
        if (rail !== 'debito_inmediato') return { outcome: unsupported(`no OTP request on rail ${rail}`) };
        return {
          request: plaza.tokenDI(request.body, m),
          success: () => ({ type: 'accepted', pending: false, referencia: null, endtoend: null }),
        };
      case 'cobrar':
        if (rail === 'debito_inmediato') {
          const own = await plaza.referenciaFor(references, m.rif, order.orderRef);
          return {
            request: plaza.cobroDI(own, request.body, m),
            success: (body) => ({
              type: 'accepted',
              pending: true,
              referencia: field(body, 'referencia_c', 'referencia') ?? own,
              endtoend: field(body, 'endtoend'),
            }),
          };
        }
        if (rail === 'c2p')
          return {
            request: plaza.c2p(request.body, m),
            success: (body) => ({ type: 'settled', pending: false, referencia: field(body, 'referencia'), endtoend: null }),
          };
        return { outcome: unsupported(`no collection on rail ${rail}`) };
      case 'pagar':
        if (rail === 'pago_movil') {
          return {
            request: plaza.p2p(order, request.body, m),
            success: (body) => ({
              type: 'settled',
              pending: false,
              referencia: field(body, 'numeroReferencia', 'referencia'),
              endtoend: null,
            }),
          };
        }
        if (rail === 'credito_inmediato') {
          const own = await plaza.referenciaFor(references, m.rif, order.orderRef);
          return {
            request: plaza.pagoO(own, request.body, m),
            success: (body) => ({
              type: 'accepted',
              pending: true,
              referencia: field(body, 'numeroReferencia', 'referencia'),
              endtoend: field(body, 'endtoend'),
            }),
          };
        }
        return { outcome: unsupported(`no payout on rail ${rail}`) };
      case 'reverso': {
        const related = order.related;
        if (related?.rail !== 'c2p')
          return { outcome: unsupported(`Banco Plaza reverses only C2P collections, not ${related?.rail ?? 'an unknown operation'}`) };
        if (!related.referencia) return { outcome: unsupported('the C2P to reverse has no bank reference') };
        const referencia = related.referencia;
        return { request: plaza.reversoC2P(referencia), success: () => ({ type: 'settled', pending: false, referencia, endtoend: null }) };
      }
    }
  }

  /** A CCE order is found by the reference it was given; none on record means none was sent by this store's replicas. */
  async function byReference(query: StatusQuery, ask: (referencia: string) => PlazaRequest, kind: 'cce'): Promise<BankOutcome> {
    const referencia = await plaza.referenciaOf(references, m.rif, query.orderRef);
    if (!referencia) {
      if (durable)
        return { type: 'not_processed', raw: { switch: 'no merchant reference was ever assigned to this attempt: it was never sent' } };
      return unknownOutcome({ switch: 'no merchant reference on record for this order; reconcile with the statement (movimientos)' });
    }
    return statusOutcome(await send(ask(referencia)), query, kind);
  }

  return {
    banco: 'banco_plaza',
    capabilities: CAPABILITIES,
    transport,
    async execute(order) {
      const p = await plan(order);
      if ('outcome' in p) return p.outcome;
      return orderOutcome(await send(p.request), p.success);
    },
    async status(query) {
      // The account the order was made with, never the configured one (they differ in live mode).
      const m = merchantOf(query.account);
      switch (query.rail) {
        case 'debito_inmediato':
          if (query.kind === 'token') return unknownOutcome({ switch: 'an OTP request has no status at the bank' });
          return byReference(query, (r) => plaza.consultarDI(query, r, m), 'cce');
        case 'credito_inmediato':
          return byReference(query, (r) => plaza.consultaLiq(query, r, m), 'cce');
        case 'pago_movil':
          return statusOutcome(await send(plaza.consultaP2P(query.orderRef, m)), query, 'p2p');
        case 'c2p':
        case 'reverso':
          // A C2P carries no merchant reference: without the bank's, there is nothing to ask by.
          if (!query.referencia)
            return unknownOutcome({ switch: 'no bank reference to query by; reconcile with the statement (movimientos)' });
          return statusOutcome(await send(plaza.consultaC2P(query.referencia, m)), query, query.rail);
      }
    },
    async saldo(_mode, query) {
      const today = caracasDate(kit.now());
      const answer = await send(plaza.movimientos(query.cuenta, today, today));
      const failure = readFailure(answer);
      if (failure || answer.kind !== 'response') return failure ?? { ok: false, motivo: 'DESCONOCIDO', raw: {} };
      const statement = readStatement(answer.body);
      const raw = { ...answer.raw, body: accountData(answer.body) };
      if (statement.saldoDisponible === null)
        return { ok: false, motivo: 'DESCONOCIDO', raw: { ...raw, switch: 'no saldoDisponible in the answer' } };
      // The bank gives only the available balance; the others default to it when absent.
      return saldoRead(
        'banco_plaza',
        query.cuenta,
        { disponible: statement.saldoDisponible, contable: statement.saldoContable, bloqueado: statement.saldoBloqueado },
        kit.now(),
        raw,
      );
    },
    /** Plaza's operations search: the day's credits, or with `referencia` those whose reference ends in it. */
    async creditos(_mode, query) {
      const answer = await send(plaza.operaciones(query.cuenta, query.fecha, query.referencia, m));
      const failure = readFailure(answer);
      if (failure || answer.kind !== 'response') return failure ?? { ok: false, motivo: 'DESCONOCIDO', raw: {} };
      return { ok: true, value: creditsOfDay(query.fecha, readOperaciones(query.cuenta, answer.body)) };
    },
    /** The bank answers a whole date range at once; pages are cut here (`cursor` = offset). */
    async movimientos(_mode, query) {
      const hasta = query.hasta ?? caracasDate(kit.now());
      const offset = cursorOffset(query.cursor);
      if (offset === null) return invalidCursor();
      const answer = await send(plaza.movimientos(query.cuenta, query.desde, hasta));
      const failure = readFailure(answer);
      if (failure || answer.kind !== 'response') return failure ?? { ok: false, motivo: 'DESCONOCIDO', raw: {} };
      return { ok: true, value: statementPage('banco_plaza', query, hasta, offset, readStatement(answer.body).movimientos) };
    },
  };
}

/** Banco Plaza's connector: the kit's, over `plazaBank`. */
export const BancoPlazaConnector = defineConnector<BancoPlazaOptions, BancoPlazaDeps, ReturnType<typeof plazaBank>>(
  'banco_plaza',
  plazaBank,
);
export type BancoPlazaConnector = BankConnectorKit<ReturnType<typeof plazaBank>>;
