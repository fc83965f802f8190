import { addDays, daysBetween, FormatError } from '@switch/connector-kit/formats';
import {
  CAPABILITIES,
  type Mode,
  type Movimientos,
  type MovimientosQuery,
  type Saldo,
  type SaldoQuery,
  type CreditoRecibido,
  type CreditosQuery,
} from '@switch/core/contracts/bancos';
import {
  cursorOffset,
  invalidCursor,
  statementPage,
  bankCodeOf,
  credito,
  creditsOfDay,
  identificacionOf,
  phoneOf,
  defineConnector,
  saldoRead,
  type BankConnectorKit,
  type BankDefinition,
} from '@switch/connector-kit/connector';
import type { OrderAccount, ReadContext, ReadOutcome, ExecuteOrder, StatusQuery } from '@switch/connector-kit/bank-port';
import type { BankOutcome } from '@switch/core/operation';
import type { GuardedSend, KitDeps, SendOptions } from '@switch/connector-kit/send';
import { BncClient, type BncCall } from './protocol';
import {
  BNC_PATHS,
  codigoBancoInt,
  envelopeReference,
  fechaBnc,
  identificacionBnc,
  instrumentoSimf,
  montoBnc,
  operationRef,
  otpBnc,
  SIMF_OPERATION_TYPE,
  telefonoBnc,
  textoBnc,
  venezuelanDate,
} from './requests';
import {
  answerRaw,
  isCredit,
  noSoportado,
  orderOutcome,
  readFailure,
  REFERENCE_FIELDS,
  settledWithReference,
  simfExecuted,
  simfStatus,
  stringField as str,
  toMovimiento,
  type Movement,
} from './responses';

export { BNC_PATHS, SIMF_OPERATION_TYPE };

/** BNC's settings, with the kit's send options (answer and connect timeouts, breaker). */
export interface BncConnectorConfig extends SendOptions {
  /** `https://servicios.bncenlinea.com:16000/api` in production (16500 is QA). */
  baseUrl: string;
  clientGuid: string;
  masterKey: string;
  /** The merchant's RIF as BNC knows it (`ClientID`), e.g. `J123456789`. */
  clientId: string;
  /** The merchant's 20-digit BNC account: collections land in it, payouts leave it. */
  account: string;
  /** C2P `Terminal` assigned by BNC (e.g. `TERM0001`). */
  terminal: string;
  /** Sub-merchant RIF and branch, when the credentials are a parent's (PROTOCOLS §1.4). */
  childClientId?: string;
  branchId?: string;
  /** Days of statement searched for an order's movement (status of P2P/C2P, C2P reversal). */
  lookbackDays?: number;
}

export type BncConnectorDeps = KitDeps;

/** HistoryByDate spans at most 31 days per call (doc). */
const HISTORY_MAX_DAYS = 31;
/** A statement request fans out into one call per window: about a year at most per read. */
const HISTORY_MAX_WINDOWS = 12;

type Search = { kind: 'found'; movement: Movement } | { kind: 'absent'; raw: Record<string, unknown> } | { kind: 'failed'; call: BncCall };

/**
 * Who an order or query acts for at BNC: the RIF BNC knows it by (`ClientID` of Position/*), its
 * account, and the `ChildClientID` that makes the parent's ClientGUID act for it (null: the parent).
 */
export interface BncMerchant {
  clientId: string;
  account: string;
  child: string | null;
}

/** `V012345678` and `V12345678` name the same person. */
const sameRif = (a: string, b: string): boolean => {
  const [x, y] = [a.trim().toUpperCase(), b.trim().toUpperCase()];
  return x[0] === y[0] && Number(x.slice(1)) === Number(y.slice(1));
};

