import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { newTransaction, type Transaction } from '@switch/core/operation';
import { summarizeOverview } from '@switch/core/overview';
import { OverviewHours } from './overview-hours';

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

/** The store's hour reads, counted per hour. */
function counted(store: MemoryStore) {
  const reads: string[] = [];
  return {
    reads,
    reader: {
      overviewOfHour: (m: string, mode: 'test' | 'live', hour: string) => {
        reads.push(hour);
        return store.transactions.overviewOfHour(m, mode, hour);
      },
      get: (id: string) => store.transactions.get(id),
    },
  };
}

const marks = { announcedVersion: 1, writtenBy: null, replyTo: [] };

describe('the overview hours a panel process keeps', () => {
  it('reads a complete hour once, the current hour on every view, and shows a new payout at once', async () => {
    const store = new MemoryStore();
    await store.transactionLog.commit(payout('txn_a', '2026-11-27T13:00:00.000Z', 'LIQUIDADA'), null, marks);
    const { reads, reader } = counted(store);
    const hours = new OverviewHours(reader, () => NOW);
    const first = summarizeOverview(await hours.of('demo', 'test', DAY), DAY);
    expect(first.paidOut.count).toBe(1);
    expect(reads).toHaveLength(16); // 00..15 Caracas time
    reads.length = 0;
    await store.transactionLog.commit(payout('txn_b', '2026-11-27T19:20:00.000Z', 'LIQUIDADA'), null, marks);
    const again = summarizeOverview(await hours.of('demo', 'test', DAY), DAY);
    expect(again.paidOut.count).toBe(2);
    // 15:00 is the current hour; 14:00 ended half an hour ago, past the window for late first writes.
    expect(reads).toEqual(['2026-11-27T15']);
  });

  it('reads an open operation of a kept hour again by id: its outcome shows on the next view, at every replica', async () => {
    const store = new MemoryStore();
    const waiting = payout('txn_w', '2026-11-27T13:00:00.000Z', 'PENDIENTE');
    await store.transactionLog.commit(waiting, null, marks);
    await store.transactionLog.commit(payout('txn_s', '2026-11-27T13:05:00.000Z', 'LIQUIDADA'), null, marks);
    const one = counted(store);
    const two = counted(store);
    const replicaOne = new OverviewHours(one.reader, () => NOW);
    const replicaTwo = new OverviewHours(two.reader, () => NOW);
    expect(summarizeOverview(await replicaOne.of('demo', 'test', DAY), DAY).paidOut.count).toBe(1);
    expect(summarizeOverview(await replicaTwo.of('demo', 'test', DAY), DAY).paidOut.count).toBe(1);
    await store.transactionLog.commit({ ...waiting, estado: 'LIQUIDADA', version: waiting.version + 1 }, waiting.version, marks);
    one.reads.length = 0;
    for (const replica of [replicaOne, replicaTwo]) {
      const o = summarizeOverview(await replica.of('demo', 'test', DAY), DAY);
      expect(o.paidOut).toEqual({ count: 2, amount: 200 });
      expect(o.successRate).toBe(1);
    }
    // The hour of 09:00 was not read again whole: only the newest hours were.
    expect(one.reads).not.toContain('2026-11-27T09');
    // Once final, it is counted once, not again on later views.
    expect(summarizeOverview(await replicaOne.of('demo', 'test', DAY), DAY).paidOut.count).toBe(2);
  });

  it('keeps an hour only once it is complete: a late first write into the last hour still counts', async () => {
    const store = new MemoryStore();
    const { reads, reader } = counted(store);
    // 15:10 in Caracas: 14:00 ended ten minutes ago, inside the window for late first writes.
    const hours = new OverviewHours(reader, () => Date.parse('2026-11-27T19:10:00.000Z'));
    await hours.of('demo', 'test', DAY);
    await store.transactionLog.commit(payout('txn_late', '2026-11-27T18:59:00.000Z', 'LIQUIDADA'), null, marks);
    reads.length = 0;
    expect(summarizeOverview(await hours.of('demo', 'test', DAY), DAY).paidOut.count).toBe(1);
    expect(reads).toEqual(['2026-11-27T14', '2026-11-27T15']);
  });
});
