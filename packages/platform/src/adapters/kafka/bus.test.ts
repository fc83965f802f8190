import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type } from '@sinclair/typebox';
import { AssignerProtocol, Kafka, Partitioners, logLevel } from 'kafkajs';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { busContract } from '../../../test/bus-contract';
import { BANCOS } from '@switch/core/contracts/bancos';
import type { Delivered } from '../../ports/bus';
import { SchemaViolation } from '@switch/core/contracts/errors';
import { TOPICS, bankRequests, type Topic } from '@switch/core/contracts/topics';
import { KafkaBus } from './bus';
import { partitionOf } from '../partition';
import { RegistryCodec } from './registry';
import { registry } from '../../telemetry/metrics';

/**
 * Runs against real Kafka and the real schema registry (infra/up.sh). Without them this file fails:
 * a Kafka adapter that was never run against Kafka must not look green.
 */
const brokers =
  process.env.KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean) ?? [];
const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? '';
const MISSING = 'KAFKA_BROKERS and SCHEMA_REGISTRY_URL are not set: run `npm run infra:up`, then `source .cache/infra.env`, then the tests';

beforeAll(() => {
  if (brokers.length === 0 || !registryUrl) throw new Error(MISSING);
});

/** Remembers the topics the tests make, so they are deleted at the end (the broker is shared and small). */
const made = new Set<string>();
class TestBus extends KafkaBus {
  override ensureTopics(topics: Topic[]): Promise<void> {
    for (const t of topics) made.add(t.name).add(`${t.name}.dlq`).add(`${t.name}.dlq.redriven`);
    return super.ensureTopics(topics);
  }
}
afterAll(async () => {
  if (made.size === 0) return;
  const admin = new Kafka({ clientId: 'cleanup', brokers, logLevel: logLevel.WARN }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    await admin.deleteTopics({ topics: [...made].filter((t) => existing.has(t)) });
  } finally {
    await admin.disconnect();
  }
});

// A small backoff keeps the retry cases fast; the semantics do not depend on it.
const newBus = (name = 'test') => {
  if (brokers.length === 0 || !registryUrl) throw new Error(MISSING);
  return new TestBus({
    brokers,
    schemaRegistryUrl: registryUrl,
    clientId: `${name}-${randomUUID().slice(0, 8)}`,
    retryBackoffMs: 10,
    retryBackoffMaxMs: 100,
  });
};

// The contract's `settle` stays a no-op: KafkaBus.subscribe resolves only once the consumer has joined its group.
busContract('kafka', async () => newBus('contract'));

