import type { Mode } from '@switch/core/contracts/bancos';
import { isFinal } from '@switch/core/estados';
import type { Transaction } from '@switch/core/operation';
import { lastDays, venezuelanDayOf } from '@switch/core/overview';
import { hoursOf, type HourOverview } from '@switch/core/overview-hours';
import { hourSummaryOf, hoursToFold } from '@switch/core/overview-summary';
import type { LeaseTable } from '@switch/platform/ports/leases';
import type { OverviewSummaryTable } from '@switch/platform/ports/overview-summaries';
import { LeaseKeeper, startLeasedLoop, type Fence } from '@switch/platform/runtime/leased-loop';
import type { Logger } from '@switch/platform/telemetry/logger';

/** The lease the panel replicas share: one of them folds at a time. */
export const OVERVIEW_FOLD_LEASE = 'panel-overview-fold';
/** How far back the fold keeps summaries: the overview's longest period. */
const PERIOD_DAYS = 30;
const MODES: readonly Mode[] = ['test', 'live'];

export interface FoldStore {
  merchants: { list(): Promise<{ id: string }[]> };
  transactions: {
    overviewOfHour(merchantId: string, mode: Mode, hour: string): Promise<HourOverview>;
    get(id: string): Promise<Transaction | null>;
  };
  overviewSummaries: OverviewSummaryTable;
}

export interface FoldRound {
  /** Hours folded for the first time. */
  folded: number;
  /** Summaries folded again because an operation they listed as open has its outcome now. */
  refolded: number;
  /** Whether hours were left for the next round (the round's budget or its lease ran out). */
  more: boolean;
}

/**
 * One round of the overview's fold (decision 0215), at `now`: for every merchant and mode, the
 * complete hours of the last 30 days without a summary are folded and stored, newest first (the hour
 * that just became complete, then back through the period), at most `budget` hours in all; then
 * summaries listing an operation that has its outcome now are folded again, so the next views read
 * fewer operations by id. Stops early when the fence lapses. Every write is idempotent (`put`), so a
 * round cut short or run twice is harmless.
 */
export async function foldOverviewRound(store: FoldStore, now: number, budget: number, fence?: Fence): Promise<FoldRound> {
  const hours = hoursOf(lastDays(venezuelanDayOf(new Date(now).toISOString()), PERIOD_DAYS), now);
  const [from, to] = [hours[0]!, hours[hours.length - 1]!];
  const round: FoldRound = { folded: 0, refolded: 0, more: false };
  const holds = () => fence?.holds() ?? true;
  const fold = async (merchantId: string, mode: Mode, hour: string) =>
    store.overviewSummaries.put(hourSummaryOf(merchantId, mode, await store.transactions.overviewOfHour(merchantId, mode, hour)));
  for (const { id: merchantId } of await store.merchants.list()) {
    for (const mode of MODES) {
      if (!holds()) return { ...round, more: true };
      const stored = await store.overviewSummaries.openBetween(merchantId, mode, from, to);
      const todo = hoursToFold(hours, new Set(stored.map((s) => s.hour)), now, budget - round.folded - round.refolded + 1);
      for (const hour of todo) {
        if (round.folded + round.refolded >= budget || !holds()) return { ...round, more: true };
        await fold(merchantId, mode, hour);
        round.folded++;
      }
      for (const summary of stored.filter((s) => s.open.length > 0)) {
        if (round.folded + round.refolded >= budget || !holds()) return { ...round, more: true };
        if (!(await anySettled(store, summary.open))) continue;
        await fold(merchantId, mode, summary.hour);
        round.refolded++;
      }
    }
  }
  return round;
}

/** Whether any of `ids` has its final outcome now (read by id, a few at a time). */
async function anySettled(store: FoldStore, ids: readonly string[]): Promise<boolean> {
  for (let i = 0; i < ids.length; i += 16) {
    const read = await Promise.all(ids.slice(i, i + 16).map((id) => store.transactions.get(id)));
    if (read.some((tx) => tx && isFinal(tx.estado))) return true;
  }
  return false;
}

/** Hours a round folds at most (a round holds the lease meanwhile; the next starts at the next interval). */
const HOURS_PER_ROUND = 48;
const INTERVAL_MS = 30_000;
/** At least a round of `HOURS_PER_ROUND` slow hours (the fence stops a longer one). */
const LEASE_MS = 120_000;

/**
 * The fold as a background loop of the panel, on one replica at a time (the `panel-overview-fold`
 * lease): a round every 30 s; while hours are left (the first rounds after a deployment back-fill
 * the period) the next round follows at once.
 */
export function startOverviewFold(deps: {
  store: FoldStore & { leases: LeaseTable };
  log: Logger;
  /** This replica's stable id: the lease's holder. */
  instanceId: string;
  clock?: () => number;
}): { tick(): Promise<boolean>; stop(): Promise<void> } {
  const clock = deps.clock ?? Date.now;
  const keeper = new LeaseKeeper({
    leases: deps.store.leases,
    name: OVERVIEW_FOLD_LEASE,
    holder: deps.instanceId,
    ttlMs: LEASE_MS,
    log: deps.log,
  });
  // A stop ends a long back-fill round at its next hour rather than at its lease's end.
  let stopping = false;
  const round = async (lease: Fence) => {
    const fence: Fence = { token: lease.token, holds: () => !stopping && lease.holds() };
    for (;;) {
      const r = await foldOverviewRound(deps.store, clock(), HOURS_PER_ROUND, fence);
      if (r.folded + r.refolded > 0) deps.log.info({ folded: r.folded, refolded: r.refolded, more: r.more }, 'overview hours folded');
      if (!r.more || !fence.holds()) return;
    }
  };
  const loop = startLeasedLoop({ keeper, intervalMs: INTERVAL_MS, round, log: deps.log, what: 'overview fold' });
  return {
    tick: loop.tick,
    stop: async () => {
      stopping = true;
      await loop.stop();
    },
  };
}
