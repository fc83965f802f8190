import type { BankOutcome } from '@switch/core/operation';

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
  kind: 'token' | 'cobrar' | 'pagar' | 'reverso';
  rail: string;
  outcome: BankOutcome;
  posting: SimulatedPosting | null;
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
