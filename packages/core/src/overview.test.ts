import { describe, expect, it } from 'vitest';
import { addToOverview, lastDays, summarizeOverview, venezuelanDayOf, type OverviewGroup } from './overview';
import type { Transaction } from './operation';

const tx = (over: Partial<Transaction> & { valor: number }): Transaction =>
  ({
    id: 'x',
    kind: 'pagar',
    estado: 'LIQUIDADA',
    bancoUsado: 'bnc',
    motivoRechazo: null,
    request: { kind: 'pagar', body: { monto: { valor: over.valor } } },
    createdAt: '2026-11-27T12:00:00.000Z',
    updatedAt: '2026-11-27T12:00:02.000Z',
    ...over,
  }) as unknown as Transaction;

describe('the overview', () => {
  it('groups operations by Venezuelan day, kind, state, bank and reason, and sums them', () => {
    const groups = new Map<string, OverviewGroup>();
    addToOverview(groups, tx({ valor: 100 }));
    addToOverview(groups, tx({ valor: 50.25, updatedAt: '2026-11-27T12:00:04.000Z' }));
    addToOverview(groups, tx({ valor: 10, kind: 'cobrar', bancoUsado: 'bancaribe' }));
    addToOverview(groups, tx({ valor: 7, estado: 'RECHAZADA', motivoRechazo: 'SALDO_INSUFICIENTE' }));
    addToOverview(groups, tx({ valor: 7, estado: 'RECHAZADA', motivoRechazo: 'SALDO_INSUFICIENTE', bancoUsado: 'bancaribe' }));
    addToOverview(groups, tx({ valor: 3, estado: 'DESCONOCIDA' }));
    addToOverview(groups, tx({ valor: 1, kind: 'token' }));
    // 02:00 UTC on the 28th is still the 27th in Caracas.
    addToOverview(groups, tx({ valor: 1000, createdAt: '2026-11-28T02:00:00.000Z', updatedAt: '2026-11-28T02:00:01.000Z' }));
    addToOverview(groups, tx({ valor: 9, createdAt: '2026-11-20T12:00:00.000Z' }));
    expect(venezuelanDayOf('2026-11-28T02:00:00.000Z')).toBe('2026-11-27');
    const today = summarizeOverview([...groups.values()], lastDays('2026-11-27', 1));
    expect(today.paidOut).toEqual({ count: 3, amount: 1150.25 });
    expect(today.collected).toEqual({ count: 1, amount: 10 });
    // 4 settled of 6 ended (the unknown one has not ended).
    expect(today.successRate).toBeCloseTo(4 / 6);
    expect(today.banks).toEqual([
      { banco: 'bancaribe', settled: 1, failed: 1, successRate: 0.5, meanLatencyMs: 2000 },
      { banco: 'bnc', settled: 3, failed: 1, successRate: 0.75, meanLatencyMs: Math.round((2000 + 4000 + 1000) / 3) },
    ]);
    expect(today.rejections).toEqual([{ motivo: 'SALDO_INSUFICIENTE', count: 2 }]);
    const week = summarizeOverview([...groups.values()], lastDays('2026-11-27', 7));
    expect(week.daily).toHaveLength(7);
    expect(week.daily[0]).toEqual({ day: '2026-11-21', collected: 0, paidOut: 0 });
    expect(week.paidOut.count).toBe(3);
    expect(summarizeOverview([...groups.values()], lastDays('2026-11-27', 30)).paidOut.count).toBe(4);
    expect(summarizeOverview([], lastDays('2026-11-27', 1)).successRate).toBeNull();
  });
});
