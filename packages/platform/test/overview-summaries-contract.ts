import { storesClosedAfterEach } from './store-lifecycle';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { OverviewGroup } from '@switch/core/overview';
import type { HourSummary } from '@switch/core/overview-summary';
import type { Store } from '../src/ports/store';

const group = (day: string, count: number, amount: number): OverviewGroup => ({
  day,
  kind: 'pagar',
  estado: 'LIQUIDADA',
  banco: 'bnc',
  motivo: null,
  count,
  amount,
  latencyMs: 900 * count,
});

const summary = (merchantId: string, hour: string, open: string[], over: Partial<HourSummary> = {}): HourSummary => ({
  merchantId,
  mode: 'test',
  hour,
  final: [group(hour.slice(0, 10), 3, 300.75)],
  open,
  ...over,
});

/** The overview's hour summaries (packages/platform/src/ports/overview-summaries.ts), against every adapter. */
export function overviewSummariesContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract (overview hour summaries): ${name}`, () => {
    const store = storesClosedAfterEach(makeStore);
    const merchant = () => `m-${randomUUID().slice(0, 8)}`;

    it('reads back the summaries of one merchant and mode in an hour range, across a month boundary, oldest first', async () => {
      const s = await store();
      const m = merchant();
      const other = merchant();
      for (const hour of ['2026-10-31T22', '2026-10-31T23', '2026-11-01T00', '2026-11-01T05', '2026-09-30T23'])
        expect(await s.overviewSummaries.put(summary(m, hour, []))).toBe(true);
      await s.overviewSummaries.put(summary(m, '2026-11-01T00', [], { mode: 'live' }));
      await s.overviewSummaries.put(summary(other, '2026-11-01T00', []));
      const read = await s.overviewSummaries.between(m, 'test', '2026-10-31T23', '2026-11-01T05');
      expect(read.map((r) => r.hour)).toEqual(['2026-10-31T23', '2026-11-01T00', '2026-11-01T05']);
      expect(read[0]).toEqual(summary(m, '2026-10-31T23', []));
      expect(await s.overviewSummaries.between(m, 'live', '2026-10-01T00', '2026-11-30T23')).toHaveLength(1);
      expect(await s.overviewSummaries.between(m, 'test', '2026-11-02T00', '2026-11-30T23')).toEqual([]);
      await s.overviewSummaries.put(summary(m, '2026-11-01T06', ['txn_b', 'txn_c']));
      expect(await s.overviewSummaries.openBetween(m, 'test', '2026-11-01T05', '2026-11-01T06')).toEqual([
        { hour: '2026-11-01T05', open: [] },
        { hour: '2026-11-01T06', open: ['txn_b', 'txn_c'] },
      ]);
    });

    it('a fold stored again, or by another writer at once, leaves one summary', async () => {
      const s = await store();
      const m = merchant();
      const folds = await Promise.all(
        Array.from({ length: 5 }, () => s.overviewSummaries.put(summary(m, '2026-11-27T08', ['txn_a', 'txn_b']))),
      );
      expect(folds.filter(Boolean)).toHaveLength(1);
      expect(await s.overviewSummaries.put(summary(m, '2026-11-27T08', ['txn_a', 'txn_b']))).toBe(false);
      expect(await s.overviewSummaries.between(m, 'test', '2026-11-27T00', '2026-11-27T23')).toEqual([
        summary(m, '2026-11-27T08', ['txn_a', 'txn_b']),
      ]);
    });

    it('a fold with fewer open operations replaces the stored one; one with more never does', async () => {
      const s = await store();
      const m = merchant();
      await s.overviewSummaries.put(summary(m, '2026-11-27T08', ['txn_a', 'txn_b']));
      const settled = summary(m, '2026-11-27T08', ['txn_b'], { final: [group('2026-11-27', 4, 400.75)] });
      expect(await s.overviewSummaries.put(settled)).toBe(true);
      expect(await s.overviewSummaries.put(summary(m, '2026-11-27T08', ['txn_a', 'txn_b']))).toBe(false);
      expect(await s.overviewSummaries.between(m, 'test', '2026-11-27T08', '2026-11-27T08')).toEqual([settled]);
    });

    it('reads are copies', async () => {
      const s = await store();
      const m = merchant();
      await s.overviewSummaries.put(summary(m, '2026-11-27T08', ['txn_a']));
      const [read] = await s.overviewSummaries.between(m, 'test', '2026-11-27T08', '2026-11-27T08');
      read!.open.push('txn_x');
      read!.final[0]!.count = 99;
      expect(await s.overviewSummaries.between(m, 'test', '2026-11-27T08', '2026-11-27T08')).toEqual([
        summary(m, '2026-11-27T08', ['txn_a']),
      ]);
    });
  });
}
