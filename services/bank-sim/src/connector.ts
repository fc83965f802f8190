import {
  CAPABILITIES,
  type Mode,
  type Movimiento,
  type Movimientos,
  type MovimientosQuery,
  type Saldo,
  type SaldoQuery,
  type CreditoRecibido,
  type CreditosQuery,
} from '@switch/core/contracts/bancos';
import { cursorOffset, invalidCursor, statementPage, credito, creditsOfDay } from '@switch/connector-kit/connector';
import type { BankConnector, ExecuteOrder, ReadContext, ReadOutcome, StatusQuery } from '@switch/connector-kit/bank-port';
import {
  bookIncomingPagoMovil,
  type SimulatedLedger,
  type SimulatedOrder,
  type SimulatedPosting,
} from '@switch/connector-kit/simulated-ledger';
import type { BankOutcome } from '@switch/core/operation';
import type { IncomingPagoMovil, IncomingReceipt } from '@switch/connector-kit/emulator';

/** Every simulated account opens with this balance, so statements and balances are deterministic. */
export const OPENING_BALANCE = 1_000_000;

/**
 * The simulated bank behind `bnc` in test mode (SPEC 4.10, DESIGN decisions). It never reaches a
 * network; an order seen twice (same orderRef) is answered from its ledger, not executed again. The
 * ledger is the store's (`simulatedBank`): every replica of bank-sim, and a restarted one, is the
 * same bank (docs/decisions/0180-simulated-bank-ledger-in-the-store.md).
 */
export class SimulatedBank implements BankConnector {
  readonly banco = 'bnc' as const;
  readonly capabilities = CAPABILITIES;
  /** Orders this replica took first, per transaction: in-process tests count bank calls with it. */
  private readonly taken = new Map<string, number>();

