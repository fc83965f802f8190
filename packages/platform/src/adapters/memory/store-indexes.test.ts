import { describe, expect, it } from 'vitest';
import { sampleDelivery } from '../../../test/delivery-contract';
import { sampleTransaction } from '../../../test/store-contract';
import { MemoryStore } from './store';

const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s)).toISOString();

/**
 * The memory store answers its loop queries from indexes kept beside the rows: these cases change
 * rows through every write path and check the queries still say what a scan of the rows would.
 */
describe('memory store indexes', () => {
  it('claims the earliest due delivery first, ties by insertion, across retries, requeues and lapsed leases', async () => {
    const s = new MemoryStore();
    const a = sampleDelivery({ nextAttemptAt: at(5) });
    const b = sampleDelivery({ nextAttemptAt: at(1) });
    const c = sampleDelivery({ nextAttemptAt: at(1) });
    const leased = sampleDelivery({ nextAttemptAt: at(0), lease: { owner: 'other', until: at(20) } });
    for (const d of [a, b, c, leased]) await s.deliveries.insert(d);

    const claim = async (now: number) => (await s.deliveries.claimDue(at(now), 'me', at(now + 1000)))?.id ?? null;
    expect(await claim(0)).toBeNull();
    expect(await claim(10)).toBe(b.id);
    expect(await claim(10)).toBe(c.id);
    // b fails and is due again at 15; a (due at 5) comes first.
    await s.deliveries.complete(b.id, 'me', { status: 'pending', attempts: [], nextAttemptAt: at(15), updatedAt: at(10) });
    expect(await claim(15)).toBe(a.id);
    expect(await claim(16)).toBe(b.id);
    expect(await claim(16)).toBeNull();
    // The other replica's lease runs out: its delivery, due earliest, is claimed first.
    expect(await claim(21)).toBe(leased.id);
    // c is delivered, then requeued on demand: pending again and due at once.
    await s.deliveries.complete(c.id, 'me', { status: 'delivered', attempts: [], nextAttemptAt: null, updatedAt: at(11) });
    expect(await s.deliveries.countByStatus()).toEqual({ pending: 3, exhausted: 0 });
    expect(await claim(100)).toBeNull();
    await s.deliveries.requeue(c.id, at(30));
    expect(await claim(100)).toBe(c.id);
    await s.deliveries.complete(c.id, 'me', { status: 'exhausted', attempts: [], nextAttemptAt: null, updatedAt: at(101) });
    expect(await s.deliveries.countByStatus()).toEqual({ pending: 3, exhausted: 1 });
    expect((await s.deliveries.listForTransaction(c.txnId)).map((d) => d.status)).toEqual(['exhausted']);
    expect((await s.deliveries.listForEndpoint('we_1', 10)).length).toBe(4);
  });

  it('keeps the unannounced, due and per-state transaction sets in step with commits and marks', async () => {
    const s = new MemoryStore();
    const base = sampleTransaction({ createdAt: at(0), updatedAt: at(0) });
    const tx = { ...base, id: 'txn_1', estado: null, version: 1, nextCheckAt: at(0) } as never;
    await s.transactionLog.commit(tx, null, { announcedVersion: 1, writtenBy: null, replyTo: [] });
    expect((await s.transactionLog.listUnannounced(at(100), 10)).map((l) => l.tx.id)).toEqual([]);
    expect((await s.transactions.listDue(at(1), 10)).map((t) => t.id)).toEqual(['txn_1']);

    const accepted = {
      ...base,
      id: 'txn_1',
      estado: 'ACEPTADA',
      version: 2,
      nextCheckAt: null,
      updatedAt: at(2),
    } as never;
    expect(await s.transactionLog.commit(accepted, 1, { announcedVersion: 1, writtenBy: 'execute', replyTo: [] })).toBe(true);
    expect((await s.transactionLog.listUnannounced(at(100), 10)).map((l) => l.tx.id)).toEqual(['txn_1']);
    expect(await s.transactions.listDue(at(100), 10)).toEqual([]);
    expect((await s.transactions.listByEstado(['ACEPTADA'], 10)).map((t) => t.id)).toEqual(['txn_1']);
    expect((await s.transactions.listForMerchant({ merchantId: 'm1', mode: 'test' }, 10)).map((t) => t.id)).toEqual(['txn_1']);
    expect(await s.transactions.listForMerchant({ merchantId: 'm1', mode: 'live' }, 10)).toEqual([]);

    await s.transactionLog.markAnnounced('txn_1', 2);
    expect(await s.transactionLog.listUnannounced(at(100), 10)).toEqual([]);

    const settled = {
      ...base,
      id: 'txn_1',
      estado: 'LIQUIDADA',
      version: 3,
      nextCheckAt: null,
      updatedAt: at(3),
    } as never;
    expect(await s.transactionLog.commit(settled, 2, { announcedVersion: 3, writtenBy: 'bank_result:execute:1', replyTo: [] })).toBe(true);
    expect(await s.transactions.listByEstado(['ACEPTADA'], 10)).toEqual([]);
    expect((await s.transactions.listByEstado(['ACEPTADA', 'LIQUIDADA', 'LIQUIDADA'], 10)).map((t) => t.id)).toEqual(['txn_1']);
    // A stale replace changes nothing, indexes included.
    expect(await s.transactionLog.commit(accepted, 1, { announcedVersion: 1, writtenBy: 'execute', replyTo: [] })).toBe(false);
    expect((await s.transactions.listByEstado(['LIQUIDADA'], 10)).map((t) => t.version)).toEqual([3]);
  });
});
