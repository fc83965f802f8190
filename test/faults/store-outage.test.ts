import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';

// This run's topics live in their own namespace on the shared cluster (the Kafka adapter prefixes them).
const RUN = `faults-${Math.random().toString(36).slice(2, 10)}`;

import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { createLogger } from '@switch/platform/telemetry/logger';
import { KafkaBus } from '@switch/platform/adapters/kafka/bus';
import { MongoStore } from '@switch/platform/adapters/mongo/store';
import { switchTopics, TOPICS, type RouterInboxMessage } from '@switch/core/contracts/topics';
import type { RoutingTable } from '@switch/core/routing';
import type { Store } from '@switch/platform/ports/store';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { startRouter } from '@switch/router';
import { startSimulatedBank } from '@switch/bank-sim';

/**
 * Money-safety regression: a store outage longer than the old retry budget (5 attempts, ~1.5 s) must
 * delay an operation, not dead-letter it. Router and simulated bank run in-process on real Kafka and
 * the real MongoDB-compatible store; a wrapper makes every store call throw while `down` is set.
 */
const brokers =
  process.env.KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean) ?? [];
const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? '';
const mongoUrl = process.env.MONGO_URL ?? '';
const database = `faults_${RUN.replace(/-/g, '_')}`;
const log = createLogger('store-outage', 'silent');
const ONLY_BNC: RoutingTable = { test: [{ banco: 'bnc', capabilities: [...CAPABILITIES] }], live: [] };

/** A store whose every method throws while `down`, counting the calls it failed. */
function switchableStore(real: Store) {
  const state = { down: false, failedCalls: 0, waiters: [] as { count: number; resolve: () => void }[] };
  const failure = (what: string): Error => {
    state.failedCalls++;
    for (const w of state.waiters.filter((x) => state.failedCalls >= x.count)) w.resolve();
    return new Error(`store unreachable (${what})`);
  };
  const wrap = <T extends object>(target: T, path: string): T =>
    new Proxy(target, {
      get(t, name, receiver) {
        const value = Reflect.get(t, name, receiver) as unknown;
        if (typeof value === 'function') {
          return (...args: unknown[]) =>
            state.down ? Promise.reject(failure(`${path}.${String(name)}`)) : (value as (...a: unknown[]) => unknown).apply(t, args);
        }
        if (value && typeof value === 'object') return wrap(value as object, `${path}.${String(name)}`);
        return value;
      },
    });
  return {
    store: wrap(real, 'store'),
    state,
    /** Resolves once `count` store calls in all have failed. */
    failures: (count: number) =>
      state.failedCalls >= count ? Promise.resolve() : new Promise<void>((resolve) => state.waiters.push({ count, resolve })),
  };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  const admin = new Kafka({ clientId: 'cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const ours = (await admin.listTopics()).filter((t) => t.startsWith(`${RUN}.`));
    if (ours.length > 0) await admin.deleteTopics({ topics: ours });
  } finally {
    await admin.disconnect();
  }
  const client = await MongoClient.connect(mongoUrl);
  await client
    .db(database)
    .dropDatabase()
    .finally(() => client.close());
});

describe('store outage', () => {
  it('a pago_movil payout published while the store is down for ~10 s completes (LIQUIDADA) with no dead letter anywhere', async () => {
    if (brokers.length === 0 || !registryUrl || !mongoUrl) throw new Error('KAFKA_BROKERS, SCHEMA_REGISTRY_URL and MONGO_URL are required');

    const real = await MongoStore.connect({ url: mongoUrl, database });
    cleanups.push(() => real.close());
    const { store, state, failures } = switchableStore(real);
    const bus = new KafkaBus({ brokers, schemaRegistryUrl: registryUrl, clientId: `store-outage-${RUN}`, namespace: RUN });
    cleanups.push(() => bus.close());
    // The store goes too where the bank service takes one (its order journal): it shares the outage.
    const bankDeps = { bus, store, log, secrets: SecretBox.ephemeral() };
    const bank = await startSimulatedBank(bankDeps);
    cleanups.push(() => bank.stop());
    const router = await startRouter({ bus, store, routing: ONLY_BNC, log });
    cleanups.push(() => router.stop());

    const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
    const ordenante = {
      tipo: 'cuenta' as const,
      valor: '01910000000000000001',
      banco: '0191',
      identificacion: 'J123456789',
      nombre: 'Comercio',
    };
    const beneficiario = { tipo: 'telefono' as const, valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };
    const execute: RouterInboxMessage = {
      type: 'execute',
      txnId,
      merchantId: 'acme',
      mode: 'test',
      idempotencyKey: randomUUID(),
      fingerprint: 'f'.repeat(64),
      request: {
        kind: 'pagar',
        body: {
          idempotency_key: randomUUID(),
          monto: { valor: 25.5, moneda: 'VES' },
          concepto: 'pago',
          ordenante,
          beneficiario,
          via: 'pago_movil',
        },
      },
    };

    state.down = true;
    await bus.publish(TOPICS.routerInbox, txnId, execute);
    // Eight failed calls: with the backoff (100 ms doubling to 5 s) that is ~11 s of outage, and far past
    // the old budget of 5 attempts after which the execute was dead-lettered and the payout stranded.
    await failures(8);
    state.down = false;

    let tx = await real.transactions.get(txnId);
    for (let i = 0; tx?.estado !== 'LIQUIDADA' && i < 300; i++) {
      await new Promise((r) => setTimeout(r, 100));
      tx = await real.transactions.get(txnId);
    }
    expect(tx?.estado).toBe('LIQUIDADA');
    expect(bank.bank.executedOrders).toBe(1);
    for (const topic of switchTopics())
      expect({ topic: topic.name, dead: await bus.deadLetters(topic.name) }).toEqual({ topic: topic.name, dead: [] });
    // The run's topics are in its namespace on the shared cluster.
    const admin = new Kafka({ clientId: `store-outage-${RUN}-check`, brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      expect(await admin.listTopics()).toContain(`${RUN}.${TOPICS.routerInbox.name}`);
    } finally {
      await admin.disconnect();
    }
  }, 120_000);
});
