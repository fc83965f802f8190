import {
  statementPage,
  invalidCursor,
  cursorOffset,
  creditsOfDay,
  defineConnector,
  type BankConnectorKit,
  type BankDefinition,
  unsupported,
} from '@switch/connector-kit/connector';
import type { BankOutcome } from '@switch/core/operation';
import type {
  Capability,
  Mode,
  Movimientos,
  MovimientosQuery,
  Saldo,
  SaldoQuery,
  CreditoRecibido,
  CreditosQuery,
} from '@switch/core/contracts/bancos';
import type { ExecuteOrder, OrderAccount, ReadOutcome, StatusQuery } from '@switch/connector-kit/bank-port';
import type { GuardedSend, KitDeps, SendOptions } from '@switch/connector-kit/send';
import { GatewayTransport, type GatewayCredentials, type GatewaySent } from './protocol';
import {
  anulacionRequest,
  c2pRequest,
  caracasDate,
  consultaCreditoRequest,
  consultaPagoRequest,
  creditoRequest,
  fechaBanco,
  movimientosRequest,
  pagoB2pRequest,
  saldoRequest,
  type Comercio,
  type TipoTrx,
} from './requests';
import {
  interpretConsultaCredito,
  interpretConsultaPago,
  interpretCreditos,
  interpretMovimientos,
  interpretOrder,
  interpretSaldo,
  type OrderKind,
} from './responses';

/** Bancaribe's settings: the gateway's credentials, the merchant, and the kit's send options (timeouts, breaker). */
export interface BancaribeConnectorConfig extends GatewayCredentials, SendOptions {
  comercio: Comercio;
}

export type BancaribeConnectorDeps = KitDeps;

type Raw = Record<string, unknown>;

const CAPABILITIES: readonly Capability[] = ['cobrar', 'pagar', 'consultar', 'saldo', 'movimientos'];

const noSoportado = (descripcion: string): BankOutcome => unsupported(descripcion);

/**
 * Bancaribe through its WSO2 gateway, as a kit definition. Collections by C2P (the payer brings the
 * key from his own bank), payouts by pago móvil (B2P) or crédito inmediato, voiding of a C2P,
 * status, balance and statement. OAuth2 and the Bearer transport are protocol.ts, bodies
 * requests.ts, answers responses.ts, codes codes.ts.
 */
class BancaribeBank implements BankDefinition {
  readonly banco = 'bancaribe' as const;
  readonly capabilities = CAPABILITIES;
  readonly transport: GatewayTransport;
  private readonly now: () => Date;

  constructor(
    private readonly config: BancaribeConnectorConfig,
    kit: GuardedSend,
  ) {
    this.now = kit.now;
    this.transport = new GatewayTransport(kit, config);
  }

  /** A throw is the kit's to read: before any call a rejection (FormatError's motivo), after one unknown. */
  execute(order: ExecuteOrder): Promise<BankOutcome> {
    return this.executeOrder(order);
  }

  status(query: StatusQuery): Promise<BankOutcome> {
    return this.statusOf(query);
  }

  async saldo(_mode: Mode, query: SaldoQuery): Promise<ReadOutcome<Saldo>> {
    const sent = await this.transport.send('saldo', () => saldoRequest(this.config.comercio, query.cuenta));
    if (sent.kind !== 'answer') return readFailure(sent);
    return interpretSaldo(sent.answer, query.cuenta, this.now());
  }

  /** The day's credits from the statement call (`ctasConsultaMovimientos`). */
  async creditos(_mode: Mode, query: CreditosQuery): Promise<ReadOutcome<CreditoRecibido[]>> {
    const fecha = fechaBanco(query.fecha);
    const sent = await this.transport.send('movimientos', () => movimientosRequest(this.config.comercio, query.cuenta, fecha, fecha));
    if (sent.kind !== 'answer') return readFailure(sent);
    const read = interpretCreditos(sent.answer, query.cuenta);
    if (!read.ok) return read;
    return { ok: true, value: creditsOfDay(query.fecha, read.creditos) };
  }

  async movimientos(_mode: Mode, query: MovimientosQuery): Promise<ReadOutcome<Movimientos>> {
    const hasta = query.hasta ?? caracasDate(this.now());
    const offset = cursorOffset(query.cursor);
    if (offset === null) return invalidCursor();
    const sent = await this.transport.send('movimientos', () =>
      movimientosRequest(this.config.comercio, query.cuenta, fechaBanco(query.desde), fechaBanco(hasta)),
    );
    if (sent.kind !== 'answer') return readFailure(sent);
    const read = interpretMovimientos(sent.answer);
    if (!read.ok) return read;
    return { ok: true, value: statementPage('bancaribe', query, hasta, offset, read.movimientos) };
  }

  // -------------------------------------------------------------------------------------------

  /** Edge (merchant accounts): a live order's registered account (and its phone) replaces the configured one, for the order and its status. */
  private comercioOf(account: OrderAccount | undefined): Comercio {
    if (!account) return this.config.comercio;
    return { ...this.config.comercio, cuenta: account.cuenta, ...(account.telefono ? { telefono: account.telefono } : {}) };
  }