/**
 * The merchant an order, a status query or a read acts for (issue "Hardening the edge": each
 * merchant's money moves in its own account). BNC identifies the client by its credentials and takes
 * no merchant account in its orders; under one ClientGUID it serves sub-merchants named by
 * `ChildClientID` (their RIF, PROTOCOLS §1.4). So:
 * - a registered account with its holder's RIF acts as that child (`ChildClientID`, its `ClientID` and
 *   account in Position/*), unless the RIF is the switch's own (then the parent, no child);
 * - a registered account without a RIF is only usable when it is the switch's own configured account;
 *   any other is refused before anything is sent (FIRMA_AUTH: a set-up problem, never rerouted),
 *   because BNC would otherwise move the money in the switch's own books;
 * - no registered account (test mode, where no register is checked, SPEC 4.10.4): the switch's own
 *   merchant as configured (`BNC_LIVE_CLIENT_ID`, `_ACCOUNT`, optional `_CHILD_CLIENT_ID`).
 */
export function bncMerchant(config: BncConnectorConfig, account: OrderAccount | undefined): BncMerchant {
  const own: BncMerchant = { clientId: config.clientId, account: config.account, child: config.childClientId ?? null };
  if (!account) return own;
  if (account.rif) {
    if (sameRif(account.rif, config.clientId)) return { clientId: config.clientId, account: account.cuenta, child: null };
    return { clientId: account.rif, account: account.cuenta, child: account.rif };
  }
  if (account.cuenta === config.account) return own;
  throw new FormatError(
    `the registered BNC account ${account.cuenta} has no holder RIF: BNC would act for the switch, not the merchant (register it with account add --rif)`,
    'FIRMA_AUTH',
  );
}

/**
 * BNC's live connector (PROTOCOLS §1) as a kit definition. C2P and P2P are synchronous (settled on
 * OK); Débito and Crédito Inmediato go through the central bank's SIMF (accepted, then settled
 * through GetStatusTrans). Envelope, crypto and session are protocol.ts, request shapes requests.ts,
 * answers responses.ts, codes codes.ts; the kit's guarded send holds a breaker per BNC path.
 */
class BncBank implements BankDefinition {
  readonly banco = 'bnc' as const;
  readonly capabilities = CAPABILITIES;
  readonly client: BncClient;
  private readonly now: () => Date;

  constructor(
    private readonly config: BncConnectorConfig,
    kit: GuardedSend,
  ) {
    this.now = kit.now;
    this.client = new BncClient(config, kit);
  }

  /** Never throws past the kit: a FormatError before any call is a rejection, a throw after one is unknown. */
  execute(order: ExecuteOrder): Promise<BankOutcome> {
    return this.run(order);
  }

  async status(query: StatusQuery): Promise<BankOutcome> {
    if (query.kind === 'token') return { type: 'unknown', raw: { switch: 'una solicitud de OTP no tiene estado que consultar en BNC' } };
    // Asked as the merchant the order was made for, about its account (never the switch's own).
    const m = bncMerchant(this.config, query.account);
    if (query.rail === 'debito_inmediato' || query.rail === 'credito_inmediato') {
      const inner = this.withChild(m, {
        OperationType: SIMF_OPERATION_TYPE[query.rail],
        Reference: query.referencia ?? envelopeReference(query.orderRef),
      });
      return simfStatus(await this.client.call(BNC_PATHS.status, inner, this.client.freshReference('Q')));
    }
    return await this.movementStatus(m, query);
  }

  async saldo(_mode: Mode, query: SaldoQuery, context: ReadContext = {}): Promise<ReadOutcome<Saldo>> {
    const m = bncMerchant(this.config, context.account);
    const call = await this.client.call(
      BNC_PATHS.balance,
      this.withChild(m, { ClientID: identificacionBnc(m.clientId) }),
      this.client.freshReference('Q'),
    );
    if (call.kind !== 'answer' || call.answer.status !== 'OK' || call.answer.valueProblem) return readFailure(call);
    const accounts = (call.answer.value ?? {}) as Record<string, { CurrencyCode?: unknown; Balance?: unknown } | undefined>;
    const entry = accounts[query.cuenta];
    const balance = Number(entry?.Balance);
    if (!entry || !Number.isFinite(balance))
      return {
        ok: false,
        motivo: 'CUENTA_NO_EXISTE',
        raw: { ...answerRaw(call.answer), codigo: 'CUENTA', descripcion: 'la cuenta no pertenece al cliente BNC' },
      };
    return saldoRead('bnc', query.cuenta, { disponible: balance }, this.now(), {
      CurrencyCode: entry.CurrencyCode ?? null,
      Balance: entry.Balance,
      message: call.answer.message,
    });
  }

