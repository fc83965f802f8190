import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MongoStore } from '@switch/platform/adapters/mongo/store';
import { TOPICS } from '@switch/core/contracts/topics';
import { seedDemoMerchant, startEmbeddedSwitch, type EmbeddedSwitch } from '@switch/embedded';
import { pagarBody } from '../api/helpers';

const mongoUrl = process.env.MONGO_URL;

/**
 * The store-call budget of a settled pago-móvil payout (docs/benchmarks.md): every service's calls
 * through the production store adapter, counted from the driver's own command events (the figures
 * `npm run bench` prints come from the same events). Counts, not times: a change that adds a store
 * call to the payout path fails here.
 */
const BUDGET = {
  // Writes: the idempotency claim; the insert that holds route and order; the outcome write (it
  // carries the insert's announcement mark, and its own: a final state's announcement is kept by the
  // message that made it, services/router/src/actor.ts); the bank journal's claim before the call and
  // its outcome before the publish (what makes "send once" hold across redeliveries). Reads: none. The
  // router's first message inserts without reading (a redelivery's insert fails and only then reads),
  // and its second finds the state it wrote under the same assignment epoch in memory
  // (services/router/src/actor.ts, WrittenStates). Keys are cached by the gateway,
  // endpoints by the notifier (both forgotten by event when they change).
  writes: 5,
  reads: 0,
};

const READS = new Set(['find', 'aggregate', 'count', 'getMore']);

describe.runIf(mongoUrl)('store calls per settled payout', () => {
  let sw: EmbeddedSwitch;
  let store: MongoStore;
  let key: string;
  const calls: { collection: string; command: string }[] = [];
  const settled = new Set<string>();

  beforeAll(async () => {
    store = await MongoStore.connect({ url: mongoUrl!, database: `budget_${randomUUID().slice(0, 8)}` });
    sw = await startEmbeddedSwitch({
      log: createLogger('budget', 'silent'),
      store,
      reconciler: { intervalMs: 3_600_000, backlogIntervalMs: 3_600_000 },
      notifier: { pollIntervalMs: 3_600_000 },
      // The relay's round (a query every second, whatever the traffic) is not a payout's cost.
      router: { relayIntervalMs: 3_600_000 },
    });
    key = (await seedDemoMerchant(store)).switchKey;
    await sw.bus.subscribe(TOPICS.transactions, { group: 'budget-probe' }, async ({ value }) => {
      if (value.resultado?.estado === 'LIQUIDADA') settled.add(value.txnId);
    });
    // The gateways' heartbeat (a few seconds apart, whatever the traffic) is not a payout's cost, and
    // the simulated bank's books (test mode's bnc keeps its ledger in the store, decision 0180) are the
    // bank's writes, not the switch's: a real bank keeps its own.
    store.onCommand((c) => {
      if (c.collection !== 'gateway_beats' && !c.collection.startsWith('simulated_bank_')) calls.push(c);
    });
  });
  afterAll(async () => {
    await sw?.close();
  });

  it(`keeps the budget: ${BUDGET.writes} writes and ${BUDGET.reads} reads`, async () => {
    // The first payout warms the caches (key, merchant, endpoints); the budget is the steady state.
    for (let i = 0; i < 3; i++) {
      calls.length = 0;
      const res = await sw.gateway.app.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        headers: { 'x-switch-key': key },
        payload: pagarBody(),
      });
      expect(res.statusCode).toBe(200);
      const id: string = res.json().id;
      await vi.waitFor(() => expect(settled.has(id)).toBe(true), { timeout: 20_000, interval: 5 });
      await sw.bus.drained();
      if (i === 0) continue;
      const reads = calls.filter((c) => READS.has(c.command));
      const writes = calls.filter((c) => !READS.has(c.command));
      const summary = calls.map((c) => `${c.collection}.${c.command}`).sort();
      expect({ writes: writes.length, reads: reads.length }, summary.join(', ')).toEqual(BUDGET);
    }
  });
});
