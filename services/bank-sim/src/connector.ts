import { existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { CAPABILITIES, type Mode } from '@switch/core/bancos';
import { cursorOffset, invalidCursor, statementPage } from '@switch/connector-kit/statement';
import type { BankConnector, ExecuteOrder, ReadContext, ReadOutcome, StatusQuery } from '@switch/connector-kit/bank-port';
import type { BankOutcome } from '@switch/core/operation';
import type { Movimiento, Movimientos, MovimientosQuery, Saldo, SaldoQuery } from '@switch/core/contracts/bancos';
import type { CreditoRecibido, CreditosQuery } from '@switch/core/contracts/creditos';
import { credito, creditsOfDay } from '@switch/connector-kit/credits';
import { incomingReceipt, type IncomingPagoMovil, type IncomingReceipt } from '@switch/connector-kit/emulator';

/** Every simulated account opens with this balance, so statements and balances are deterministic. */
export const OPENING_BALANCE = 1_000_000;

interface Order {
  txnId: string;
  outcome: BankOutcome;
  kind: ExecuteOrder['request']['kind'];
  rail: ExecuteOrder['rail'];
}

/**
 * The simulated bank behind `bnc` in test mode (SPEC 4.10, DESIGN decisions). It never reaches a
 * network; an order seen twice (same orderRef) is answered from its ledger, not executed again.
 */
export class SimulatedBank implements BankConnector {
  readonly banco = 'bnc' as const;
  readonly capabilities = CAPABILITIES;
  private readonly orders = new Map<string, Order>();
  /** One ledger per merchant: keyed by `<merchantId>|<cuenta>`, so no merchant reads another's movements. */
  private readonly statements = new Map<string, Movimiento[]>();
  /** Incoming pagos móviles per merchant account (same keys), with their payers: the credits a verification reads. */
  private readonly incoming = new Map<string, CreditoRecibido[]>();
  /** Every order received per orderRef, repeats included: more than 1 is one attempt sent twice. */
  private readonly received = new Map<string, number>();
  /** The journal, opened once for appending (an open and a close per order cost more than the write). */
  private journalFd: number | undefined;

  /**
   * `journal`: a file where every order received is appended before it is answered, and replayed at
   * start. A real bank keeps its ledger when our connector process dies; with a journal the simulated
   * one does too, so a restarted bank-sim still knows the orders it took (status queries, drills).
   */
  constructor(
    private readonly now: () => Date = () => new Date(),
    private readonly journal?: string,
  ) {
    if (journal && existsSync(journal)) {
      for (const line of readFileSync(journal, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        let entry: { at: string; order: ExecuteOrder };
        try {
          entry = JSON.parse(line) as { at: string; order: ExecuteOrder };
        } catch {
          continue; // a line cut by a kill -9 mid-write: that order was never answered
        }
        this.receive(entry.order, new Date(entry.at));
      }
    }
  }

  /** Orders executed (not counting repeats): what "one bank call" is measured by. */
  get executedOrders(): number {
    return this.orders.size;
  }

  /** Executed orders per transaction: more than one for a transaction would be money moved twice. */
  ordersByTransaction(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const o of this.orders.values()) counts[o.txnId] = (counts[o.txnId] ?? 0) + 1;
    return counts;
  }

  /** Orders received per orderRef, repeats included. */
  receivedByOrderRef(): Record<string, number> {
    return Object.fromEntries(this.received);
  }

  /** The outcome of each order executed, by orderRef (the bank's ledger, for the drills' checks). */
  ledger(): Record<string, { txnId: string; kind: string; rail: string; outcome: BankOutcome['type'] }> {
    const out: Record<string, { txnId: string; kind: string; rail: string; outcome: BankOutcome['type'] }> = {};
    for (const [ref, o] of this.orders) out[ref] = { txnId: o.txnId, kind: o.kind, rail: o.rail, outcome: o.outcome.type };
    return out;
  }

  async execute(order: ExecuteOrder): Promise<BankOutcome> {
    const at = this.now();
    if (this.journal) {
      this.journalFd ??= openSync(this.journal, 'a');
      // The payer's OTP is not written down, even here: the replay needs the order, not its OTP.
      const kept =
        order.request.kind === 'cobrar' ? { ...order, request: { ...order.request, body: { ...order.request.body, otp: '' } } } : order;
      writeSync(this.journalFd, `${JSON.stringify({ at: at.toISOString(), order: kept })}\n`);
    }
    return this.receive(order, at);
  }

  private receive(order: ExecuteOrder, at: Date): BankOutcome {
    this.received.set(order.orderRef, (this.received.get(order.orderRef) ?? 0) + 1);
    const seen = this.orders.get(order.orderRef);
    if (seen) return seen.outcome;
    const referencia = `TEST-${order.idempotencyKey.slice(0, 8)}`;
    const raw = { simulated: true, codigo: '00', descripcion: 'Aprobada (simulada)' };
    let outcome: BankOutcome;
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
      case 'cobrar':
        outcome = { type: 'accepted', pending: false, referencia, endtoend: null, raw };
        this.post(
          order.merchantId,
          order.request.body.cobrador,
          'credito',
          order.request.body.monto.valor,
          order.request.body.concepto,
          referencia,
          at,
        );
        break;
      case 'pagar':
        outcome =
          order.rail === 'pago_movil'
            ? { type: 'settled', referencia, endtoend: null, raw }
            : { type: 'accepted', pending: false, referencia, endtoend: null, raw };
        this.post(
          order.merchantId,
          order.request.body.ordenante,
          'debito',
          order.request.body.monto.valor,
          order.request.body.concepto,
          referencia,
          at,
        );
        break;
      case 'reverso':
        outcome = {
          type: 'rejected',
          motivo: 'NO_SOPORTADO',
          referencia: null,
          raw: { simulated: true, codigo: 'NS', descripcion: 'El riel simulado no admite reverso' },
        };
        break;
    }
    this.orders.set(order.orderRef, { txnId: order.txnId, outcome, kind: order.request.kind, rail: order.rail });
    return outcome;
  }

  /** Asynchronous operations settle at the next status query. */
  async status(query: StatusQuery): Promise<BankOutcome> {
    const order = this.orders.get(query.orderRef);
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
    const balance = this.balanceOf(context.merchantId, query.cuenta);
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
      value: statementPage('bnc', query, hasta, offset, this.statements.get(ledgerKey(context.merchantId, query.cuenta)) ?? []),
    };
  }

  /**
   * A payer's pago móvil arriving in a merchant's account (the sandbox): booked under the payer bank's
   * full reference, on the bank's day, with the payer's phone, bank and id.
   */
  receivePagoMovil(merchantId: string, payment: IncomingPagoMovil): IncomingReceipt {
    const receipt = incomingReceipt(payment, (payer) => payer);
    const key = ledgerKey(merchantId, payment.cuenta);
    const hora = receipt.fechaBanco === receipt.fecha ? venezuelanTime(payment.at) : '00:00:00';
    const concepto = payment.concepto ?? 'PAGO MOVIL RECIBIDO';
    const saldo = round2(this.balanceOf(merchantId, payment.cuenta) + payment.monto);
    const list = this.statements.get(key) ?? [];
    list.push({
      fecha: receipt.fechaBanco,
      hora,
      referencia: receipt.referenciaBanco,
      concepto,
      tipo: 'credito',
      monto: payment.monto,
      saldo,
    });
    this.statements.set(key, list);
    const credits = this.incoming.get(key) ?? [];
    credits.push(
      credito(
        'bnc',
        payment.cuenta,
        { referencia: receipt.referenciaBanco, fecha: receipt.fechaBanco, hora, monto: payment.monto, concepto },
        {
          telefono: payment.telefonoPagador,
          identificacion: payment.identificacionPagador ?? null,
          banco: payment.bancoPagador,
        },
      ),
    );
    this.incoming.set(key, credits);
    return receipt;
  }

  /** The merchant's incoming pagos móviles of the day; with `referencia`, those whose reference ends in it. */
  async creditos(_mode: Mode, query: CreditosQuery, context: ReadContext = {}): Promise<ReadOutcome<CreditoRecibido[]>> {
    const all = this.incoming.get(ledgerKey(context.merchantId, query.cuenta)) ?? [];
    const ref = query.referencia;
    return { ok: true, value: creditsOfDay(query.fecha, ref ? all.filter((c) => c.referencia.endsWith(ref)) : all).map((c) => ({ ...c })) };
  }

  private balanceOf(merchantId: string | undefined, cuenta: string): number {
    const list = this.statements.get(ledgerKey(merchantId, cuenta));
    const last = list?.[list.length - 1];
    return last?.saldo ?? OPENING_BALANCE;
  }

  private post(
    merchantId: string | undefined,
    instrumento: { tipo: string; valor: string },
    tipo: 'credito' | 'debito',
    monto: number,
    concepto: string,
    referencia: string,
    at: Date,
  ): void {
    if (instrumento.tipo !== 'cuenta') return;
    const key = ledgerKey(merchantId, instrumento.valor);
    const saldo = round2(this.balanceOf(merchantId, instrumento.valor) + (tipo === 'credito' ? monto : -monto));
    const list = this.statements.get(key) ?? [];
    list.push({ fecha: venezuelanDate(at), hora: venezuelanTime(at), referencia, concepto, tipo, monto, saldo });
    this.statements.set(key, list);
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;
/** A merchant's simulated account (orders from before merchants were keyed share the '' ledger). */
const ledgerKey = (merchantId: string | undefined, cuenta: string) => `${merchantId ?? ''}|${cuenta}`;
/** Bank statements are dated in Venezuelan time (UTC-4, no daylight saving). */
const shifted = (d: Date) => new Date(d.getTime() - 4 * 3600_000).toISOString();
const venezuelanDate = (d: Date) => shifted(d).slice(0, 10);
const venezuelanTime = (d: Date) => shifted(d).slice(11, 19);