  async movimientos(_mode: Mode, query: MovimientosQuery, context: ReadContext = {}): Promise<ReadOutcome<Movimientos>> {
    const m = bncMerchant(this.config, context.account);
    const hasta = query.hasta ?? venezuelanDate(this.now());
    const offset = cursorOffset(query.cursor);
    if (offset === null) return invalidCursor();
    if (daysBetween(query.desde, hasta) >= HISTORY_MAX_DAYS * HISTORY_MAX_WINDOWS) {
      return {
        ok: false,
        motivo: 'EXCEDE_LIMITE',
        raw: { codigo: 'RANGO', descripcion: `a lo sumo ${HISTORY_MAX_DAYS * HISTORY_MAX_WINDOWS} días por consulta` },
      };
    }
    const fetched = await this.history(m, query.cuenta, query.desde, hasta);
    if (!fetched.ok) return readFailure(fetched.call);
    const all = fetched.movements.map(toMovimiento);
    all.sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : 0));
    return { ok: true, value: statementPage('bnc', query, hasta, offset, all) };
  }

  /** The day's credits from `Position/HistoryByDate`, with the payer's phone (`DebtorInstrument`), bank and id. */
  async creditos(_mode: Mode, query: CreditosQuery, context: ReadContext = {}): Promise<ReadOutcome<CreditoRecibido[]>> {
    const m = bncMerchant(this.config, context.account);
    const fetched = await this.history(m, query.cuenta, query.fecha, query.fecha);
    if (!fetched.ok) return readFailure(fetched.call);
    const lines = fetched.movements.filter(isCredit).map((line) => {
      const mov = toMovimiento(line);
      return credito('bnc', query.cuenta, mov, {
        telefono: phoneOf(line.DebtorInstrument),
        identificacion: identificacionOf(line.DebtorID),
        banco: bankCodeOf(line.BankCode),
      });
    });
    return { ok: true, value: creditsOfDay(query.fecha, lines) };
  }

  private async run(order: ExecuteOrder): Promise<BankOutcome> {
    const reference = envelopeReference(order.orderRef);
    const req = order.request;
    // Each merchant's money moves in its own account: BNC acts for the order's registered holder.
    const m = bncMerchant(this.config, order.account);
    switch (req.kind) {
      case 'token': {
        if (order.rail !== 'debito_inmediato') return noSoportado('BNC solo emite OTP para Débito Inmediato');
        const p = req.body.pagador;
        const debtor = instrumentoSimf(p);
        const inner = this.withChild(m, {
          Amount: montoBnc(req.body.monto.valor),
          DebtorAccount: debtor.account,
          DebtorAccountType: debtor.type,
          DebtorBank: p.banco,
          DebtorID: identificacionBnc(p.identificacion),
        });
        return orderOutcome(await this.client.call(BNC_PATHS.debitToken, inner, reference), 'simf', (a, raw) => ({
          type: 'accepted',
          pending: false,
          referencia: str((a.value as Record<string, unknown> | null)?.Reference),
          endtoend: null,
          raw,
        }));
      }
      case 'cobrar': {
        const { pagador, monto, concepto, otp } = req.body;
        if (order.rail === 'debito_inmediato') {
          const debtor = instrumentoSimf(pagador);
          const inner = this.withChild(m, {
            Amount: montoBnc(monto.valor),
            DebtorAccount: debtor.account,
            DebtorAccType: debtor.type,
            DebtorBank: pagador.banco,
            DebtorID: identificacionBnc(pagador.identificacion),
            DebtorName: textoBnc(pagador.nombre, 40),
            Concept: textoBnc(concepto),
            AddtlInf: otpBnc(otp),
          });
          return orderOutcome(await this.client.call(BNC_PATHS.debit, inner, reference), 'simf', simfExecuted);
        }
        if (order.rail !== 'c2p') return noSoportado(`BNC no cobra por el riel ${order.rail}`);
        if (pagador.tipo !== 'telefono') return noSoportado('El C2P de BNC cobra a un teléfono afiliado a Pago Móvil');
        const inner = this.withChild(m, {
          DebtorBankCode: codigoBancoInt(pagador.banco),
          DebtorCellPhone: telefonoBnc(pagador.valor),
          DebtorID: identificacionBnc(pagador.identificacion),
          Amount: montoBnc(monto.valor),
          Token: otp,
          Terminal: this.config.terminal,
        });
        return orderOutcome(await this.client.call(BNC_PATHS.sendC2P, inner, reference), 'c2p', settledWithReference);
      }
      case 'pagar': {
        const { beneficiario, monto, concepto } = req.body;
        if (order.rail === 'pago_movil') {
          if (beneficiario.tipo !== 'telefono') return noSoportado('El Pago Móvil de BNC paga a un teléfono');
          const inner = this.withChild(m, {
            Amount: montoBnc(monto.valor),
            BeneficiaryBankCode: codigoBancoInt(beneficiario.banco),
            BeneficiaryCellPhone: telefonoBnc(beneficiario.valor),
            BeneficiaryEmail: '',
            BeneficiaryID: identificacionBnc(beneficiario.identificacion),
            BeneficiaryName: textoBnc(beneficiario.nombre, 40),
            Description: textoBnc(concepto),
            OperationRef: operationRef(order.orderRef),
          });
          return orderOutcome(await this.client.call(BNC_PATHS.sendP2P, inner, reference), 'p2p', settledWithReference);
        }
        if (order.rail !== 'credito_inmediato') return noSoportado(`BNC no paga por el riel ${order.rail}`);
        const creditor = instrumentoSimf(beneficiario);
        const inner = this.withChild(m, {
          Amount: montoBnc(monto.valor),
          CreditorBank: beneficiario.banco,
          CreditorID: identificacionBnc(beneficiario.identificacion),
          CreditorAccType: creditor.type,
          CreditorAccount: creditor.account,
          CreditorName: textoBnc(beneficiario.nombre, 40),
          Concept: textoBnc(concepto),
        });
        return orderOutcome(await this.client.call(BNC_PATHS.credit, inner, reference), 'simf', simfExecuted);
      }
      case 'reverso':
        return this.reverse(m, order, reference);
    }
  }

  /**
   * BNC reverses C2P collections only (`ReverseC2P`). It wants the original's transaction id and
   * amount, which the reverse order does not carry, so both are read from the merchant's statement
   * line whose bank reference is the original's [inf: ControlNumber is the C2P IdTransaction].
   */
  private async reverse(m: BncMerchant, order: ExecuteOrder, reference: string): Promise<BankOutcome> {
    const related = order.related;
    if (related?.rail !== 'c2p' || !related.referencia) return noSoportado('BNC solo reversa cobros C2P (MobPayment/ReverseC2P)');
    const original = related.referencia;
    const search = await this.findMovement(m, (line) => str(line.ReferenceA) === original && isCredit(line));
    if (search.kind === 'failed')
      return {
        type: 'not_processed',
        raw: { etapa: 'buscar original', ...(search.call.kind === 'answer' ? answerRaw(search.call.answer) : search.call.raw) },
      };
    if (search.kind === 'absent')
      return noSoportado(`el cobro C2P ${original} no está en los últimos ${this.lookbackDays} días del estado de cuenta`);
    const inner = this.withChild(m, {
      IdTransactionToReverse: Number(search.movement.ControlNumber),
      Amount: montoBnc(Math.abs(Number(search.movement.Amount))),
      Terminal: this.config.terminal,
    });
    return orderOutcome(await this.client.call(BNC_PATHS.reverseC2P, inner, reference), 'c2p', settledWithReference);
  }

  /**
   * P2P, C2P and reversals have no status endpoint; BNC marks the movement with the `Reference` we
   * sent (doc), so the statement tells whether the order ran. Absent → "no such order".
   */
  private async movementStatus(m: BncMerchant, query: StatusQuery): Promise<BankOutcome> {
    const marker = envelopeReference(query.orderRef);
    const search = await this.findMovement(
      m,
      (line) =>
        REFERENCE_FIELDS.some((f) => str(line[f]) === marker) || (query.referencia !== null && str(line.ReferenceA) === query.referencia),
    );
    switch (search.kind) {
      case 'failed':
        return { type: 'unknown', raw: search.call.kind === 'answer' ? answerRaw(search.call.answer) : search.call.raw };
      case 'absent':
        return { type: 'not_processed', raw: search.raw };
      case 'found':
        return {
          type: 'settled',
          referencia: str(search.movement.ReferenceA) ?? str(search.movement.ControlNumber),
          endtoend: null,
          raw: { movimiento: search.movement },
        };
    }
  }

  private get lookbackDays(): number {
    return this.config.lookbackDays ?? 3;
  }

  private async findMovement(m: BncMerchant, match: (line: Movement) => boolean): Promise<Search> {
    const today = venezuelanDate(this.now());
    const fetched = await this.history(m, m.account, addDays(today, 1 - this.lookbackDays), today);
    if (!fetched.ok) return { kind: 'failed', call: fetched.call };
    const movement = fetched.movements.find(match);
    return movement
      ? { kind: 'found', movement }
      : {
          kind: 'absent',
          raw: { codigo: 'SIN_MOVIMIENTO', descripcion: 'BNC no muestra un movimiento con esa referencia', cuenta: m.account },
        };
  }

  /** The account's statement lines from `desde` to `hasta`, in windows of at most 31 days. */
  private async history(
    m: BncMerchant,
    account: string,
    desde: string,
    hasta: string,
  ): Promise<{ ok: true; movements: Movement[] } | { ok: false; call: BncCall }> {
    const movements: Movement[] = [];
    for (let start = desde; daysBetween(start, hasta) >= 0; start = addDays(start, HISTORY_MAX_DAYS)) {
      const end = daysBetween(start, hasta) >= HISTORY_MAX_DAYS ? addDays(start, HISTORY_MAX_DAYS - 1) : hasta;
      const inner = this.withChild(m, {
        ClientID: identificacionBnc(m.clientId),
        AccountNumber: account,
        StartDate: fechaBnc(start),
        EndDate: fechaBnc(end),
      });
      const call = await this.client.call(BNC_PATHS.history, inner, this.client.freshReference('Q'));
      if (call.kind !== 'answer' || call.answer.status !== 'OK' || call.answer.valueProblem) return { ok: false, call };
      const lines = ((call.answer.value ?? {}) as Record<string, unknown>)[account];
      if (Array.isArray(lines)) movements.push(...(lines.filter((l) => l && typeof l === 'object') as Movement[]));
    }
    return { ok: true, movements };
  }

  private withChild(m: BncMerchant, inner: Record<string, unknown>): Record<string, unknown> {
    if (m.child) inner.ChildClientID = identificacionBnc(m.child);
    if (this.config.branchId) inner.BranchID = this.config.branchId;
    return inner;
  }
}

/** BNC's connector: the kit's, over `BncBank` (its session is `connector.bank.client.session`). */
export const BncConnector = defineConnector<BncConnectorConfig, BncConnectorDeps, BncBank>(
  'bnc',
  (config, kit) => new BncBank(config, kit),
);
export type BncConnector = BankConnectorKit<BncBank>;
