import type { Mode } from '@switch/core/contracts/bancos';
import type { Transaction } from '@switch/core/operation';
import { addToOverview, type OverviewGroup } from '@switch/core/overview';
import { hourComplete, hoursOf, type HourOverview } from '@switch/core/overview-hours';
import type { OverviewSummaryTable } from '@switch/platform/ports/overview-summaries';

/** Hours or operations read from the store at once. */
const READS_AT_ONCE = 4;
const IDS_AT_ONCE = 16;

export interface OverviewReads {
  transactions: {
    overviewOfHour(merchantId: string, mode: Mode, hour: string): Promise<HourOverview>;
    get(id: string): Promise<Transaction | null>;
  };
  overviewSummaries: Pick<OverviewSummaryTable, 'between'>;
}

/**
 * The overview's groups of a period (decision 0215), the same at every replica and as fresh as the
 * request, with nothing kept in the process: the complete hours' summaries the fold stored
 * (`overviewSummaries.between`: one indexed query per month spanned), the operations those list as
 * open read again by id (whatever their state now), and live (`overviewOfHour`, one indexed equality
 * each) the hours not yet complete and any complete hour the fold has not reached yet.
 */
export async function overviewGroups(
  store: OverviewReads,
  merchantId: string,
  mode: Mode,
  days: readonly string[],
  now: number,
): Promise<OverviewGroup[]> {
  const hours = hoursOf(days, now);
  if (hours.length === 0) return [];
  // A summary of an hour not complete by this replica's clock (clocks apart) is left for the live read.
  const summaries = (await store.overviewSummaries.between(merchantId, mode, hours[0]!, hours[hours.length - 1]!)).filter((s) =>
    hourComplete(s.hour, now),
  );
  const summarized = new Set(summaries.map((s) => s.hour));
  const out: OverviewGroup[][] = summaries.map((s) => s.final);
  const open = new Map<string, OverviewGroup>();
  const openIds = summaries.flatMap((s) => s.open);
  for (let i = 0; i < openIds.length; i += IDS_AT_ONCE) {
    const read = await Promise.all(openIds.slice(i, i + IDS_AT_ONCE).map((id) => store.transactions.get(id)));
    for (const tx of read) if (tx) addToOverview(open, tx);
  }
  out.push([...open.values()]);
  // Not complete (the current hour, the one before for its first quarter), or not folded yet.
  const live = hours.filter((hour) => !summarized.has(hour));
  for (let i = 0; i < live.length; i += READS_AT_ONCE) {
    const read = await Promise.all(
      live.slice(i, i + READS_AT_ONCE).map((hour) => store.transactions.overviewOfHour(merchantId, mode, hour)),
    );
    for (const h of read) {
      const pending = new Map<string, OverviewGroup>();
      for (const tx of h.open) addToOverview(pending, tx);
      out.push(h.final, [...pending.values()]);
    }
  }
  return out.flat();
}
