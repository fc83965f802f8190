import { metrics, TOPICS, type Bus, type Logger, type Store, type Transaction } from '@switch/shared';

export interface ReconcilerConfig {
  /** Waits between status queries of one operation, by how many were asked already (last one repeats). */
  backoffMs: readonly number[];
  /** Operations still open after this age are flagged for manual review. */
  reviewAfterMs: number;
  /** Open operations looked at per round. */
  batchSize: number;
}

export const DEFAULT_BACKOFF_MS: readonly number[] = [5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000];

/** When an operation's next status query is due: backoff counted from its last query (or its last write). */
export function nextQueryAt(tx: Transaction, backoffMs: readonly number[]): number {
  const from = Date.parse(tx.lastStatusAt ?? tx.updatedAt);
  const wait = backoffMs[Math.min(tx.statusChecks, backoffMs.length - 1)] ?? 0;
  return from + wait;
}

export interface RoundResult {
  queried: string[];
  flagged: string[];
}

/**
 * One reconciliation round: every open operation (ACEPTADA, PENDIENTE, DESCONOCIDA) whose next query
 * is due is handed to the transaction actor as a status query; the actor asks the bank and applies the
 * answer, so the reconciler never writes a transaction itself. Token operations move no money and are
 * not reconciled.
 */
export async function reconcileRound(deps: { bus: Bus; store: Store; log: Logger; config: ReconcilerConfig; now?: () => Date }): Promise<RoundResult> {
  const now = (deps.now ?? (() => new Date()))().getTime();
  const open = await deps.store.transactions.listByEstado(['ACEPTADA', 'PENDIENTE', 'DESCONOCIDA'], deps.config.batchSize);
  const result: RoundResult = { queried: [], flagged: [] };
  metrics.reconcilerCycles.inc();
  observeBacklog(open, now);
  for (const tx of open) {
    if (tx.kind === 'token') continue;
    if (!tx.review && now - Date.parse(tx.createdAt) >= deps.config.reviewAfterMs) {
      const reason = `still ${tx.estado} after ${Math.round((now - Date.parse(tx.createdAt)) / 60_000)} min`;
      await deps.bus.publish(TOPICS.routerInbox, tx.id, { type: 'review', txnId: tx.id, reason });
      result.flagged.push(tx.id);
    }
    if (tx.statusQuery || now < nextQueryAt(tx, deps.config.backoffMs)) continue;
    await deps.bus.publish(TOPICS.routerInbox, tx.id, { type: 'query', txnId: tx.id });
    result.queried.push(tx.id);
  }
  if (result.queried.length || result.flagged.length) deps.log.info({ queried: result.queried.length, flagged: result.flagged.length }, 'reconciliation round');
  return result;
}

/** Backlog gauges: open operations by state, the oldest's age, and the manual-review queue. */
function observeBacklog(open: Transaction[], now: number): void {
  for (const estado of ['ACEPTADA', 'PENDIENTE', 'DESCONOCIDA'] as const) {
    const mine = open.filter((t) => t.estado === estado && t.kind !== 'token');
    metrics.openOperations.set({ estado }, mine.length);
    metrics.openOldestAge.set({ estado }, mine.length ? (now - Date.parse(mine[0]!.createdAt)) / 1000 : 0);
  }
  const review = open.filter((t) => t.review);
  metrics.reviewOperations.set(review.length);
  metrics.reviewOldestAge.set(review.length ? Math.max(...review.map((t) => (now - Date.parse(t.review!.since)) / 1000)) : 0);
}
