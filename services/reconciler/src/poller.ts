import { metrics } from '@switch/platform/telemetry/metrics';
import { needsReview, OPEN_STATES } from '@switch/core/transaction-core';
import { TOPICS } from '@switch/core/contracts/topics';
import type { Bus } from '@switch/platform/ports/bus';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { DueCursor, TransactionReads } from '@switch/platform/ports/transaction-reads';
import type { Transaction } from '@switch/core/operation';

export interface ReconcilerConfig {
  /** Operations still open after this age are flagged for manual review. */
  reviewAfterMs: number;
  /** Due operations looked at per round (a round with a full batch is followed by another at once). */
  batchSize: number;
}

export interface RoundResult {
  queried: string[];
  flagged: string[];
  /** Where this round stopped when its batch was full: the next round of the same walk starts there. */
  cursor: DueCursor | null;
}

/**
 * One reconciliation round: every transaction whose due time (`nextCheckAt`, kept by the transaction
 * core on every write) has come is handed to the transaction actor as a status check, earliest first,
 * read by an index. What is due: settlement checks of open operations (with their backoff), orders and
 * status queries nobody answered by their deadline, operations written but never dispatched. Tokens
 * and final operations are never due, so no backlog of them can starve the rest. The actor asks the
 * bank and applies the answer (the reconciler never writes a transaction, never re-executes); its write
 * moves the due time on.
 */
export async function reconcileRound(
  deps: {
    bus: Bus;
    store: { transactions: TransactionReads };
    log: Logger;
    config: ReconcilerConfig;
    now?: () => Date;
    /** Where the round runs under a lease: it publishes nothing once the lease may have passed to another replica. */
    fence?: { holds(): boolean };
  },
  after?: DueCursor,
): Promise<RoundResult> {
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const due = await deps.store.transactions.listDue(now, deps.config.batchSize, after);
  const last = due[due.length - 1];
  const result: RoundResult = {
    queried: [],
    flagged: [],
    cursor: last && due.length >= deps.config.batchSize ? { at: last.nextCheckAt!, id: last.id } : null,
  };
  metrics.reconcilerCycles.inc();
  for (const tx of due) {
    if (deps.fence && !deps.fence.holds()) {
      deps.log.warn(
        { left: due.length - result.queried.length },
        'reconciliation round stopped: its lease may have passed to another replica',
      );
      result.cursor = null;
      break;
    }
    if (needsReview(tx, now, deps.config.reviewAfterMs)) {
      const reason = `still ${tx.estado ?? 'without an answer'} after ${Math.round((Date.parse(now) - Date.parse(tx.createdAt)) / 60_000)} min`;
      await deps.bus.publish(TOPICS.routerInbox, tx.id, { type: 'review', txnId: tx.id, reason });
      result.flagged.push(tx.id);
    }
    await deps.bus.publish(TOPICS.routerInbox, tx.id, { type: 'query', txnId: tx.id });
    result.queried.push(tx.id);
  }
  if (result.queried.length || result.flagged.length)
    deps.log.info({ queried: result.queried.length, flagged: result.flagged.length }, 'reconciliation round');
  return result;
}

/** Backlog gauges: open operations by state, the oldest's age, and the manual-review queue. */
export async function observeBacklog(store: { transactions: TransactionReads }, now = Date.now()): Promise<void> {
  const open = await store.transactions.listByEstado([...OPEN_STATES], 10_000);
  for (const estado of OPEN_STATES) {
    const mine = open.filter((t) => t.estado === estado && t.kind !== 'token');
    metrics.openOperations.set({ estado }, mine.length);
    metrics.openOldestAge.set({ estado }, mine.length ? (now - Date.parse(mine[0]!.createdAt)) / 1000 : 0);
  }
  const review = open.filter((t: Transaction) => t.review);
  metrics.reviewOperations.set(review.length);
  metrics.reviewOldestAge.set(review.length ? Math.max(...review.map((t) => (now - Date.parse(t.review!.since)) / 1000)) : 0);
}
