import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PUBLIC_DESTINATIONS_ONLY } from '@switch/platform/config/webhooks';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { registerWebhook } from '@switch/usecases/onboarding';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { TOPICS } from '@switch/core/contracts/topics';
import { settledPayout } from '../test/events';
import { planDeliveries } from './deliveries';
import { Dispatcher } from './dispatcher';
import { startNotifier, type NotifierConfig } from './service';

/**
 * Issue 26 item 8 (DESIGN rule 10): one merchant's slow endpoint delays only that merchant, and test
 * traffic never delays live. Controllable receivers on 127.0.0.1: one takes requests and never
 * answers (it counts how many it holds at once), one answers at once; no timing is asserted.
 */

const log = createLogger('notifier-test', 'silent');
const secrets = SecretBox.ephemeral();
const config: NotifierConfig = {
  schedule: [0, 3_600_000],
  // Far longer than any test: an attempt to the silent receiver ends only when the test ends it.
  attemptTimeoutMs: 60_000,
  leaseMs: 180_000,
  allowPrivateDestinations: false,
  allowLoopbackDestinations: true,
  ownPorts: PUBLIC_DESTINATIONS_ONLY.ownPorts,
  concurrency: 3,
  pollIntervalMs: 10,
  endpointCacheMs: 3_600_000,
  secrets,
};

// The failure this guards against is a wait that never ends (until the 60 s attempt timeout): each
// test is given 15 s to see the other merchant's webhook, far more than it needs.
describe('webhook delivery is fair between merchants and modes', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function listen(server: Server): Promise<string> {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  }

  /** Takes every request and never answers; `silence()` ends every held connection (an attempt error). */
  async function silentReceiver() {
    let holding = 0;
    let most = 0;
    let seen = 0;
    const sockets = new Set<Socket>();
    const server = createServer((req) => {
      seen++;
      holding++;
      most = Math.max(most, holding);
      req.socket.once('close', () => holding--);
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    const url = await listen(server);
    let silenced = false;
    const silence = async () => {
      if (silenced) return;
      silenced = true;
      await new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      });
    };
    cleanup.push(silence);
    return { url, most: () => most, seen: () => seen, silence };
  }

  /** Answers 204 at once; `received(txnId)` resolves when that transaction's webhook has arrived. */
  async function answeringReceiver() {
    const got: string[] = [];
    const waiters = new Map<string, () => void>();
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { id: string } }).data.id;
        got.push(id);
        res.writeHead(204).end();
        waiters.get(id)?.();
      });
    });
    const url = await listen(server);
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    return { url, got, received: (id: string) => new Promise<void>((r) => (got.includes(id) ? r() : waiters.set(id, r))) };
  }

  it("the poll: 20 due deliveries of A's silent test endpoint, then B's and A's live one are attempted without waiting", async () => {
    const store = new MemoryStore();
    const silent = await silentReceiver();
    const answering = await answeringReceiver();
    await registerWebhook(store, { merchantId: 'lenta', mode: 'test', url: silent.url, events: ['transaccion.liquidada'] }, secrets);
    await registerWebhook(store, { merchantId: 'lenta', mode: 'live', url: answering.url, events: ['transaccion.liquidada'] }, secrets);
    await registerWebhook(store, { merchantId: 'otra', mode: 'test', url: answering.url, events: ['transaccion.liquidada'] }, secrets);
    const t0 = Date.parse('2026-11-22T10:00:00.000Z');
    // A's deliveries are due first: a queue served in due order would give every worker to them.
    for (let i = 0; i < 20; i++)
      await planDeliveries(store, settledPayout({ txnId: `txn_a${i}`, merchantId: 'lenta', mode: 'test' }), new Date(t0 + i));
    await planDeliveries(store, settledPayout({ txnId: 'txn_b', merchantId: 'otra', mode: 'test' }), new Date(t0 + 100));
    await planDeliveries(store, settledPayout({ txnId: 'txn_a_live', merchantId: 'lenta', mode: 'live' }), new Date(t0 + 101));

    const dispatcher = new Dispatcher(store, config, log);
    // Closing waits for attempts under way: the silent receiver lets go of them first.
    cleanup.push(async () => {
      await silent.silence();
      await dispatcher.close();
    });
    const round = dispatcher.runDue();
    await Promise.all([answering.received('txn_b'), answering.received('txn_a_live')]);
    // A's silent endpoint holds at most its own share of attempts at once.
    expect(silent.most()).toBeLessThanOrEqual(config.concurrency);
    await silent.silence();
    expect(await round).toBe(22);
  }, 15_000);

  it('the first attempts: after 24 payouts to A’s silent test endpoint, B’s webhook is attempted at once', async () => {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    cleanup.push(() => bus.close());
    const silent = await silentReceiver();
    const answering = await answeringReceiver();
    await registerWebhook(store, { merchantId: 'lenta', mode: 'test', url: silent.url, events: ['transaccion.liquidada'] }, secrets);
    await registerWebhook(store, { merchantId: 'otra', mode: 'test', url: answering.url, events: ['transaccion.liquidada'] }, secrets);
    await registerWebhook(store, { merchantId: 'lenta', mode: 'live', url: answering.url, events: ['transaccion.liquidada'] }, secrets);
    const notifier = await startNotifier({ bus, store, log, config });
    cleanup.push(async () => {
      await silent.silence();
      await notifier.stop();
    });
    for (let i = 0; i < 24; i++)
      await bus.publish(TOPICS.transactions, `txn_a${i}`, settledPayout({ txnId: `txn_a${i}`, merchantId: 'lenta', mode: 'test' }));
    await bus.drained();
    await bus.publish(TOPICS.transactions, 'txn_b', settledPayout({ txnId: 'txn_b', merchantId: 'otra', mode: 'test' }));
    await bus.publish(TOPICS.transactions, 'txn_a_live', settledPayout({ txnId: 'txn_a_live', merchantId: 'lenta', mode: 'live' }));
    await Promise.all([answering.received('txn_b'), answering.received('txn_a_live')]);
    expect(silent.most()).toBeLessThanOrEqual(config.concurrency);
  }, 15_000);
});
