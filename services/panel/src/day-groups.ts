import type { Mode } from '@switch/core/bancos';
import type { OverviewGroup } from '@switch/core/overview';
import { daySealed, type DayOverview } from '@switch/core/overview-days';

/** How long a past day that still has open operations is kept before it is read again. */
export const OPEN_DAY_TTL_MS = 60_000;
/** Sealed days kept per process (a merchant's 30 days in one mode are 30 entries). */
const SEALED_KEPT = 50_000;
/** Days read from the store at once on a page's first view. */
const READS_AT_ONCE = 4;

interface DayReads {
  overviewOfDay(merchantId: string, mode: Mode, day: string): Promise<DayOverview>;
}

/**
 * The overview's day groups for one panel process (decision 0205). Nothing here is shared between
 * replicas, and nothing needs to be: a sealed day (`daySealed`: over for an hour, every operation of
 * it final) can no longer change, so every replica may keep it for ever; a past day with open
 * operations is read again after `OPEN_DAY_TTL_MS`; today is read on every request. Two replicas can
 * disagree only on a past day's open operations, for at most a minute.
 */
export class DayGroups {
  private readonly sealed = new Map<string, OverviewGroup[]>();
  private readonly open = new Map<string, { at: number; groups: OverviewGroup[] }>();

  constructor(
    private readonly store: DayReads,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The groups of `days` (the last one may be today), read or kept as above. */
  async of(merchantId: string, mode: Mode, days: readonly string[], today: string): Promise<OverviewGroup[]> {
    const out: OverviewGroup[][] = [];
    const missing: string[] = [];
    const now = this.clock();
    for (const day of days) {
      const key = `${merchantId}|${mode}|${day}`;
      const kept = this.sealed.get(key) ?? (day === today ? undefined : this.freshOpen(key, now));
      if (kept) out.push(kept);
      else missing.push(day);
    }
    for (let i = 0; i < missing.length; i += READS_AT_ONCE) {
      const read = await Promise.all(missing.slice(i, i + READS_AT_ONCE).map((day) => this.store.overviewOfDay(merchantId, mode, day)));
      for (const d of read) {
        this.keep(`${merchantId}|${mode}|${d.day}`, d, d.day === today);
        out.push(d.groups);
      }
    }
    return out.flat();
  }

  private freshOpen(key: string, now: number): OverviewGroup[] | undefined {
    const hit = this.open.get(key);
    return hit && now - hit.at < OPEN_DAY_TTL_MS ? hit.groups : undefined;
  }

  private keep(key: string, d: DayOverview, today: boolean): void {
    const now = this.clock();
    if (daySealed(d, now)) {
      // Oldest entries first out: a map iterates in insertion order.
      if (this.sealed.size >= SEALED_KEPT) this.sealed.delete(this.sealed.keys().next().value!);
      this.sealed.set(key, d.groups);
      this.open.delete(key);
    } else if (!today) {
      if (this.open.size >= SEALED_KEPT) this.open.clear();
      this.open.set(key, { at: now, groups: d.groups });
    }
  }
}
