import { afterEach, describe, expect, it } from 'vitest';
import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { TOPICS } from '@switch/core/contracts/topics';
import type { RoutingTable } from '@switch/core/routing';
import { sampleTransaction } from '../../../packages/platform/test/store-contract';
import { startRouter, type RouterHandle } from './service';

const log = createLogger('router-relay-test', 'silent');
const BNC: RoutingTable = { test: [{ banco: 'bnc', capabilities: [...CAPABILITIES] }], live: [] };

describe('the outbox relay at two router replicas', () => {
  const routers: RouterHandle[] = [];
  afterEach(async () => {
    await Promise.all(routers.splice(0).map((r) => r.stop()));
  });

  it('a write left unannounced is announced once per round, not once per replica; the other takes over when the first stops', async () => {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    // A write whose announcement never happened (its handler died between commit and publish).
    const tx = sampleTransaction({ updatedAt: new Date(Date.now() - 60_000).toISOString() });
    await store.transactionLog.commit(tx, null, { announcedVersion: 0, writtenBy: null, replyTo: [] });
    const events: string[] = [];
    await bus.subscribe(TOPICS.transactions, { group: 'probe' }, async ({ value }) => {
      events.push(value.txnId);
    });
    // The relay's own timer never fires within the test: each round is one the test runs.
    const options = { bus, store, routing: BNC, log, relayIntervalMs: 3_600_000, relayGraceMs: 0, relayLeaseMs: 10_000 };
    const first = await startRouter({ ...options, instanceId: 'router-a' });
    const second = await startRouter({ ...options, instanceId: 'router-b' });
    routers.push(first, second);

    expect(await Promise.all([first.relayOnce(), second.relayOnce()])).toEqual([1, null]);
    await bus.drained();
    expect(events).toEqual([tx.id]);

    // Unannounced again (a later write, say): the first replica stops, the second relays it.
    await store.transactionLog.commit({ ...tx, version: tx.version + 1 }, tx.version, {
      announcedVersion: tx.version,
      writtenBy: null,
      replyTo: [],
    });
    await first.stop();
    expect(await second.relayOnce()).toBe(1);
    await bus.drained();
    expect(events).toEqual([tx.id, tx.id]);
    expect(await store.leases.get('outbox-relay')).toMatchObject({ holder: 'router-b' });
    expect(second.bankHealth()).toEqual({ replicas: [], routedAround: { test: [], live: [] } });
    await bus.close();
  });
});
