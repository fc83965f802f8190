import type { Mode } from '@switch/core/contracts/bancos';
import { clonePlain } from './clone';
import type { HourSummary } from '@switch/core/overview-summary';
import type { OverviewSummaryTable } from '../../ports/overview-summaries';

/** The overview's hour summaries in memory: one process, so each write is atomic by construction. */
export class MemoryOverviewSummaries implements OverviewSummaryTable {
  /** By `merchant|mode`, then by hour. */
  private readonly rows = new Map<string, Map<string, HourSummary>>();

  async between(merchantId: string, mode: Mode, from: string, to: string): Promise<HourSummary[]> {
    return this.within(merchantId, mode, from, to).map((s) => clonePlain(s));
  }

  async openBetween(merchantId: string, mode: Mode, from: string, to: string): Promise<Pick<HourSummary, 'hour' | 'open'>[]> {
    return this.within(merchantId, mode, from, to).map((s) => ({ hour: s.hour, open: [...s.open] }));
  }

  async put(summary: HourSummary): Promise<boolean> {
    const key = `${summary.merchantId}|${summary.mode}`;
    const hours = this.rows.get(key) ?? new Map<string, HourSummary>();
    this.rows.set(key, hours);
    const stored = hours.get(summary.hour);
    if (stored && stored.open.length <= summary.open.length) return false;
    hours.set(summary.hour, clonePlain(summary));
    return true;
  }

  private within(merchantId: string, mode: Mode, from: string, to: string): HourSummary[] {
    return [...(this.rows.get(`${merchantId}|${mode}`)?.values() ?? [])]
      .filter((s) => s.hour >= from && s.hour <= to)
      .sort((a, b) => (a.hour < b.hour ? -1 : 1));
  }
}
