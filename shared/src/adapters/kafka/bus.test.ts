import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { busContract } from '../../../test/bus-contract';
import type { Delivered, Topic } from '../../index';
import { KafkaBus } from './bus';

/**
 * Runs against real Kafka and the real schema registry (infra/up.sh). Without them this file fails:
 * a Kafka adapter that was never run against Kafka must not look green.
 */
const brokers = process.env.KAFKA_BROKERS?.split(',').map((b) => b.trim()).filter(Boolean) ?? [];
const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? '';
const MISSING = 'KAFKA_BROKERS and SCHEMA_REGISTRY_URL are not set: run `npm run infra:up`, then `source .cache/infra.env`, then the tests';

beforeAll(() => {
  if (brokers.length === 0 || !registryUrl) throw new Error(MISSING);
});

const newBus = (name = 'test') => {
  if (brokers.length === 0 || !registryUrl) throw new Error(MISSING);
  return new KafkaBus({ brokers, schemaRegistryUrl: registryUrl, clientId: `${name}-${randomUUID().slice(0, 8)}` });
};

// The contract's `settle` stays a no-op: KafkaBus.subscribe resolves only once the consumer has joined its group.
busContract('kafka', async () => newBus('contract'));

describe('KafkaBus on real Kafka and the schema registry', () => {
  const Ping = Type.Object({ n: Type.Integer(), note: Type.Optional(Type.String()) });
  const freshTopic = (partitions = 3): Topic<typeof Ping> => ({ name: `kafkabus.${randomUUID().slice(0, 8)}.v1`, schema: Ping, partitions });
  const registry = (path: string) => fetch(`${registryUrl}${path}`).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));

  const open: KafkaBus[] = [];
  const bus = (name?: string) => {
    const b = newBus(name);
    open.push(b);
    return b;
  };
  const raw = () => new Kafka({ clientId: `raw-${randomUUID().slice(0, 8)}`, brokers: brokers, logLevel: logLevel.WARN });
  const rawProducer = raw().producer({ createPartitioner: Partitioners.DefaultPartitioner });

  beforeAll(async () => {
    await rawProducer.connect();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((b) => b.close()));
  });
  afterAll(async () => {
    await rawProducer.disconnect();
  });

  /** Collects deliveries; `until(n)` resolves when n distinct values were seen (the handler signals, no sleeps). */
  const collector = () => {
    const got: Delivered<{ n: number }>[] = [];
    const waiters: { count: number; resolve: () => void }[] = [];
    const distinct = () => new Set(got.map((m) => m.value.n)).size;
    return {
      got,
      handler: async (m: Delivered<{ n: number }>) => {
        got.push(m);
        for (const w of waiters) if (distinct() >= w.count) w.resolve();
      },
      until: (count: number) => (distinct() >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    };
  };

  it('registers the JSON Schema of each topic under <topic>-value with its compatibility set', async () => {
    const b = bus();
    const topic = freshTopic();
    await b.publish(topic, 'k', { n: 1 });
    const subject = `${topic.name}-value`;

    const subjects = await registry('/subjects');
    expect(subjects.body).toEqual(expect.arrayContaining([subject]));
    expect((await registry(`/config/${subject}`)).body).toEqual({ compatibilityLevel: 'BACKWARD' });
    const latest = (await registry(`/subjects/${subject}/versions/latest`)).body as { id: number; schema: string; schemaType?: string };
    expect(latest.schemaType).toBe('JSON');
    expect(JSON.parse(latest.schema)).toEqual(JSON.parse(JSON.stringify(topic.schema)));

    // Publishing again (and from another process) reuses the registration: one version.
    await bus().publish(topic, 'k', { n: 2 });
    expect((await registry(`/subjects/${subject}/versions`)).body).toEqual([1]);

    // A subscriber also registers the dead-letter envelope, so dead-lettering never waits on the registry.
    await b.subscribe(topic, { group: 'g' }, async () => {});
    expect((await registry(`/config/${topic.name}.dlq-value`)).body).toEqual({ compatibilityLevel: 'BACKWARD' });
  });

  it('creates topics with their partition count and their dead-letter topic', async () => {
    const b = bus();
    const topic = freshTopic(3);
    await b.ensureTopics([topic]);
    const admin = raw().admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic.name, `${topic.name}.dlq`] });
      expect(topics.map((t) => [t.name, t.partitions.length])).toEqual([
        [topic.name, 3],
        [`${topic.name}.dlq`, 1],
      ]);
    } finally {
      await admin.disconnect();
    }
  });

  it('writes the registry wire format and decodes by the schema id each message carries', async () => {
    const b = bus();
    const topic = freshTopic(1);
    const c = collector();
    await b.subscribe(topic, { group: 'g' }, c.handler);

    // A producer elsewhere wrote with a newer, wider schema registered under its own subject: the consumer
    // decodes with the id in the message, not with the schema it knows for the topic.
    const other = new SchemaRegistry({ host: registryUrl });
    const wider = Type.Object({ n: Type.Integer(), extra: Type.String() });
    const { id: widerId } = await other.register(
      { type: SchemaType.JSON, schema: JSON.stringify(wider) },
      { subject: `kafkabus-wider-${randomUUID().slice(0, 8)}-value` },
    );
    await rawProducer.send({ topic: topic.name, acks: -1, messages: [{ key: 'k', value: await other.encode(widerId, { n: 1, extra: 'x' }) }] });
    await b.publish(topic, 'k', { n: 2 });
    await c.until(2);
    expect(c.got.map((m) => m.value)).toEqual([{ n: 1, extra: 'x' }, { n: 2 }]);

    // What the bus itself wrote: magic byte 0, then the id registered for <topic>-value.
    const ownId = ((await registry(`/subjects/${topic.name}-value/versions/latest`)).body as { id: number }).id;
    expect(ownId).not.toBe(widerId);
    const reader = raw().consumer({ groupId: `raw-reader-${randomUUID()}`, maxWaitTimeInMs: 500 });
    const bytes: Buffer[] = [];
    let seen!: () => void;
    const both = new Promise<void>((r) => (seen = r));
    await reader.connect();
    try {
      await reader.subscribe({ topics: [topic.name], fromBeginning: true });
      await reader.run({
        eachMessage: async ({ message }) => {
          if (message.value) bytes.push(message.value);
          if (bytes.length === 2) seen();
        },
      });
      await both;
    } finally {
      await reader.disconnect();
    }
    expect(bytes.map((x) => [x[0], x.readInt32BE(1)])).toEqual([
      [0, widerId],
      [0, ownId],
    ]);
  });

  it('dead-letters bytes that are not registry-encoded, without blocking the partition or losing them', async () => {
    const b = bus();
    const topic = freshTopic(1);
    const c = collector();
    await b.subscribe(topic, { group: 'g' }, c.handler);
    await rawProducer.send({ topic: topic.name, acks: -1, messages: [{ key: 'k', value: 'plain text, not registry-encoded' }] });
    await b.publish(topic, 'k', { n: 1 }); // same key, same partition, behind the poison message
    await c.until(1);
    expect(c.got.map((m) => m.value)).toEqual([{ n: 1 }]);

    const dead = await b.deadLetters(topic.name);
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ topic: topic.name, key: 'k', value: 'plain text, not registry-encoded' });
    expect(dead[0]!.reason).toContain('undecodable');
    // Another process reads the same dead letters (they live on the topic, not in memory).
    expect(await bus().deadLetters(topic.name)).toEqual(dead);
  });

  it('shares the partitions between two consumers of one group, one key on one consumer', async () => {
    const topic = freshTopic(3);
    const a = collector();
    const z = collector();
    const all = collector();
    await bus('a').subscribe(topic, { group: 'shared' }, async (m) => {
      await a.handler(m);
      await all.handler(m);
    });
    // Resolves once the group has rebalanced with both members (the first one rejoins at its next heartbeat).
    await bus('z').subscribe(topic, { group: 'shared' }, async (m) => {
      await z.handler(m);
      await all.handler(m);
    });
    const publisher = bus('p');
    for (let n = 0; n < 30; n++) await publisher.publish(topic, `key-${n % 10}`, { n });
    await all.until(30);

    expect(a.got.length).toBeGreaterThan(0);
    expect(z.got.length).toBeGreaterThan(0);
    const keysA = new Set(a.got.map((m) => m.key));
    expect(z.got.filter((m) => keysA.has(m.key))).toEqual([]);
    // Per key, publish order.
    for (const got of [a.got, z.got]) {
      for (const key of new Set(got.map((m) => m.key))) {
        const ns = got.filter((m) => m.key === key).map((m) => m.value.n);
        expect(ns).toEqual([...ns].sort((x, y) => x - y));
      }
    }
  });

  it('latestOnly starts at the end of the topic as it was when subscribe was called', async () => {
    const b = bus();
    const topic = freshTopic(1);
    await b.publish(topic, 'k', { n: 0 });
    const c = collector();
    await b.subscribe(topic, { group: `gateway-${randomUUID()}`, latestOnly: true }, c.handler);
    await b.publish(topic, 'k', { n: 1 });
    await c.until(1);
    expect(c.got.map((m) => m.value.n)).toEqual([1]); // n=0 is before n=1 on the one partition: it would have come first
  });

  it('close lets the message in hand finish and commits it: the group does not see it again', async () => {
    const topic = freshTopic(1);
    const first = bus('first');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const inHand = new Promise<void>((r) => (started = r));
    let finished = false;
    await first.subscribe(topic, { group: 'worker' }, async () => {
      started();
      await gate;
      finished = true;
    });
    await first.publish(topic, 'k', { n: 1 });
    await inHand;
    const closing = first.close().then(() => finished);
    release();
    expect(await closing).toBe(true); // close resolved only after the handler had finished

    const c = collector();
    const second = bus('second');
    await second.subscribe(topic, { group: 'worker' }, c.handler);
    await second.publish(topic, 'k', { n: 2 });
    await c.until(1);
    expect(c.got.map((m) => m.value.n)).toEqual([2]); // n=1 was committed, else it would come first
  });

  it('reports readiness of the broker and the registry, and names what is down', async () => {
    expect(await bus().ready()).toEqual({ ok: true, broker: { ok: true }, registry: { ok: true } });
    const broken = new KafkaBus({ brokers, schemaRegistryUrl: 'http://127.0.0.1:9/apis/ccompat/v7', clientId: 'broken' });
    open.push(broken);
    const r = await broken.ready();
    expect(r).toMatchObject({ ok: false, broker: { ok: true }, registry: { ok: false } });
    await expect(broken.ping()).rejects.toThrow(/schema registry/);
  });
});
