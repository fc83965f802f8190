import { afterAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { TOPICS, type RouterInboxMessage, type TransactionEventMessage } from '@switch/core/contracts/topics';
import type { RoutingTable } from '@switch/core/routing';
import { KafkaBus } from '@switch/platform/adapters/kafka/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import type { Bus } from '@switch/platform/ports/bus';
import { createLogger } from '@switch/platform/telemetry/logger';
import { startRouter, type RouterHandle } from '@switch/router';

/**
 * A final state is stored with its own announced mark (docs/decisions/0172-announced-marks-and-acknowledged-writes.md):
 * what keeps its announcement is the inbox message that wrote it, whose offset must not be committed
 * before the broker acknowledged the event. Router in-process on the real broker; a wrapper refuses
 * the LIQUIDADA event's publish while `down` is set (what a broker that cannot take it answers).
 */
const RUN = `announce-${Math.random().toString(36).slice(2, 10)}`;
const brokers =
  process.env.KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean) ?? [];
const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? '';
const log = createLogger('announce-after-ack', 'silent');
const ONLY_BNC: RoutingTable = { test: [{ banco: 'bnc', capabilities: [...CAPABILITIES] }], live: [] };
const INBOX_GROUP = `router.${RUN}.${TOPICS.routerInbox.name}`;

const cleanups: (() => Promise<unknown>)[] = [];
let admin: Admin | undefined;
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  if (!admin) return;
  const ours = (await admin.listTopics()).filter((t) => t.startsWith(`${RUN}.`));
  if (ours.length > 0) await admin.deleteTopics({ topics: ours }).catch(() => undefined);
  await admin.disconnect();
});

const newBus = (name: string) => {
  const bus = new KafkaBus({ brokers, schemaRegistryUrl: registryUrl, clientId: `${RUN}-${name}`, namespace: RUN, commitIntervalMs: 50 });
  cleanups.push(() => bus.close());
  return bus;
};

/** The bus, except that a final event is refused while `state.down`. */
function refusingFinalEvents(inner: Bus, state: { down: boolean; refused: number }): Bus {
  return {
    publish: async (topic, key, value, headers) => {
      const event = value as TransactionEventMessage;
      if (state.down && topic.name === TOPICS.transactions.name && event.resultado?.estado === 'LIQUIDADA') {
        state.refused++;
        throw new Error('broker could not take it');
      }
      return inner.publish(topic, key, value, headers);
    },
    subscribe: inner.subscribe.bind(inner),
    deadLetters: inner.deadLetters.bind(inner),
    redriveDeadLetters: inner.redriveDeadLetters.bind(inner),
    close: inner.close.bind(inner),
  };
}

/** The router group's committed offset (the next message it reads) of one inbox partition; -1 for none. */
async function committed(partition: number): Promise<number> {
  const [topic] = await admin!.fetchOffsets({ groupId: INBOX_GROUP, topics: [`${RUN}.${TOPICS.routerInbox.name}`] });
  return Number(topic?.partitions.find((p) => p.partition === partition)?.offset ?? -1);
}

describe('the announcement of a final state', () => {
  it('is acknowledged before the inbox message that wrote it is committed; a router started later announces it', async () => {
    if (brokers.length === 0 || !registryUrl) throw new Error('KAFKA_BROKERS and SCHEMA_REGISTRY_URL are required');
    admin = new Kafka({ clientId: `${RUN}-admin`, brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const store = new MemoryStore();
    const probeBus = newBus('probe');
    const events: TransactionEventMessage[] = [];
    await probeBus.subscribe(TOPICS.transactions, { group: `${RUN}-probe` }, async ({ value }) => {
      events.push(value);
    });

    const state = { down: true, refused: 0 };
    const first: RouterHandle = await startRouter({
      bus: refusingFinalEvents(newBus('router-1'), state),
      store,
      routing: ONLY_BNC,
      log,
      relayIntervalMs: 3_600_000,
      instanceId: 'router-1',
    });
    let firstStopped = false;
    cleanups.push(() => (firstStopped ? Promise.resolve() : first.stop()));

    const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
    const key = randomUUID();
    const execute: RouterInboxMessage = {
      type: 'execute',
      txnId,
      merchantId: 'm',
      mode: 'test',
      idempotencyKey: key,
      fingerprint: 'f',
      request: {
        kind: 'pagar',
        body: {
          idempotency_key: key,
          monto: { valor: 5, moneda: 'VES' },
          concepto: 'x',
          ordenante: { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Tienda' },
          beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
          via: 'pago_movil',
        },
      },
    };
    await probeBus.publish(TOPICS.routerInbox, txnId, execute);
    await vi.waitFor(() => expect(events.some((e) => e.txnId === txnId)).toBe(true), { timeout: 30_000, interval: 20 });
    const result: RouterInboxMessage = {
      type: 'bank_result',
      txnId,
      attempt: 1,
      op: 'execute',
      outcome: { type: 'settled', referencia: 'REF-1', endtoend: null, raw: { codigo: '00' } },
    };
    await probeBus.publish(TOPICS.routerInbox, txnId, result);
    const [used] = (await admin.fetchTopicOffsets(`${RUN}.${TOPICS.routerInbox.name}`)).filter((p) => p.high !== p.low);
    const partition = used!.partition;
    const resultOffset = Number(used!.high) - 1;

    // LIQUIDADA is stored (with its own mark) and its event refused, again and again, over many commit rounds.
    await vi.waitFor(async () => expect((await store.transactions.get(txnId))?.estado).toBe('LIQUIDADA'), {
      timeout: 30_000,
      interval: 20,
    });
    await vi.waitFor(() => expect(state.refused).toBeGreaterThanOrEqual(4), { timeout: 30_000, interval: 20 });
    // The execute before it was handled and committed; the bank result is not.
    await vi.waitFor(async () => expect(await committed(partition)).toBe(resultOffset), { timeout: 30_000, interval: 50 });
    expect(events.filter((e) => e.txnId === txnId && e.resultado?.estado === 'LIQUIDADA')).toEqual([]);

    // The router goes away (a rollout, a crash); the next one gets the bank result again and announces it.
    await first.stop();
    firstStopped = true;
    const second = await startRouter({
      bus: newBus('router-2'),
      store,
      routing: ONLY_BNC,
      log,
      relayIntervalMs: 3_600_000,
      instanceId: 'router-2',
    });
    cleanups.push(() => second.stop());
    await vi.waitFor(() => expect(events.some((e) => e.txnId === txnId && e.resultado?.estado === 'LIQUIDADA')).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    await vi.waitFor(async () => expect(await committed(partition)).toBe(resultOffset + 1), { timeout: 30_000, interval: 50 });
  });
});
