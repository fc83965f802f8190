import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { newTransaction, type Transaction } from '@switch/core/operation';
import { summarizeOverview } from '@switch/core/overview';
import { overviewGroups } from './overview-hours';
import { foldOverviewRound } from './overview-fold';

/** 2026-11-27 15:30 in Caracas (19:30 UTC). */
const NOW = Date.parse('2026-11-27T19:30:00.000Z');
const DAY = ['2026-11-27'];

function payout(id: string, createdAt: string, estado: Transaction['estado']): Transaction {
  const tx = newTransaction({
    id,
    merchantId: 'demo',
    mode: 'test',
    idempotencyKey: id,
    fingerprint: 'f',
    request: { kind: 'pagar', body: { monto: { valor: 100, moneda: 'VES' } } } as never,
    relatedId: null,
    now: createdAt,
  });
  return { ...tx, estado, bancoUsado: 'bnc', updatedAt: createdAt };
}

/** A panel process's reads of the store, counted: hours read whole, operations read by id. */
function counted(store: MemoryStore) {
  const hours: string[] = [];
  const ids: string[] = [];
  return {
    hours,
    ids,
    reads: {
      transactions: {
        overviewOfHour: (m: string, mode: 'test' | 'live', hour: string) => {
          hours.push(hour);
          return store.transactions.overviewOfHour(m, mode, hour);
        },
        get: (id: string) => {
          ids.push(id);
          return store.transactions.get(id);
        },
      },
      overviewSummaries: store.overviewSummaries,
    },
  };
}

const marks = { announcedVersion: 1, writtenBy: null, replyTo: [] };

async function demoStore(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.merchants.insert({ id: 'demo', nombre: 'Demo', active: true, createdAt: '2026-10-01T00:00:00.000Z' });
  return store;
}

describe('the overview read from the stored hour summaries', () => {
  it('a fresh panel process reads the folded hours from their summaries, not their operations; the newest hours live', async () => {
    const store = await demoStore();
    await store.transactionLog.commit(payout('txn_a', '2026-11-27T13:00:00.000Z', 'LIQUIDADA'), null, marks);
    await store.transactionLog.commit(payout('txn_b', '2026-11-27T14:10:00.000Z', 'RECHAZADA'), null, marks);
    const before = counted(store);
    // Before the fold reached them, every hour of the day is read live: right, only slower.
    const live = summarizeOverview(await overviewGroups(before.reads, 'demo', 'test', DAY, NOW), DAY);
    expect(before.hours).toHaveLength(16); // 00..15 Caracas time
    await foldOverviewRound(store, NOW, 10_000);
    const fresh = counted(store);
    const folded = summarizeOverview(await overviewGroups(fresh.reads, 'demo', 'test', DAY, NOW), DAY);
    expect(folded).toEqual(live);
    expect(folded.paidOut.count).toBe(1);
    // 15:00 is the current hour; 14:00 ended half an hour ago, past the window for late first writes.
    expect(fresh.hours).toEqual(['2026-11-27T15']);
    expect(fresh.ids).toEqual([]);
    await store.transactionLog.commit(payout('txn_c', '2026-11-27T19:20:00.000Z', 'LIQUIDADA'), null, marks);
    expect(summarizeOverview(await overviewGroups(fresh.reads, 'demo', 'test', DAY, NOW), DAY).paidOut.count).toBe(2);
  });

  it('an operation settling after its hour was folded moves from open to final in the view, at once and at every replica', async () => {
    const store = await demoStore();
    const waiting = payout('txn_w', '2026-11-27T13:00:00.000Z', 'PENDIENTE');
    await store.transactionLog.commit(waiting, null, marks);
    await store.transactionLog.commit(payout('txn_s', '2026-11-27T13:05:00.000Z', 'LIQUIDADA'), null, marks);
    await foldOverviewRound(store, NOW, 10_000);
    const [summary] = await store.overviewSummaries.between('demo', 'test', '2026-11-27T09', '2026-11-27T09');
    expect(summary!.open).toEqual(['txn_w']);
    const one = counted(store);
    const first = summarizeOverview(await overviewGroups(one.reads, 'demo', 'test', DAY, NOW), DAY);
    expect(first.paidOut.count).toBe(1);
    await store.transactionLog.commit({ ...waiting, estado: 'LIQUIDADA', version: waiting.version + 1 }, waiting.version, marks);
    for (const replica of [counted(store), counted(store)]) {
      const o = summarizeOverview(await overviewGroups(replica.reads, 'demo', 'test', DAY, NOW), DAY);
      expect(o.paidOut).toEqual({ count: 2, amount: 200 });
      expect(o.successRate).toBe(1);
      // The hour of 09:00 was not read whole: its open operation was read by id.
      expect(replica.hours).not.toContain('2026-11-27T09');
      expect(replica.ids).toEqual(['txn_w']);
    }
    // The next round folds the hour again: the operation is final in the stored summary, read by id no more.
    expect(await foldOverviewRound(store, NOW, 10_000)).toEqual({ folded: 0, refolded: 1, more: false });
    const later = counted(store);
    expect(summarizeOverview(await overviewGroups(later.reads, 'demo', 'test', DAY, NOW), DAY).paidOut.count).toBe(2);
    expect(later.ids).toEqual([]);
  });

  it('an hour is folded only once complete: a late first write into the last hour still counts', async () => {
    const store = await demoStore();
    // 15:10 in Caracas: 14:00 ended ten minutes ago, inside the window for late first writes.
    const at = Date.parse('2026-11-27T19:10:00.000Z');
    await foldOverviewRound(store, at, 10_000);
    expect((await store.overviewSummaries.between('demo', 'test', '2026-11-27T14', '2026-11-27T15')).map((s) => s.hour)).toEqual([]);
    await store.transactionLog.commit(payout('txn_late', '2026-11-27T18:59:00.000Z', 'LIQUIDADA'), null, marks);
    const view = counted(store);
    expect(summarizeOverview(await overviewGroups(view.reads, 'demo', 'test', DAY, at), DAY).paidOut.count).toBe(1);
    expect(view.hours).toEqual(['2026-11-27T14', '2026-11-27T15']);
  });
});