  constructor(
    private readonly ledgerOf: SimulatedLedger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Orders this replica executed (not counting repeats): what "one bank call" is measured by in-process. */
  get executedOrders(): number {
    let n = 0;
    for (const c of this.taken.values()) n += c;
    return n;
  }

  /** Orders this replica executed per transaction: more than one for a transaction would be money moved twice. */
  ordersByTransaction(): Record<string, number> {
    return Object.fromEntries(this.taken);
  }

  /** Orders received per orderRef by every replica, repeats included. */
  async receivedByOrderRef(): Promise<Record<string, number>> {
    return Object.fromEntries((await this.ledgerOf.all()).map(({ order, received }) => [order.orderRef, received]));
  }

  /** The outcome of each order executed, by orderRef (the bank's ledger, for the drills' checks). */
  async ledger(): Promise<Record<string, { txnId: string; kind: string; rail: string; outcome: BankOutcome['type'] }>> {
    const out: Record<string, { txnId: string; kind: string; rail: string; outcome: BankOutcome['type'] }> = {};
    for (const { order: o } of await this.ledgerOf.all())
      out[o.orderRef] = { txnId: o.txnId, kind: o.kind, rail: o.rail, outcome: o.outcome.type };
    return out;
  }

  async execute(order: ExecuteOrder): Promise<BankOutcome> {
    const taken = await this.ledgerOf.take(this.decide(order, this.now()));
    if (taken.first) this.taken.set(order.txnId, (this.taken.get(order.txnId) ?? 0) + 1);
    return taken.order.outcome;
  }

  /** What the bank does with an order it has not seen: pure (the ledger keeps the first decision). */
  private decide(order: ExecuteOrder, at: Date): SimulatedOrder {
    const referencia = `TEST-${order.idempotencyKey.slice(0, 8)}`;
    const raw = { simulated: true, codigo: '00', descripcion: 'Aprobada (simulada)' };
    let outcome: BankOutcome;
    let posting: SimulatedPosting | null = null;
    const postOn = (instrumento: { tipo: string; valor: string }, tipo: 'credito' | 'debito', monto: number, concepto: string) =>
      instrumento.tipo === 'cuenta' ? { cuenta: instrumento.valor, tipo, monto, concepto, referencia } : null;
    switch (order.request.kind) {
      case 'token':
        outcome = {
          type: 'accepted',
          pending: false,
          referencia,
          endtoend: null,
          raw: { ...raw, descripcion: 'OTP simulado, no se envió mensaje' },
        };
        break;
      case 'cobrar': {
        const body = order.request.body;
        outcome = { type: 'accepted', pending: false, referencia, endtoend: null, raw };
        posting = postOn(body.cobrador, 'credito', body.monto.valor, body.concepto);
        break;
      }
      case 'pagar': {
        const body = order.request.body;
        outcome =
          order.rail === 'pago_movil'
            ? { type: 'settled', referencia, endtoend: null, raw }
            : { type: 'accepted', pending: false, referencia, endtoend: null, raw };
        posting = postOn(body.ordenante, 'debito', body.monto.valor, body.concepto);
        break;
      }
      case 'reverso':
        outcome = {
          type: 'rejected',
          motivo: 'NO_SOPORTADO',
          referencia: null,
          raw: { simulated: true, codigo: 'NS', descripcion: 'El riel simulado no admite reverso' },
        };
        break;
    }
    return {
      orderRef: order.orderRef,
      txnId: order.txnId,
      merchantId: order.merchantId ?? '',
      kind: order.request.kind,
      rail: order.rail,
      outcome,
      posting,
      at: at.toISOString(),
    };
  }

  /** Asynchronous operations settle at the next status query. */
  async status(query: StatusQuery): Promise<BankOutcome> {
    const order = await this.ledgerOf.get(query.orderRef);
    if (!order) return { type: 'not_processed', raw: { simulated: true, codigo: 'NF', descripcion: 'Operación no encontrada' } };
    if (order.outcome.type !== 'accepted' || order.kind === 'token') return order.outcome;
    return {
      type: 'settled',
      referencia: order.outcome.referencia,
      endtoend: null,
      raw: { simulated: true, codigo: '00', descripcion: 'Liquidada (simulada)' },
    };
  }

  async saldo(_mode: Mode, query: SaldoQuery, context: ReadContext = {}): Promise<ReadOutcome<Saldo>> {
    const lines = await this.statement(context.merchantId, query.cuenta);
    const balance = lines[lines.length - 1]?.saldo ?? OPENING_BALANCE;
    return {
      ok: true,
      value: {
        cuenta: query.cuenta,
        banco: 'bnc',
        moneda: 'VES',
        disponible: balance,
        contable: balance,
        bloqueado: 0,
        consultado_en: this.now().toISOString(),
        raw: { simulated: true },
      },
    };
  }

  async movimientos(_mode: Mode, query: MovimientosQuery, context: ReadContext = {}): Promise<ReadOutcome<Movimientos>> {
    const hasta = query.hasta ?? venezuelanDate(this.now());
    const offset = cursorOffset(query.cursor);
    if (offset === null) return invalidCursor();
    return {
      ok: true,
      value: statementPage('bnc', query, hasta, offset, await this.statement(context.merchantId, query.cuenta)),
    };
  }

  /**
   * A payer's pago móvil arriving in a merchant's account (the sandbox): booked in the shared ledger
   * under the payer bank's full reference, on the bank's day, with the payer's phone, bank and id.
   */
  receivePagoMovil(merchantId: string, payment: IncomingPagoMovil): Promise<IncomingReceipt> {
    return bookIncomingPagoMovil(this.ledgerOf, merchantId, payment);
  }

  /** The merchant's incoming pagos móviles of the day; with `referencia`, those whose reference ends in it. */
  async creditos(_mode: Mode, query: CreditosQuery, context: ReadContext = {}): Promise<ReadOutcome<CreditoRecibido[]>> {
    const all = (await this.ledgerOf.postings(context.merchantId ?? '', query.cuenta)).flatMap((o) => {
      if (o.kind !== 'pago_movil_entrante' || !o.posting) return [];
      const when = new Date(o.at);
      const { referencia, concepto, monto } = o.posting;
      const payer = o.payer ?? { telefono: null, identificacion: null, banco: null };
      return [
        credito('bnc', query.cuenta, { referencia, fecha: venezuelanDate(when), hora: venezuelanTime(when), monto, concepto }, payer),
      ];
    });
    const ref = query.referencia;
    return { ok: true, value: creditsOfDay(query.fecha, ref ? all.filter((c) => c.referencia.endsWith(ref)) : all) };
  }

  /** A merchant's account as its statement: each posting with the balance after it, oldest first. */
  private async statement(merchantId: string | undefined, cuenta: string): Promise<Movimiento[]> {
    let saldo = OPENING_BALANCE;
    return (await this.ledgerOf.postings(merchantId ?? '', cuenta)).flatMap(({ posting, at }) => {
      if (!posting) return [];
      const when = new Date(at);
      saldo = round2(saldo + (posting.tipo === 'credito' ? posting.monto : -posting.monto));
      const { referencia, concepto, tipo, monto } = posting;
      return [{ fecha: venezuelanDate(when), hora: venezuelanTime(when), referencia, concepto, tipo, monto, saldo }];
    });
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;
/** Bank statements are dated in Venezuelan time (UTC-4, no daylight saving). */
const shifted = (d: Date) => new Date(d.getTime() - 4 * 3600_000).toISOString();
const venezuelanDate = (d: Date) => shifted(d).slice(0, 10);
const venezuelanTime = (d: Date) => shifted(d).slice(11, 19);
