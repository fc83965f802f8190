import type { Mode } from '@switch/core/contracts/bancos';
import { isFinal } from '@switch/core/estados';
import type { Transaction } from '@switch/core/operation';
import { addToOverview, type OverviewGroup } from '@switch/core/overview';
import { hourComplete, hoursOf, type HourOverview } from '@switch/core/overview-hours';

/** Hours kept per process (a merchant's 30 days in one mode are 720). */
const HOURS_KEPT = 200_000;
/** Hours read from the store at once on a page's first view. */
const READS_AT_ONCE = 4;

interface HourReads {
  overviewOfHour(merchantId: string, mode: Mode, hour: string): Promise<HourOverview>;
  get(id: string): Promise<Transaction | null>;
}

/** A complete hour as this process keeps it: its final groups, and the ids still open when last read. */
interface KeptHour {
  final: OverviewGroup[];
  /** Operations of the hour that became final after its first read (keyed as `addToOverview` keys). */
  later: Map<string, OverviewGroup>;
  open: string[];
}

/**
 * The overview's groups for one panel process (decision 0205), correct at any number of replicas
 * without sharing anything: what a process keeps can no longer change. An hour is kept once it is
 * complete (`hourComplete`: no operation of it is still to be written), as the groups of its final
 * operations (final outcomes never change) and the ids of its open ones, which are read again by id
 * on every view until they are final too. Hours not yet complete (the current one, and the one
 * before it for a quarter of an hour) are read whole on every view. Every figure is as fresh as the
 * request: a payout settled a second ago, in any hour, is on the page.
 */
export class OverviewHours {
  private readonly kept = new Map<string, KeptHour>();

  constructor(
    private readonly store: HourReads,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The groups of `days` (Venezuelan, `YYYY-MM-DD`), up to now. */
  async of(merchantId: string, mode: Mode, days: readonly string[]): Promise<OverviewGroup[]> {
    const now = this.clock();
    const out: OverviewGroup[][] = [];
    const toRead: string[] = [];
    const keptHours: KeptHour[] = [];
    const stillOpen: string[] = [];
    for (const hour of hoursOf(days, now)) {
      const kept = this.kept.get(`${merchantId}|${mode}|${hour}`);
      if (!kept) toRead.push(hour);
      else {
        keptHours.push(kept);
        stillOpen.push(...kept.open.map((id) => `${hour}|${id}`));
      }
    }
    // The open operations of kept hours, by id: the few that may have moved since.
    const open = new Map<string, OverviewGroup>();
    for (let i = 0; i < stillOpen.length; i += READS_AT_ONCE * 4) {
      const batch = stillOpen.slice(i, i + READS_AT_ONCE * 4);
      const read = await Promise.all(batch.map((entry) => this.store.get(entry.slice(entry.indexOf('|') + 1))));
      read.forEach((tx, k) => {
        const hour = batch[k]!.slice(0, batch[k]!.indexOf('|'));
        const kept = this.kept.get(`${merchantId}|${mode}|${hour}`)!;
        if (tx && isFinal(tx.estado)) {
          addToOverview(kept.later, tx);
          kept.open = kept.open.filter((id) => id !== tx.id);
        } else if (tx) addToOverview(open, tx);
      });
    }
    for (const kept of keptHours) out.push(kept.final, [...kept.later.values()]);
    out.push([...open.values()]);
    for (let i = 0; i < toRead.length; i += READS_AT_ONCE) {
      const read = await Promise.all(toRead.slice(i, i + READS_AT_ONCE).map((hour) => this.store.overviewOfHour(merchantId, mode, hour)));
      for (const h of read) {
        const pending = new Map<string, OverviewGroup>();
        for (const tx of h.open) addToOverview(pending, tx);
        out.push(h.final, [...pending.values()]);
        if (hourComplete(h.hour, now)) this.keep(`${merchantId}|${mode}|${h.hour}`, h);
      }
    }
    return out.flat();
  }

  private keep(key: string, h: HourOverview): void {
    // Oldest entries first out: a map iterates in insertion order.
    if (this.kept.size >= HOURS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, { final: h.final, later: new Map(), open: h.open.map((tx) => tx.id) });
  }
}
