import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { BankBreakers, BreakerState } from '@switch/connector-kit/send';
import { KafkaBus } from '../adapters/kafka/bus';
import { createLogger } from '../telemetry/logger';
import { BankHealthView, startBankHealthReporter } from './bank-health';

/**
 * The breaker view through the real message path: two connector replicas' reporters and a router's
 * view over the shared Kafka and schema registry (infra/up.sh), each on a bus of its own.
 */
const brokers =
  process.env.KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean) ?? [];
const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? '';
const namespace = `breakers${randomUUID().slice(0, 8)}`;
const log = createLogger('test', 'silent');

beforeAll(() => {
  if (brokers.length === 0 || !registryUrl)
    throw new Error('KAFKA_BROKERS and SCHEMA_REGISTRY_URL are not set: run `npm run infra:up`, then `source .cache/infra.env`');
});
afterAll(async () => {
  const admin = new Kafka({ clientId: 'cleanup', brokers, logLevel: logLevel.WARN }).admin();
  await admin.connect();
  try {
    const mine = (await admin.listTopics()).filter((t) => t.startsWith(namespace));
    if (mine.length > 0) await admin.deleteTopics({ topics: mine });
  } finally {
    await admin.disconnect();
  }
});

/** A connector's breakers whose state the test sets: one operation, `pagar`. */
function breakersOf(state: BreakerState): BankBreakers & { set(s: BreakerState): void } {
  let current = state;
  const listeners: ((bank: string, operation: string, s: BreakerState) => void)[] = [];
  return {
    states: () => ({ pagar: current }),
    onStateChange: (l: (bank: string, operation: string, s: BreakerState) => void) => listeners.push(l),
    set(s: BreakerState) {
      current = s;
      for (const l of listeners) l('bnc', 'pagar', s);
    },
  } as unknown as BankBreakers & { set(s: BreakerState): void };
}

describe('the breaker view over Kafka', () => {
  it('two connector replicas disagreeing: the router routes around the bank, steadily, until both are closed', async () => {
    const bus = (name: string) =>
      new KafkaBus({ brokers, schemaRegistryUrl: registryUrl, clientId: `${name}-${namespace}`, namespace, logger: log });
    const routerBus = bus('router');
    const replicaA = bus('bank-bnc-a');
    const replicaB = bus('bank-bnc-b');
    const view = new BankHealthView();
    // Resolves once the view holds `n` more reports: the reports are awaited, not slept for.
    let seen = 0;
    const waiters: { n: number; resolve: () => void }[] = [];
    const record = view.record.bind(view);
    view.record = (value) => {
      record(value);
      seen++;
      for (const w of waiters.splice(0)) (seen >= w.n ? w.resolve : () => waiters.push(w))();
    };
    const reportsSeen = (n: number) => new Promise<void>((resolve) => (seen >= n ? resolve() : waiters.push({ n, resolve })));
    const subscription = await view.follow(routerBus, 'router-test');
    const a = breakersOf('open');
    const b = breakersOf('closed');
    // No periodic reports within the test: each report is one the test makes.
    const reporterA = startBankHealthReporter({
      bus: replicaA,
      banco: 'bnc',
      breakers: { live: a },
      log,
      replica: 'bank-bnc-a',
      intervalMs: 3_600_000,
    });
    const reporterB = startBankHealthReporter({
      bus: replicaB,
      banco: 'bnc',
      breakers: { live: b },
      log,
      replica: 'bank-bnc-b',
      intervalMs: 3_600_000,
    });
    try {
      a.set('open');
      await reportsSeen(1);
      expect([...view.unavailable('live')]).toEqual(['bnc']);
      // The healthy replica reports after the one that sees the bank down, twice: the view holds.
      b.set('closed');
      await reportsSeen(2);
      expect([...view.unavailable('live')]).toEqual(['bnc']);
      b.set('closed');
      await reportsSeen(3);
      expect([...view.unavailable('live')]).toEqual(['bnc']);
      expect(
        view
          .replicas()
          .map((r) => `${r.replica}:${r.open ? 'open' : 'closed'}`)
          .sort(),
      ).toEqual(['bank-bnc-a:open', 'bank-bnc-b:closed']);
      a.set('closed');
      await reportsSeen(4);
      expect([...view.unavailable('live')]).toEqual([]);
    } finally {
      reporterA.stop();
      reporterB.stop();
      await subscription.close();
      await Promise.all([routerBus.close(), replicaA.close(), replicaB.close()]);
    }
  });
});