  private async executeOrder(order: ExecuteOrder): Promise<BankOutcome> {
    const comercio = this.comercioOf(order.account);
    const request = order.request;
    switch (request.kind) {
      case 'token':
        return noSoportado('Bancaribe no ofrece solicitud de OTP: el pagador obtiene su clave C2P en su propio banco');
      case 'cobrar':
        if (order.rail !== 'c2p') return noSoportado(`Bancaribe no ofrece cobro por ${order.rail}`);
        if (request.body.pagador.tipo !== 'telefono') return noSoportado('El cobro C2P requiere el teléfono del pagador');
        return this.order('c2p', order.orderRef, (token) => c2pRequest(order.orderRef, comercio, token, request.body));
      case 'pagar':
        if (order.rail === 'pago_movil') {
          if (request.body.beneficiario.tipo !== 'telefono') return noSoportado('El pago móvil requiere el teléfono del beneficiario');
          return this.order('pagoB2p', order.orderRef, () => pagoB2pRequest(order.orderRef, comercio, request.body));
        }
        if (order.rail === 'credito_inmediato')
          return this.order('credito', order.orderRef, (token) => creditoRequest(order.orderRef, comercio, token, request.body));
        return noSoportado(`Bancaribe no ofrece pagos por ${order.rail}`);
      case 'reverso': {
        const related = order.related;
        if (related?.rail !== 'c2p') return noSoportado(`Bancaribe solo anula cobros C2P, no ${related?.rail ?? 'esta operación'}`);
        if (!related.referencia) return noSoportado('El cobro C2P no tiene secuencial del banco que anular');
        const original = related.referencia;
        const concepto = request.body.concepto ?? 'Anulacion';
        return this.order('anulacion', order.orderRef, (token) => anulacionRequest(order.orderRef, comercio, token, original, concepto));
      }
    }
  }

  private async order(kind: OrderKind, orderRef: string, build: (token: string) => Record<string, unknown>): Promise<BankOutcome> {
    // Built once before the token is asked for: our data that does not fit the bank's forms throws a
    // FormatError while nothing has left (the kit refuses the order), never after the token call.
    build('');
    const route = kind === 'anulacion' ? 'c2p' : kind === 'credito' ? 'creditoInmediato' : kind;
    const sent = await this.transport.send(route, build);
    switch (sent.kind) {
      case 'not_sent':
        return { type: 'not_processed', raw: { reason: sent.reason, orderRef } };
      case 'unknown':
        return { type: 'unknown', raw: { reason: sent.reason, orderRef } };
      case 'auth':
        return { type: 'rejected', motivo: 'FIRMA_AUTH', referencia: null, raw: sent.raw };
      case 'answer':
        return interpretOrder(sent.answer, kind);
    }
  }

  private async statusOf(query: StatusQuery): Promise<BankOutcome> {
    // Asked with the merchant data the order was made with (its phone is `telefonoDebito`).
    const comercio = this.comercioOf(query.account);
    const pago = async (tipoTrx: TipoTrx) => {
      const sent = await this.transport.send('consultaPago', () =>
        consultaPagoRequest(comercio, tipoTrx, query.referencia, query.orderRef),
      );
      return sent.kind === 'answer' ? interpretConsultaPago(sent.answer, query.referencia, query.orderRef) : noEvidence(sent);
    };
    if (query.kind === 'cobrar' && query.rail === 'c2p') return pago('C2P');
    // A void is recorded by the C2P service under its own numeroReferencia.
    if (query.kind === 'reverso') return pago('C2P');
    if (query.kind === 'pagar' && query.rail === 'pago_movil') return pago('B2P');
    if (query.kind === 'pagar' && query.rail === 'credito_inmediato') {
      const sent = await this.transport.send('consultaCredito', (token) =>
        consultaCreditoRequest(comercio, token, query.referencia, query.orderRef),
      );
      return sent.kind === 'answer' ? interpretConsultaCredito(sent.answer) : noEvidence(sent);
    }
    return { type: 'not_processed', raw: { codigo: 'NO_SOPORTADO', descripcion: `Bancaribe no ejecuta ${query.kind} por ${query.rail}` } };
  }
}

/** A status query that got no answer, or was refused, says nothing about the order. */
function noEvidence(sent: Exclude<GatewaySent, { kind: 'answer' }>): BankOutcome {
  return { type: 'unknown', raw: sent.kind === 'auth' ? sent.raw : { reason: sent.reason } };
}

function readFailure(sent: Exclude<GatewaySent, { kind: 'answer' }>): {
  ok: false;
  motivo: 'BANCO_NO_DISPONIBLE' | 'FIRMA_AUTH';
  raw: Raw;
} {
  return sent.kind === 'auth'
    ? { ok: false, motivo: 'FIRMA_AUTH', raw: sent.raw }
    : { ok: false, motivo: 'BANCO_NO_DISPONIBLE', raw: { reason: sent.reason } };
}

/** Bancaribe's connector: the kit's, over `BancaribeBank`. */
export const BancaribeConnector = defineConnector<BancaribeConnectorConfig, BancaribeConnectorDeps, BancaribeBank>(
  'bancaribe',
  (config, kit) => new BancaribeBank(config, kit),
);
export type BancaribeConnector = BankConnectorKit<BancaribeBank>;
