import { storesClosedAfterEach } from './store-lifecycle';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Store } from '../src/ports/store';
import type { WebhookDelivery } from '../src/ports/delivery-queue';

export function sampleDelivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
  return {
    id: `${txnId}.v2.we_1`,
    merchantId: 'm1',
    mode: 'test',
    endpointId: 'we_1',
    url: 'http://127.0.0.1:9/hook',
    txnId,
    event: 'transaccion.liquidada',
    body: '{"type":"transaccion.liquidada"}',
    status: 'pending',
    attempts: [],
    nextAttemptAt: '2020-01-01T00:00:00.000Z',
    lease: null,
    createdAt: '2020-01-01T00:00:00.000Z',
    updatedAt: '2020-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The durable webhook queue's guarantees (Store.deliveries), for every Store adapter. */
export function deliveryContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Delivery queue contract: ${name}`, () => {
    const store = storesClosedAfterEach(makeStore);

    it('creates a delivery once per id and keeps its body bytes', async () => {
      const s = await store();
      const d = sampleDelivery({ body: '{"b":"ñ","a":1}' });
      expect(await s.deliveries.insert(d)).toBe(true);
      expect(await s.deliveries.insert({ ...d, body: 'other' })).toBe(false);
      expect((await s.deliveries.get(d.id))!.body).toBe('{"b":"ñ","a":1}');
      expect(await s.deliveries.listForTransaction(d.txnId)).toEqual([d]);
    });

    it("pages a transaction's deliveries newest first, ties by id, after a cursor", async () => {
      const s = await store();
      const first = sampleDelivery();
      const at = (m: number) => new Date(Date.UTC(2026, 10, 20, 12, m)).toISOString();
      const all = [0, 1, 1, 2, 3].map((m, i) =>
        sampleDelivery({
          id: `${first.txnId}.v${i}.we_${i}`,
          txnId: first.txnId,
          endpointId: `we_${i}`,
          createdAt: at(m),
          updatedAt: at(m),
        }),
      );
      for (const d of all) expect(await s.deliveries.insert(d)).toBe(true);
      await s.deliveries.insert(sampleDelivery());
      const ids = (list: { id: string }[]) => list.map((d) => d.id);
      const newest = ids([all[4]!, all[3]!, all[2]!, all[1]!, all[0]!]);
      const page1 = await s.deliveries.pageForTransaction(first.txnId, 3);
      expect(ids(page1)).toEqual(newest.slice(0, 3));
      const last = page1[2]!;
      expect(ids(await s.deliveries.pageForTransaction(first.txnId, 3, { createdAt: last.createdAt, id: last.id }))).toEqual(
        newest.slice(3),
      );
    });

    it('leases a due delivery to exactly one of several replicas', async () => {
      const s = await store();
      const d = sampleDelivery({ nextAttemptAt: '2000-01-01T00:00:00.000Z' });
      await s.deliveries.insert(d);
      const now = '2000-01-01T00:00:01.000Z';
      const claims = await Promise.all(
        [...Array(8).keys()].map((i) => s.deliveries.claimDue(now, `replica-${i}`, '2000-01-01T00:01:00.000Z')),
      );
      const mine = claims.filter((c) => c?.id === d.id);
      expect(mine).toHaveLength(1);
      // Leased: nobody else gets it until the lease expires.
      expect((await s.deliveries.claimDue(now, 'late', '2000-01-01T00:01:00.000Z'))?.id).not.toBe(d.id);
      const expired = await s.deliveries.claimDue('2000-01-01T00:02:00.000Z', 'after-expiry', '2000-01-01T00:03:00.000Z');
      expect(expired?.id).toBe(d.id);
    });

    it('passes over the busy lanes (merchant and mode), leasing the others’ deliveries', async () => {
      const s = await store();
      const slow = `slow_${randomUUID().slice(0, 8)}`;
      const other = `other_${randomUUID().slice(0, 8)}`;
      const at = (ms: number) => new Date(Date.parse('2003-01-01T00:00:00.000Z') + ms).toISOString();
      for (let i = 0; i < 5; i++) await s.deliveries.insert(sampleDelivery({ merchantId: slow, mode: 'test', nextAttemptAt: at(i) }));
      const live = sampleDelivery({ merchantId: slow, mode: 'live', nextAttemptAt: at(10) });
      const others = sampleDelivery({ merchantId: other, mode: 'test', nextAttemptAt: at(20) });
      await s.deliveries.insert(live);
      await s.deliveries.insert(others);
      const now = at(60_000);
      const until = at(120_000);
      const busy = [{ merchantId: slow, mode: 'test' as const }];
      // (A shared store starts each caller at a random one of the earliest candidates: the order is free.)
      const leased = [(await s.deliveries.claimDue(now, 'r', until, busy))?.id, (await s.deliveries.claimDue(now, 'r', until, busy))?.id];
      expect(leased.sort()).toEqual([live.id, others.id].sort());
      // Only the busy lane's deliveries are left: none for this caller, still there for the next.
      expect(await s.deliveries.claimDue(now, 'r', until, busy)).toBeNull();
      expect((await s.deliveries.claimDue(now, 'r', until))?.merchantId).toBe(slow);
    });

    it('does not lease deliveries not yet due, delivered or exhausted', async () => {
      const s = await store();
      const base = '2001-01-01T00:00:00.000Z';
      await s.deliveries.insert(sampleDelivery({ nextAttemptAt: '2001-01-01T00:00:30.000Z' }));
      await s.deliveries.insert(sampleDelivery({ status: 'delivered', nextAttemptAt: null }));
      await s.deliveries.insert(sampleDelivery({ status: 'exhausted', nextAttemptAt: null }));
      expect(await s.deliveries.claimDue(base, 'r', '2001-01-01T00:01:00.000Z')).toBeNull();
    });

    it('lets only the lease owner record an attempt, and requeues on demand', async () => {
      const s = await store();
      const d = sampleDelivery({ nextAttemptAt: '2002-01-01T00:00:00.000Z' });
      await s.deliveries.insert(d);
      const claimed = (await s.deliveries.claimDue('2002-01-01T00:00:00.000Z', 'owner', '2002-01-01T00:01:00.000Z'))!;
      expect(claimed.id).toBe(d.id);
      const attempt = { n: 1, at: '2002-01-01T00:00:00.000Z', statusCode: 500, latencyMs: 12, error: null };
      const update = {
        status: 'pending' as const,
        attempts: [attempt],
        nextAttemptAt: '2002-01-01T00:00:30.000Z',
        updatedAt: '2002-01-01T00:00:00.100Z',
      };
      expect(await s.deliveries.complete(d.id, 'intruder', update)).toBe(false);
      expect(await s.deliveries.complete(d.id, 'owner', update)).toBe(true);
      const stored = (await s.deliveries.get(d.id))!;
      expect(stored).toMatchObject({ attempts: [attempt], nextAttemptAt: '2002-01-01T00:00:30.000Z', lease: null });
      await s.deliveries.complete(d.id, 'owner', { ...update, status: 'exhausted', nextAttemptAt: null });
      expect(await s.deliveries.requeue(d.id, '2002-01-02T00:00:00.000Z')).toBe(true);
      expect(await s.deliveries.get(d.id)).toMatchObject({
        status: 'pending',
        nextAttemptAt: '2002-01-02T00:00:00.000Z',
        attempts: [attempt],
      });
      const counts = await s.deliveries.countByStatus();
      expect(counts.pending).toBeGreaterThanOrEqual(1);
    });
  });
}

/** Counters used by the live-money limits: atomic additions, returned totals. */
export function counterContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Counter contract: ${name}`, () => {
    it('adds atomically under concurrency and returns the totals', async () => {
      const s = await makeStore();
      try {
        const key = `limit|m|${randomUUID()}`;
        const until = new Date(Date.now() + 3_600_000).toISOString();
        await Promise.all([...Array(10).keys()].map(() => s.counters.add(key, 10.1, 1, until)));
        expect(await s.counters.add(key, 0, 0, until)).toEqual({ amount: 101, count: 10 });
        expect(await s.counters.add(key, -1.1, -1, until)).toEqual({ amount: 99.9, count: 9 });
      } finally {
        await s.close();
      }
    });

    it('keeps a counter until its window is over', async () => {
      const s = await makeStore();
      try {
        const key = `panel-login|ip|${randomUUID()}`;
        const until = new Date(Date.now() + 15 * 60_000).toISOString();
        await s.counters.add(key, 0, 1, until);
        await s.counters.add(`other|${randomUUID()}`, 0, 1, until);
        expect(await s.counters.add(key, 0, 1, until)).toEqual({ amount: 0, count: 2 });
      } finally {
        await s.close();
      }
    });
  });
}

export function gatewayReplicasContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Gateway replicas contract: ${name}`, () => {
    it('counts the gateways that beat within the window, each once, forgetting the silent ones', async () => {
      const s = await makeStore();
      try {
        const t0 = Date.parse('2026-01-01T00:00:00.000Z');
        const at = (ms: number) => new Date(t0 + ms).toISOString();
        const a = `gw-${randomUUID()}`;
        const b = `gw-${randomUUID()}`;
        const c = `gw-${randomUUID()}`;
        expect(await s.gatewayReplicas.beat(a, at(0), 15_000)).toBe(1);
        expect(await s.gatewayReplicas.beat(a, at(5_000), 15_000)).toBe(1);
        await Promise.all([s.gatewayReplicas.beat(b, at(6_000), 15_000), s.gatewayReplicas.beat(c, at(6_000), 15_000)]);
        expect(await s.gatewayReplicas.beat(a, at(10_000), 15_000)).toBe(3);
        // b and c fall silent: 15 s after their last beat they no longer count.
        expect(await s.gatewayReplicas.beat(a, at(25_000), 15_000)).toBe(1);
      } finally {
        await s.close();
      }
    });
  });
}
