import type { BankOutcome } from '@switch/core/operation';
import { incomingReceipt, type IncomingPagoMovil, type IncomingReceipt } from './emulator';

/** A line an order posted on a simulated account (statements and balances of test mode). */
export interface SimulatedPosting {
  cuenta: string;
  tipo: 'credito' | 'debito';
  monto: number;
  concepto: string;
  referencia: string;
}

/** One order the simulated bank took (test mode's `bnc`), keyed by the switch's orderRef. */
export interface SimulatedOrder {
  orderRef: string;
  txnId: string;
  /** '' when the order named no merchant. */
  merchantId: string;
  /** `pago_movil_entrante`: a payer's transfer into the merchant's account (the sandbox), not an order of the switch. */
  kind: 'token' | 'cobrar' | 'pagar' | 'reverso' | 'pago_movil_entrante';
  rail: string;
  outcome: BankOutcome;
  posting: SimulatedPosting | null;
  /** Who sent an incoming pago móvil (its credit's payer), as the bank reports it. */
  payer?: { telefono: string | null; identificacion: string | null; banco: string | null };
  /** When the bank took it (ISO 8601): statements list postings in this order. */
  at: string;
}

/**
 * The simulated bank's ledger. The store keeps it (its `simulatedBank`), so every replica of bank-sim
 * is one bank: during a rollout (old and new pod both serving) or after a restart, an order one
 * replica took is known to all (docs/decisions/0180-simulated-bank-ledger-in-the-store.md).
 */
export interface SimulatedLedger {
  /**
   * Records one receipt of `order.orderRef` and returns the order the ledger holds for it: `order`
   * (first: true) when no order held the orderRef, else the one taken first (atomic: of concurrent
   * takes on any replica, exactly one is first and kept).
   */
  take(order: SimulatedOrder): Promise<{ first: boolean; order: SimulatedOrder }>;
  get(orderRef: string): Promise<SimulatedOrder | null>;
  /** The orders that posted on a merchant's account, oldest first. */
  postings(merchantId: string, cuenta: string): Promise<SimulatedOrder[]>;
  /** Every order and how many times its orderRef was received (repeats included): the drills' view. */
  all(): Promise<Array<{ order: SimulatedOrder; received: number }>>;
}

/** Midnight of a Caracas day (UTC−4, no daylight saving) as an instant. */
const caracasMidnight = (day: string) => new Date(`${day}T04:00:00.000Z`);

/**
 * Books a payer's pago móvil into a merchant's account of the simulated bank (test mode's `bnc`): a
 * credit under the payer bank's full reference, on the day the bank books it (a payment made just
 * before midnight is booked at the start of the next day), keyed by account and reference so booking
 * the same transfer again changes nothing. In the store's ledger, so every replica of bank-sim (and
 * a gateway booking a sandbox payment) sees the same books.
 */
export async function bookIncomingPagoMovil(
  ledger: SimulatedLedger,
  merchantId: string,
  payment: IncomingPagoMovil,
): Promise<IncomingReceipt> {
  const receipt = incomingReceipt(payment, (payer) => payer);
  const at = receipt.fechaBanco === receipt.fecha ? payment.at : caracasMidnight(receipt.fechaBanco);
  const referencia = receipt.referenciaBanco;
  await ledger.take({
    orderRef: `pago-movil:${merchantId}|${payment.cuenta}|${referencia}`,
    txnId: '',
    merchantId,
    kind: 'pago_movil_entrante',
    rail: 'pago_movil',
    outcome: { type: 'settled', referencia, endtoend: null, raw: { simulated: true } },
    posting: {
      cuenta: payment.cuenta,
      tipo: 'credito',
      monto: payment.monto,
      concepto: payment.concepto ?? 'PAGO MOVIL RECIBIDO',
      referencia,
    },
    payer: { telefono: payment.telefonoPagador, identificacion: payment.identificacionPagador ?? null, banco: payment.bancoPagador },
    at: at.toISOString(),
  });
  return receipt;
}
