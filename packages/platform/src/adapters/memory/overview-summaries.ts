import type { Mode } from '@switch/core/bancos';
import { clonePlain } from '@switch/core/clone';
import { merchantHourKey } from '@switch/core/overview-hours';
import type { HourSummary } from '@switch/core/overview-summary';
import type { OverviewSummaryTable } from '../../ports/overview-summaries';

/** The overview's hour summaries in memory: one process, so each write is atomic by construction. */
export class MemoryOverviewSummaries implements OverviewSummaryTable {
  private readonly rows = new Map<string, HourSummary>();

  async between(merchantId: string, mode: Mode, from: string, to: string): Promise<HourSummary[]> {
    return this.within(merchantId, mode, from, to).map((s) => clonePlain(s));
  }

  async openBetween(merchantId: string, mode: Mode, from: string, to: string): Promise<Pick<HourSummary, 'hour' | 'open'>[]> {
    return this.within(merchantId, mode, from, to).map((s) => ({ hour: s.hour, open: [...s.open] }));
  }

  async put(summary: HourSummary): Promise<boolean> {
    const key = merchantHourKey(summary.merchantId, summary.mode, summary.hour);
    const stored = this.rows.get(key);
    if (stored && stored.open.length <= summary.open.length) return false;
    this.rows.set(key, clonePlain(summary));
    return true;
  }

  private within(merchantId: string, mode: Mode, from: string, to: string): HourSummary[] {
    return [...this.rows.values()]
      .filter((s) => s.merchantId === merchantId && s.mode === mode && s.hour >= from && s.hour <= to)
      .sort((a, b) => (a.hour < b.hour ? -1 : 1));
  }
}
