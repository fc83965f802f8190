import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { TOPICS } from '@switch/core/contracts/topics';
import { sampleTransaction, seedTransaction } from '../../../packages/platform/test/store-contract';
import { startReconciler, type ReconcilerHandle } from './service';

const log = createLogger('reconciler-test', 'silent');
const config = { reviewAfterMs: 24 * 3_600_000, batchSize: 100, intervalMs: 3_600_000, backlogIntervalMs: 3_600_000, leaseMs: 15_000 };

describe('the reconciler as two replicas over one store', () => {
  const handles: ReconcilerHandle[] = [];
  afterEach(async () => {
    await Promise.all(handles.splice(0).map((h) => h.stop()));
  });

  it('one round asks about a due operation once, not once per replica; the other replica takes over when the first stops', async () => {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    const tx = sampleTransaction({ nextCheckAt: new Date(Date.now() - 60_000).toISOString() });
    await seedTransaction(store, tx);
    const queries: string[] = [];
    await bus.subscribe(TOPICS.routerInbox, { group: 'router' }, async ({ value }) => {
      if (value.type === 'query') queries.push(value.txnId);
    });
    const first = startReconciler({ bus, store, log, config, instanceId: 'reconciler-a' });
    const second = startReconciler({ bus, store, log, config, instanceId: 'reconciler-b' });
    handles.push(first, second);

    await Promise.all([first.runOnce(), second.runOnce()]);
    await bus.drained();
    expect(queries).toEqual([tx.id]);

    await first.stop();
    const round = await second.runOnce();
    await bus.drained();
    expect(round?.queried).toEqual([tx.id]);
    expect(queries).toEqual([tx.id, tx.id]);
    expect(await store.leases.get('reconciler')).toMatchObject({ holder: 'reconciler-b' });
    await bus.close();
  });
});
