import { describe, expect, it } from 'vitest';
import type { OverviewGroup } from './overview';
import { hourSummaryOf, hoursToFold, monthsBetween } from './overview-summary';

const g = (estado: OverviewGroup['estado'], banco: OverviewGroup['banco'], amount: number): OverviewGroup => ({
  day: '2026-11-27',
  kind: 'pagar',
  estado,
  banco,
  motivo: null,
  count: 1,
  amount,
  latencyMs: 0,
});

describe('hour summaries', () => {
  it('are canonical: the same operations read in any order give an equal summary', () => {
    const open = (id: string) => ({ id }) as never;
    const a = hourSummaryOf('m', 'test', {
      hour: '2026-11-27T08',
      final: [g('LIQUIDADA', 'bnc', 0.1 + 0.2), g('RECHAZADA', 'bancaribe', 5)],
      open: [open('b'), open('a')],
    });
    const b = hourSummaryOf('m', 'test', {
      hour: '2026-11-27T08',
      final: [g('RECHAZADA', 'bancaribe', 5), g('LIQUIDADA', 'bnc', 0.3)],
      open: [open('a'), open('b')],
    });
    expect(a).toEqual(b);
    expect(a.open).toEqual(['a', 'b']);
    expect(a.final.map((x) => x.amount)).toEqual([0.3, 5]);
  });

  it('a period is read by the months it spans', () => {
    expect(monthsBetween('2026-10-29T00', '2026-11-27T15')).toEqual(['2026-10', '2026-11']);
    expect(monthsBetween('2026-12-20T00', '2027-01-02T03')).toEqual(['2026-12', '2027-01']);
    expect(monthsBetween('2026-11-27T00', '2026-11-27T15')).toEqual(['2026-11']);
  });

  it('the fold takes complete hours without a summary, newest first, up to its limit', () => {
    const hours = ['2026-11-27T12', '2026-11-27T13', '2026-11-27T14', '2026-11-27T15'];
    // 19:30 UTC is 15:30 in Caracas: 14:00 ended half an hour ago, 15:00 is running.
    const now = Date.parse('2026-11-27T19:30:00.000Z');
    expect(hoursToFold(hours, new Set(['2026-11-27T13']), now, 10)).toEqual(['2026-11-27T14', '2026-11-27T12']);
    expect(hoursToFold(hours, new Set(), now, 1)).toEqual(['2026-11-27T14']);
    // At 15:10 in Caracas, 14:00 is still open to late first writes.
    expect(hoursToFold(hours, new Set(), Date.parse('2026-11-27T19:10:00.000Z'), 10)).toEqual(['2026-11-27T13', '2026-11-27T12']);
  });
});