describe('KafkaBus on real Kafka and the schema registry', () => {
  const Ping = Type.Object({ n: Type.Integer(), note: Type.Optional(Type.String()) });
  const freshTopic = (partitions = 3): Topic<typeof Ping> => ({
    name: `kafkabus.${randomUUID().slice(0, 8)}.v1`,
    schema: Ping,
    partitions,
  });
  const registry = (path: string) =>
    fetch(`${registryUrl}${path}`).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));

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
      until: (count: number) =>
        distinct() >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
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
    expect(JSON.parse(latest.schema)).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      ...JSON.parse(JSON.stringify(topic.schema)),
    });

    // Publishing again (and from another process) reuses the registration: one version.
    await bus().publish(topic, 'k', { n: 2 });
    expect((await registry(`/subjects/${subject}/versions`)).body).toEqual([1]);

    // A subscriber also registers the dead-letter envelope, so dead-lettering never waits on the registry.
    await b.subscribe(topic, { group: 'g' }, async () => {});
    expect((await registry(`/config/${topic.name}.dlq-value`)).body).toEqual({ compatibilityLevel: 'BACKWARD' });
  });

  it('publishes made while a produce request is in flight leave together in the next one, each key in its order', async () => {
    const b = bus();
    const topic = freshTopic(3);
    await b.publish(topic, 'warm', { n: -1 }); // topic, registration and connection out of the way
    const before = b.produceRequests;
    const sink = collector();
    await b.subscribe(topic, { group: 'g' }, sink.handler);
    // 3 keys x 40 messages, all published at once; per key in publish order.
    await Promise.all(Array.from({ length: 120 }, (_, i) => b.publish(topic, `k${i % 3}`, { n: i })));
    const requests = b.produceRequests - before;
    // One request each would be 120; the group commit sends the first alone and the rest with it queued.
    expect(requests).toBeGreaterThanOrEqual(1);
    expect(requests).toBeLessThanOrEqual(10);
    await sink.until(121);
    for (const k of ['k0', 'k1', 'k2']) {
      const ns = sink.got.filter((m) => m.key === k).map((m) => m.value.n);
      expect(ns).toEqual([...ns].sort((x, y) => x - y));
      expect(ns).toHaveLength(40);
    }
  });

  it('the registry accepts the schema of every switch topic (unions included)', async () => {
    const codec = new RegistryCodec(registryUrl, 'schema-check');
    const prefix = `kafkabus.${randomUUID().slice(0, 8)}`; // own subjects: the real ones belong to the services
    for (const t of [...Object.values(TOPICS), ...BANCOS.map((b) => bankRequests(b))]) {
      expect(await codec.schemaId({ ...t, name: `${prefix}.${t.name}` })).toBeGreaterThan(0);
    }
  });

  it("validates with the project's formats and decimal precision, at publish and in the registry's own checks", async () => {
    const Amount = Type.Object({
      id: Type.String({ format: 'uuid' }),
      valor: Type.Number({ multipleOf: 0.01 }),
      at: Type.String({ format: 'date-time' }),
    });
    const topic: Topic<typeof Amount> = { name: `kafkabus.${randomUUID().slice(0, 8)}.v1`, schema: Amount, partitions: 1 };
    const b = bus();
    const got: unknown[] = [];
    let done!: () => void;
    const one = new Promise<void>((r) => (done = r));
    await b.subscribe(topic, { group: 'g' }, async (m) => {
      got.push(m.value);
      done();
    });
    await expect(b.publish(topic, 'k', { id: 'not-a-uuid', valor: 1, at: new Date().toISOString() })).rejects.toBeInstanceOf(
      SchemaViolation,
    );
    // 0.07 / 0.01 is 7.000000000000001 in binary floating point: only multipleOfPrecision 8 accepts it.
    const value = { id: randomUUID(), valor: 0.07, at: '2026-01-02T03:04:05.678Z' };
    await b.publish(topic, 'k', value);
    await one;
    expect(got).toEqual([value]);
  });

  it('a one-key subscription to an addressed topic holds only the partition of its key, and publishes land there', async () => {
    const b = bus();
    const topic = { ...freshTopic(4), addressed: true };
    const key = 'gateway-7f';
    const slot = partitionOf(key, 4);
    const c = collector();
    await b.subscribe(topic, { group: 'gw-7f', key, latestOnly: true }, c.handler);
    const admin = raw().admin();
    await admin.connect();
    try {
      const { groups } = await admin.describeGroups([`gw-7f.${topic.name}`]);
      const assigned = groups[0]!.members.map((m) => AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment);
      expect(assigned).toEqual([{ [topic.name]: [slot] }]);
      await b.publish(topic, key, { n: 1 });
      await c.until(1);
      const offsets = await admin.fetchTopicOffsets(topic.name);
      expect(offsets.filter((p) => p.high !== p.low).map((p) => p.partition)).toEqual([slot]);
    } finally {
      await admin.disconnect();
    }
  });

  it('creates topics with their partition count and their dead-letter topic', async () => {
    const b = bus();
    const topic = freshTopic(3);
    await b.ensureTopics([topic]);
    const admin = raw().admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic.name, `${topic.name}.dlq`] });
      expect(topics.map((t) => [t.name, t.partitions.length]).sort()).toEqual([
        [topic.name, 3],
        [`${topic.name}.dlq`, 1],
      ]);
    } finally {
      await admin.disconnect();
    }
  });

  it('names topics in its namespace and creates a per-operation topic with the deployment partition count', async () => {
    const namespace = `ns${randomUUID().slice(0, 8)}`;
    const b = new TestBus({ brokers, schemaRegistryUrl: registryUrl, clientId: `ns-${namespace}`, namespace, partitions: 2 });
    open.push(b);
    const work: Topic<typeof Ping> = { ...freshTopic(3), perOperation: true };
    const fixed = freshTopic(3);
    for (const t of [work, fixed]) made.add(`${namespace}.${t.name}`).add(`${namespace}.${t.name}.dlq`);
    const c = collector();
    await b.subscribe(work, { group: 'ns-test' }, c.handler);
    await b.ensureTopics([fixed]);
    await b.publish(work, 'k', { n: 7 });
    const admin = raw().admin();
    await admin.connect();
    try {
      const names = [`${namespace}.${work.name}`, `${namespace}.${fixed.name}`];
      const { topics } = await admin.fetchTopicMetadata({ topics: names });
      expect(topics.map((t) => [t.name, t.partitions.length]).sort()).toEqual(
        [
          [names[0], 2],
          [names[1], 3],
        ].sort(),
      );
      expect(await admin.listTopics()).not.toContain(work.name);
    } finally {
      await admin.disconnect();
    }
    await c.until(1);
    expect(c.got.map((m) => m.value.n)).toEqual([7]);
    expect(await b.deadLetters(work.name)).toEqual([]);
  });

  it('services starting side by side create the same new topics and each can use them at once', async () => {
    // Services start together and race to create their topics; the one that loses sees a topic the
    // broker does not serve yet. Every bus must come out of ensureTopics with topics it can publish to.
    const topics = Array.from({ length: 6 }, () => freshTopic(3));
    const buses = Array.from({ length: 4 }, (_, i) => bus(`racer${i}`));
    await Promise.all(buses.map((b, i) => b.ensureTopics(i % 2 === 0 ? topics : [...topics].reverse())));
    await Promise.all(buses.flatMap((b, i) => topics.map((t) => b.publish(t, `k${i}`, { n: i }))));
    const admin = raw().admin();
    await admin.connect();
    try {
      for (const t of topics) {
        const ends = await admin.fetchTopicOffsets(t.name);
        expect(ends.reduce((sum, p) => sum + Number(p.high), 0)).toBe(buses.length);
      }
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
    await rawProducer.send({
      topic: topic.name,
      acks: -1,
      messages: [{ key: 'k', value: await other.encode(widerId, { n: 1, extra: 'x' }) }],
    });
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
    // The bus writes the format itself: the registry's own client reads it back.
    expect(await other.decode(bytes[1]!)).toEqual({ n: 2 });
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

  it("dead-letters a payload its writer's schema allowed but this topic's schema refuses, and the partition moves on", async () => {
    const b = bus();
    const topic = freshTopic(1);
    const c = collector();
    await b.subscribe(topic, { group: 'g' }, c.handler);
    const other = new SchemaRegistry({ host: registryUrl });
    const loose = Type.Object({ n: Type.String() });
    const { id } = await other.register(
      { type: SchemaType.JSON, schema: JSON.stringify(loose) },
      { subject: `kafkabus-loose-${randomUUID().slice(0, 8)}-value` },
    );
    await rawProducer.send({ topic: topic.name, acks: -1, messages: [{ key: 'k', value: await other.encode(id, { n: 'one' }) }] });
    await b.publish(topic, 'k', { n: 1 });
    await c.until(1);
    expect(c.got.map((m) => m.value)).toEqual([{ n: 1 }]);
    const dead = await b.deadLetters(topic.name);
    expect(dead).toMatchObject([{ key: 'k', value: { n: 'one' }, redriven: false }]);
    expect(dead[0]!.reason).toContain('schema');
    // It cannot be redriven either: the same schema refuses it at publish.
    expect((await b.redriveDeadLetters(topic)).refused).toEqual([{ id: dead[0]!.id, reason: expect.stringContaining('schema') }]);
  });

  it('an undecodable dead letter is listed but refused by a redrive', async () => {
    const b = bus();
    const topic = freshTopic(1);
    await b.subscribe(topic, { group: 'g' }, async () => {});
    await rawProducer.send({ topic: topic.name, acks: -1, messages: [{ key: 'k', value: 'not registry-encoded' }] });
    let dead = await b.deadLetters(topic.name);
    for (let i = 0; dead.length === 0 && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      dead = await b.deadLetters(topic.name);
    }
    const report = await b.redriveDeadLetters(topic);
    expect(report.redriven).toEqual([]);
    expect(report.refused).toEqual([{ id: dead[0]!.id, reason: expect.stringContaining('undecodable') }]);
  });

  it('a registry that cannot answer delays the message: it is not dead-lettered and arrives once the registry is back', async () => {
    const topic = freshTopic(1);
    await bus('writer').publish(topic, 'k', { n: 1 });
    // A proxy in front of the registry that fails the next schema look-ups with 503.
    const upstream = new URL(registryUrl);
    let failures = 6; // the registry client tries 4 times per decode, so the first decode fails for good
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        if (req.url?.includes('/schemas/ids/') && failures > 0) {
          failures--;
          res.writeHead(503).end();
          return;
        }
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const headers = { 'content-type': req.headers['content-type'] ?? 'application/json' };
        const r = await fetch(`${upstream.origin}${req.url}`, { method: req.method, headers, body });
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const { port } = proxy.address() as AddressInfo;
      const reader = new TestBus({
        brokers,
        schemaRegistryUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
        clientId: `reader-${randomUUID().slice(0, 8)}`,
      });
      open.push(reader);
      const c = collector();
      await reader.subscribe(topic, { group: 'g' }, c.handler);
      await c.until(1);
      expect(failures).toBe(0);
      expect(c.got.map((m) => m.value)).toEqual([{ n: 1 }]);
      expect(await reader.deadLetters(topic.name)).toEqual([]);
    } finally {
      await new Promise((r) => proxy.close(r));
    }
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

  /** The group's committed offset of partition 0, as the broker holds it (-1: none). */
  const committedOffset = async (groupId: string, topicName: string) => {
    const admin = raw().admin();
    await admin.connect();
    try {
      const [t] = await admin.fetchOffsets({ groupId, topics: [topicName] });
      return Number(t?.partitions.find((p) => p.partition === 0)?.offset ?? -1);
    } finally {
      await admin.disconnect();
    }
  };
  const busWith = (commitIntervalMs: number) => {
    const b = new TestBus({ brokers, schemaRegistryUrl: registryUrl, clientId: `commits-${randomUUID().slice(0, 8)}`, commitIntervalMs });
    open.push(b);
    return b;
  };

  it('commits handled offsets on its clock, not after every message: none within the interval, all at close', async () => {
    const topic = freshTopic(1);
    const b = busWith(3_600_000);
    const c = collector();
    await b.subscribe(topic, { group: 'clocked' }, c.handler);
    for (let n = 1; n <= 10; n++) {
      await b.publish(topic, 'k', { n });
      await c.until(n); // one message per fetch: the batch-end commit of kafkajs would commit each
    }
    expect(await committedOffset(`clocked.${topic.name}`, topic.name)).toBe(-1);
    expect(b.offsetCommitRequests).toBe(0);
    await b.close();
    expect(await committedOffset(`clocked.${topic.name}`, topic.name)).toBe(10);
  });

  it('commits what was handled within its interval', async () => {
    const topic = freshTopic(1);
    const b = busWith(50);
    const c = collector();
    await b.subscribe(topic, { group: 'ticking' }, c.handler);
    for (let n = 1; n <= 3; n++) await b.publish(topic, 'k', { n });
    await c.until(3);
    // Waits for the broker to hold it (the clock's next rounds), however long this machine takes.
    while ((await committedOffset(`ticking.${topic.name}`, topic.name)) !== 3) await new Promise((r) => setImmediate(r));
    expect(b.offsetCommitRequests).toBeGreaterThanOrEqual(1);
  });

  it('after a second member joins the group (a rebalance), what each member handles is committed', async () => {
    const topic = freshTopic(1);
    const first = busWith(50);
    const c = collector();
    await first.subscribe(topic, { group: 'rejoined' }, c.handler);
    await first.publish(topic, 'k', { n: 1 });
    await c.until(1);
    const second = busWith(50);
    await second.subscribe(topic, { group: 'rejoined' }, c.handler); // the first member joins again
    for (let n = 2; n <= 4; n++) await first.publish(topic, 'k', { n });
    await c.until(4);
    // Waits for the broker to hold it (the clock's next rounds), however long this machine takes.
    while ((await committedOffset(`rejoined.${topic.name}`, topic.name)) !== 4) await new Promise((r) => setImmediate(r));
  });

  it('a member closing while it retries a message leaves it uncommitted: the next member of the group gets it', async () => {
    const topic = freshTopic(1);
    const first = bus('first');
    let failing!: () => void;
    const failed = new Promise<void>((r) => (failing = r));
    const sub = await first.subscribe(topic, { group: 'worker' }, async () => {
      failing();
      throw new Error('store unreachable');
    });
    await first.publish(topic, 'k', { n: 1 });
    await failed;
    await sub.close();

    const c = collector();
    await bus('second').subscribe(topic, { group: 'worker' }, c.handler);
    await c.until(1);
    expect(c.got.map((m) => m.value.n)).toEqual([1]);
    expect(await first.deadLetters(topic.name)).toEqual([]);
  });

  it('readiness answers within its bound when the broker does not answer', async () => {
    // A port nothing listens on behind a black hole would be better; an unroutable address does the same.
    const unreachable = new TestBus({
      brokers: ['10.255.255.1:9092'],
      schemaRegistryUrl: registryUrl,
      clientId: 'unreachable',
      readyTimeoutMs: 300,
    });
    open.push(unreachable);
    const r = await unreachable.ready();
    expect(r).toMatchObject({ ok: false, broker: { ok: false }, registry: { ok: true } });
  });

  it('reports readiness of the broker and the registry, and names what is down', async () => {
    expect(await bus().ready()).toEqual({ ok: true, broker: { ok: true }, registry: { ok: true }, consumers: { ok: true } });
    const broken = new TestBus({ brokers, schemaRegistryUrl: 'http://127.0.0.1:9/apis/ccompat/v7', clientId: 'broken' });
    open.push(broken);
    const r = await broken.ready();
    expect(r).toMatchObject({ ok: false, broker: { ok: true }, registry: { ok: false } });
    await expect(broken.ping()).rejects.toThrow(/schema registry/);
  });
});

describe('consumer lag', () => {
  it('is end offsets minus committed offsets per durable group, exported as a gauge', async () => {
    const bus = new KafkaBus({
      brokers: (process.env.KAFKA_BROKERS ?? '').split(','),
      schemaRegistryUrl: process.env.SCHEMA_REGISTRY_URL ?? '',
      clientId: 'lag-test',
    });
    const topic = { name: `contract.lag${Date.now()}.v1`, schema: Type.Object({ n: Type.Integer() }), partitions: 1 };
    try {
      let seen = 0;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let first!: () => void;
      const firstSeen = new Promise<void>((r) => (first = r));
      await bus.subscribe(topic, { group: 'lagging' }, async () => {
        seen++;
        first();
        await gate; // holds the partition: later messages stay unconsumed
      });
      for (let n = 0; n < 5; n++) await bus.publish(topic, 'k', { n });
      await firstSeen;
      const lags = await bus.measureLag();
      expect(lags[`lagging|${topic.name}`]).toBeGreaterThanOrEqual(4);
      expect(await registry.getSingleMetricAsString('switch_kafka_consumer_lag')).toContain(`group="lagging",topic="${topic.name}"`);
      release();
      expect(seen).toBeGreaterThanOrEqual(1);
    } finally {
      await bus.close();
    }
  });
});
