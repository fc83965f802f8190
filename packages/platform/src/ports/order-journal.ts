import type { ReferenceBook } from '@switch/connector-kit/references';
import type { BancoId } from '@switch/core/contracts/bancos';
import type { BankOutcome } from '@switch/core/operation';

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
  /** The numbers banks need per order, from the kit's reference book (unique across replicas). */
  bankReferences: ReferenceBook;
}
