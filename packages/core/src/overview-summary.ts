import type { Mode } from './contracts/bancos';
import type { OverviewGroup } from './overview';
import { hourComplete, type HourOverview } from './overview-hours';

/**
 * One complete Venezuelan hour of a merchant's operations in one mode, as the store keeps it once for
 * every panel replica (decision 0215): the groups of its operations that had their final outcome when
 * it was folded (they never change), and the ids of those still open (read again by id on each view).
 */
export interface HourSummary {
  merchantId: string;
  mode: Mode;
  /** `YYYY-MM-DDTHH`, Venezuelan time. */
  hour: string;
  final: OverviewGroup[];
  /** Sorted. */
  open: string[];
}

const groupKey = (g: OverviewGroup) => `${g.day}|${g.kind}|${g.estado}|${g.banco ?? ''}|${g.motivo ?? ''}`;

/**
 * The summary of a complete hour as read (`hourFold`), in one canonical form: groups sorted by key,
 * amounts to the cent, open ids sorted. Two folds of the same operations in the same states give
 * equal summaries whatever order the store returned them in.
 */
export function hourSummaryOf(merchantId: string, mode: Mode, read: HourOverview): HourSummary {
  const final = read.final
    .map((g) => ({ ...g, amount: Math.round(g.amount * 100) / 100 }))
    .sort((a, b) => (groupKey(a) < groupKey(b) ? -1 : groupKey(a) > groupKey(b) ? 1 : 0));
  return { merchantId, mode, hour: read.hour, final, open: read.open.map((tx) => tx.id).sort() };
}

/**
 * The key a store files summaries under: merchant, mode and Venezuelan month (`merchant|mode|YYYY-MM`).
 * One equality on it is what MongoDB and FerretDB 1.24 both answer from an index (decision 0206), and a
 * period of up to 31 days spans at most two months: two queries, whatever the merchant's history.
 */
export const merchantMonthKey = (merchantId: string, mode: Mode, month: string): string => `${merchantId}|${mode}|${month}`;

/** The months (`YYYY-MM`) from the one of hour `from` to the one of hour `to` (`YYYY-MM-DDTHH`), oldest first. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))];
  const last = to.slice(0, 7);
  for (;;) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    if (month > last) return months;
    months.push(month);
    [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  }
}

/**
 * The complete hours of the `days` hours up to `now` (`hoursOf`) that have no summary in `stored`,
 * newest first, at most `limit`: what the fold does next (the hour that just became complete first,
 * then back through the period).
 */
export function hoursToFold(hours: readonly string[], stored: ReadonlySet<string>, now: number, limit: number): string[] {
  const out: string[] = [];
  for (let i = hours.length - 1; i >= 0 && out.length < limit; i--) {
    const hour = hours[i]!;
    if (hourComplete(hour, now) && !stored.has(hour)) out.push(hour);
  }
  return out;
}
