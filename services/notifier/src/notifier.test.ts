import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PUBLIC_DESTINATIONS_ONLY } from '@switch/platform/config/webhooks';
import { announceMerchantChange } from '@switch/platform/runtime/merchant-changes';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { registerWebhook } from '@switch/usecases/onboarding';
import { TOPICS, TRANSACTION_WEBHOOK_HEADER, transactionEventHeaders, type TransactionEventMessage } from '@switch/core/contracts/topics';
import { verifyWebhook } from '@switch/core/contracts/webhook';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { startNotifier, type NotifierConfig } from './service';
import { Dispatcher } from './dispatcher';
import { planDeliveries } from './deliveries';

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A real HTTP receiver that fails its first `failFirst` requests with 500. */
async function receiver(failFirst = 0) {
  const got: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(got.length <= failFirst ? 500 : 204).end();
      for (const w of waiters.filter((w) => got.length >= w.count)) w.resolve();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    got,
    received: (count: number) => new Promise<void>((resolve) => (got.length >= count ? resolve() : waiters.push({ count, resolve }))),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const log = createLogger('notifier-test', 'silent');
const secrets = SecretBox.ephemeral();
const config: NotifierConfig = {
  secrets,
  schedule: [0, 5, 5, 5, 5, 5],
  attemptTimeoutMs: 2000,
  leaseMs: 10_000,
  allowPrivateDestinations: true,
  ownPorts: PUBLIC_DESTINATIONS_ONLY.ownPorts,
  concurrency: 4,
  pollIntervalMs: 10,
  endpointCacheMs: 3_600_000,
};

function settled(txnId: string, version = 3): TransactionEventMessage {
  return {
    txnId,
    merchantId: 'tienda',
    mode: 'test',
    kind: 'pagar',
    version,
    settledForReply: true,
    transition: { from: 'ACEPTADA', to: 'LIQUIDADA', at: '2026-11-22T10:00:00.000Z' },
    resultado: {
      id: txnId,
      estado: 'LIQUIDADA',
      banco_usado: 'bnc',
      referencia_banco: 'TEST-abcdef12',
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1,
    },
    monto: 150.5,
    moneda: 'VES',
    concepto: 'Pago proveedor',
    banco: 'bnc',
  };
}

describe('notifier: signed webhooks from a durable queue', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function setup(failFirst = 0) {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    const hook = await receiver(failFirst);
    cleanup.push(hook.close, () => bus.close());
    const issued = await registerWebhook(
      store,
      { merchantId: 'tienda', mode: 'test', url: hook.url, events: ['transaccion.liquidada'] },
      secrets,
    );
    return { bus, store, hook, endpoint: { ...issued.endpoint, secret: issued.secret } };
  }

  it('an endpoint added after the merchant endpoints were cached gets the next event, once the change is announced', async () => {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    const hook = await receiver();
    cleanup.push(hook.close, () => bus.close());
    const notifier = await startNotifier({ bus, store, log, config });
    cleanup.push(notifier.stop);
    // The merchant has no endpoint: that (empty) list is what the notifier now remembers, for an hour.
    await bus.publish(TOPICS.transactions, 'txn_before', settled('txn_before'));
    await bus.drained();
    await registerWebhook(store, { merchantId: 'tienda', mode: 'test', url: hook.url, events: ['transaccion.liquidada'] }, secrets);
    await announceMerchantChange(bus, 'tienda', 'webhooks');
    await bus.drained();
    await bus.publish(TOPICS.transactions, 'txn_after', settled('txn_after'));
    await hook.received(1);
    expect(JSON.parse(hook.got[0]!.body).data.id).toBe('txn_after');
  });

  it('a manual redelivery reads the endpoint afresh: signed with a secret rotated after the cache was filled, before any announcement', async () => {
    const { bus, store, hook, endpoint } = await setup();
    const notifier = await startNotifier({ bus, store, log, config });
    cleanup.push(notifier.stop);
    await bus.publish(TOPICS.transactions, 'txn_rot', settled('txn_rot'));
    await hook.received(1);
    expect(verifyWebhook(hook.got[0]!.body, hook.got[0]!.headers['x-service-signature'] as string, endpoint.secret)).toBe(true);
    // Rotated, and the change not (yet) announced to this notifier: its cache still holds the old secret.
    const rotated = `whsec_${Buffer.from('a new secret of thirty-two bytes!').toString('base64')}`;
    const previousSecret = { sealedSecret: endpoint.sealedSecret, until: new Date(Date.now() + 60_000).toISOString() };
    await store.webhooks.update(endpoint.id, { sealedSecret: secrets.seal(rotated), previousSecret, updatedAt: new Date().toISOString() });
    const [delivery] = await store.deliveries.listForTransaction('txn_rot');
    await store.deliveries.requeue(delivery!.id, new Date().toISOString());
    await hook.received(2);
    expect(verifyWebhook(hook.got[1]!.body, hook.got[1]!.headers['x-service-signature'] as string, rotated)).toBe(true);
  });

  it('delivers the SPEC 6 body, headers and a signature the receiver verifies over the raw body', async () => {
    const { bus, store, hook, endpoint } = await setup();
    const notifier = await startNotifier({ bus, store, log, config });
    cleanup.push(notifier.stop);
    await bus.publish(TOPICS.transactions, 'txn_1', settled('txn_1'));
    await hook.received(1);
    const [first] = hook.got;
    expect(first!.headers['content-type']).toBe('application/json');
    expect(first!.headers['x-service-event']).toBe('transaccion.liquidada');
    expect(first!.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhook(first!.body, first!.headers['x-service-signature'] as string, endpoint.secret)).toBe(true);
    const body = JSON.parse(first!.body);
    expect(body).toEqual({
      type: 'transaccion.liquidada',
      sentAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      data: {
        id: 'txn_1',
        estado: 'LIQUIDADA',
        monto: 150.5,
        moneda: 'VES',
        concepto: 'Pago proveedor',
        banco: 'bnc',
        referencia: 'TEST-abcdef12',
        operacion: 'pagar',
      },
    });
  });

  it('sends nothing for events the endpoint did not subscribe to, nor for other merchants or modes', async () => {
    const { bus, store, hook } = await setup();
    const notifier = await startNotifier({ bus, store, log, config });
    cleanup.push(notifier.stop);
    await bus.publish(TOPICS.transactions, 'txn_a', {
      ...settled('txn_a'),
      transition: { from: null, to: 'ACEPTADA', at: '2026-11-22T10:00:00.000Z' },
    });
    await bus.publish(TOPICS.transactions, 'txn_b', { ...settled('txn_b'), merchantId: 'otra' });
    await bus.publish(TOPICS.transactions, 'txn_c', { ...settled('txn_c'), mode: 'live' });
    await bus.publish(TOPICS.transactions, 'txn_d', settled('txn_d'));
    await hook.received(1);
    await bus.drained();
    expect((await store.deliveries.listForTransaction('txn_a')).length + (await store.deliveries.listForTransaction('txn_b')).length).toBe(
      0,
    );
    expect(hook.got.map((g) => JSON.parse(g.body).data.id)).toEqual(['txn_d']);
  });

  it('skips the events whose webhook header names none, undecoded; the bus gives every event its header from its payload', async () => {
    const { bus, store, hook } = await setup();
    const notifier = await startNotifier({ bus, store, log, config });
    cleanup.push(notifier.stop);
    // The header is what decides: this payload would make a delivery, the header says it makes none.
    await bus.publish(TOPICS.transactions, 'txn_none', settled('txn_none'), { [TRANSACTION_WEBHOOK_HEADER]: 'none' });
    await bus.publish(TOPICS.transactions, 'txn_plain', settled('txn_plain'));
    await bus.publish(TOPICS.transactions, 'txn_new', settled('txn_new'), transactionEventHeaders(settled('txn_new')));
    await hook.received(2);
    await bus.drained();
    expect(await store.deliveries.listForTransaction('txn_none')).toEqual([]);
    expect(hook.got.map((g) => JSON.parse(g.body).data.id).sort()).toEqual(['txn_new', 'txn_plain']);
  });

  it('retries a failing receiver with byte-identical bodies and records every attempt', async () => {
    const { bus, store, hook } = await setup(3);
    const notifier = await startNotifier({ bus, store, log, config });
    cleanup.push(notifier.stop);
    await bus.publish(TOPICS.transactions, 'txn_2', settled('txn_2'));
    await hook.received(4);
    const bodies = hook.got.map((g) => g.body);
    expect(new Set(bodies).size).toBe(1);
    expect(new Set(hook.got.map((g) => g.headers['x-service-signature'])).size).toBe(1);
    const [delivery] = await store.deliveries.listForTransaction('txn_2');
    await expect.poll(async () => (await store.deliveries.get(delivery!.id))!.status).toBe('delivered');
    const final = (await store.deliveries.get(delivery!.id))!;
    expect(final.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 204]);
  });

  it('gives up after six attempts and leaves the delivery visible as exhausted', async () => {
    const { bus, store, hook } = await setup(100);
    const notifier = await startNotifier({ bus, store, log, config });
    cleanup.push(notifier.stop);
    await bus.publish(TOPICS.transactions, 'txn_3', settled('txn_3'));
    await hook.received(6);
    const [delivery] = await store.deliveries.listForTransaction('txn_3');
    await expect.poll(async () => (await store.deliveries.get(delivery!.id))!.status).toBe('exhausted');
    expect((await store.deliveries.get(delivery!.id))!.attempts).toHaveLength(6);
    expect((await store.deliveries.countByStatus()).exhausted).toBe(1);
  });

  it('does not create a second delivery when the same event is seen again', async () => {
    const { bus, store, hook } = await setup();
    const notifier = await startNotifier({ bus, store, log, config });
    cleanup.push(notifier.stop);
    await bus.publish(TOPICS.transactions, 'txn_4', settled('txn_4'));
    await bus.publish(TOPICS.transactions, 'txn_4', settled('txn_4'));
    await hook.received(1);
    await bus.drained();
    expect(await store.deliveries.listForTransaction('txn_4')).toHaveLength(1);
  });

  it('resumes at the next attempt after a restart, losing nothing', async () => {
    const { bus, store, hook } = await setup(1);
    const slow: NotifierConfig = { ...config, schedule: [0, 3_600_000, 5, 5, 5, 5] };
    const first = await startNotifier({ bus, store, log, config: slow });
    await bus.publish(TOPICS.transactions, 'txn_5', settled('txn_5'));
    await hook.received(1);
    const [delivery] = await store.deliveries.listForTransaction('txn_5');
    await expect.poll(async () => (await store.deliveries.get(delivery!.id))!.attempts.length).toBe(1);
    await first.stop();
    // The second attempt is due in an hour; a restarted notifier must neither lose it nor send it early.
    const restarted = new Dispatcher(store, config, log, () => new Date(Date.now() + 3_600_001));
    expect(await restarted.runDue()).toBe(1);
    expect(hook.got).toHaveLength(2);
    expect(hook.got[1]!.body).toBe(hook.got[0]!.body);
    expect((await store.deliveries.get(delivery!.id))!.status).toBe('delivered');
  });

  it('a store failure in one worker while another is attempting fails the round, never the process (no unhandled rejection)', async () => {
    const { store, hook } = await setup();
    await planDeliveries(store, settled('txn_w1'), new Date());
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // The first look finds the delivery; every later one (the second worker's) fails like a store timeout.
      let looks = 0;
      const claimDue = store.deliveries.claimDue.bind(store.deliveries);
      store.deliveries.claimDue = async (...args) => {
        looks++;
        if (looks === 1) return claimDue(...args);
        throw new Error('store timed out');
      };
      await expect(new Dispatcher(store, config, log).runDue()).rejects.toThrow('store timed out');
      // Let any rejection left without a handler be reported before looking.
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
      expect(hook.got).toHaveLength(1);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('an attempt the receiver does not answer in time is recorded as timed out and retried later', async () => {
    const { store } = await setup();
    // A receiver that takes the request and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`;
    cleanup.push(async () => {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    });
    await registerWebhook(
      store,
      {
        merchantId: 'tienda',
        mode: 'test',
        url: silentUrl,
        events: ['transaccion.liquidada'],
      },
      secrets,
    );
    await planDeliveries(store, settled('txn_t1'), new Date());
    const patient: NotifierConfig = { ...config, attemptTimeoutMs: 200, schedule: [0, 3_600_000, 5, 5, 5, 5] };

    expect(await new Dispatcher(store, patient, log).runDue()).toBe(2);

    const timedOut = (await store.deliveries.listForTransaction('txn_t1')).find((d) => d.url === silentUrl)!;
    expect(timedOut.status).toBe('pending');
    expect(timedOut.attempts).toEqual([expect.objectContaining({ n: 1, statusCode: null, error: 'timeout' })]);
  });

  it('an attempt that ends releases its deadline timer at once, instead of holding it (and the attempt) for the whole timeout', async () => {
    const { store, hook } = await setup();
    await planDeliveries(store, settled('txn_t2'), new Date());
    const timeoutMs = 43_210; // a delay nothing else uses, to pick out the attempt's timer
    const armed = vi.spyOn(globalThis, 'setTimeout');
    const cleared = vi.spyOn(globalThis, 'clearTimeout');
    try {
      expect(await new Dispatcher(store, { ...config, attemptTimeoutMs: timeoutMs }, log).runDue()).toBe(1);
      expect(hook.got).toHaveLength(1);
      const deadlines = armed.mock.calls.flatMap((call, i) => (call[1] === timeoutMs ? [armed.mock.results[i]!.value] : []));
      expect(deadlines).toHaveLength(1);
      expect(cleared.mock.calls.map((call) => call[0])).toContain(deadlines[0]);
    } finally {
      armed.mockRestore();
      cleared.mockRestore();
    }
  });

  it('two replicas attempt each delivery once per schedule slot', async () => {
    const { store, hook } = await setup();
    for (let i = 0; i < 20; i++) await planDeliveries(store, settled(`txn_r${i}`), new Date());
    const a = new Dispatcher(store, config, log);
    const b = new Dispatcher(store, config, log);
    const [na, nb] = await Promise.all([a.runDue(), b.runDue()]);
    expect(na + nb).toBe(20);
    expect(hook.got).toHaveLength(20);
    expect(new Set(hook.got.map((g) => JSON.parse(g.body).data.id)).size).toBe(20);
  });
});
