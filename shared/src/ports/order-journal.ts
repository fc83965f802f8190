import type { BancoId } from '../domain/bancos';
import type { BankOutcome } from '../domain/operation';

/**
 * The bank side's journal of one order (an attempt's execute): claimed before the bank is called,
 * its outcome recorded before it is published. A redelivered order that finds the claim is never sent
 * again (issue: send once per attempt, whatever is redelivered, retried, crashed or rebalanced).
 */
export interface BankOrderRecord {
  /** `<txnId>#<attempt>`. */
  id: string;
  txnId: string;
  attempt: number;
  banco: BancoId;
  orderRef: string;
  /** Which worker process claimed it (diagnosis). */
  claimedBy: string;
  claimedAt: string;
  /** The bank's answer as the connector read it; null while unknown to the journal. */
  outcome: BankOutcome | null;
  recordedAt: string | null;
}

export const bankOrderId = (txnId: string, attempt: number): string => `${txnId}#${attempt}`;

export type BankOrderClaim = { claimed: true } | { claimed: false; existing: BankOrderRecord };

/**
 * The bank workers' journal: every order claimed before its bank is called and its outcome recorded
 * before it is published (the router claims an order it gave up on, so a late copy is never sent),
 * and the numbers banks need per order (`bankReferences`).
 */
export interface OrderJournal {
  bankOrders: {
    /** Atomic: of concurrent claims of one id, exactly one wins; the others get the record as it is. */
    claim(record: BankOrderRecord): Promise<BankOrderClaim>;
    /** Records the outcome of a claimed order (only its claimer writes it). */
    recordOutcome(id: string, outcome: BankOutcome, at: string): Promise<void>;
    get(id: string): Promise<BankOrderRecord | null>;
  };
  bankReferences: {
    /**
     * The number `key` (e.g. an orderRef) holds in `scope` (e.g. one bank and merchant), allocated on
     * first ask from the scope's sequence 1, 2, 3…: unique by construction across every replica
     * sharing the store, and the same number for the same key on every later ask.
     */
    assign(scope: string, key: string): Promise<number>;
    /** The number `key` holds in `scope`, or null when it was never assigned. */
    find(scope: string, key: string): Promise<number | null>;
  };
}
