import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type, type Static } from '@sinclair/typebox';
import {
  Kafka,
  Partitioners,
  logLevel,
  type Admin,
  type Consumer,
  type EachMessagePayload,
  type IHeaders,
  type IMemberAssignment,
  type logCreator,
  type Producer,
} from 'kafkajs';
import type { Bus, DeadLetter, Delivered, SubscribeOptions, Subscription } from '../../ports/bus';
import { deadLetterTopicName, type Payload, type Topic } from '../../contracts/topics';
import type { Logger } from '../../telemetry/logger';
import { metrics } from '../../telemetry/metrics';
import { RegistryCodec } from './registry';

export interface KafkaBusOptions {
  brokers: string[];
  schemaRegistryUrl: string;
  clientId: string;
  logger?: Logger;
  /** Partitions of one subscription handled at the same time (each partition stays in order). Default 4. */
  partitionsConsumedConcurrently?: number;
  /** First pause between two attempts of a failing handler, doubled each time up to 2 s. Default 100 ms. */
  retryBackoffMs?: number;
  /** How long subscribe waits for the consumer to join its group. Default 60 s. */
  joinTimeoutMs?: number;
}

type Check = { ok: true } | { ok: false; error: string };
export interface Readiness {
  ok: boolean;
  broker: Check;
  registry: Check;
  /** Consumers that crashed and that kafkajs will not restart: the process should be replaced. */
  consumers: Check;
}

/** What a dead-letter topic holds: enough to see why, and to replay the exact bytes. */
const DeadLetterEnvelope = Type.Object({
  topic: Type.String(),
  group: Type.String(),
  key: Type.String(),
  partition: Type.Integer({ minimum: 0 }),
  offset: Type.String(),
  /** The decoded payload; null when it could not be decoded. */
  value: Type.Unknown(),
  /** The original bytes (base64) when they could not be decoded. */
  raw: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
  attempts: Type.Integer({ minimum: 0 }),
  at: Type.String({ format: 'date-time' }),
});
type DeadLetterEnvelope = Static<typeof DeadLetterEnvelope>;

/** Dead letters are rare and read whole; one partition keeps them in the order they failed. */
const deadLetterTopic = (topicName: string): Topic<typeof DeadLetterEnvelope> => ({
  name: deadLetterTopicName(topicName),
  schema: DeadLetterEnvelope,
  partitions: 1,
});

/**
 * One Kafka group per (service group, topic). kafkajs' assigners spread every topic any member of a
 * group subscribes to over all members, so two subscriptions of one service to two topics under one
 * group id would be handed each other's partitions and never consume them. Scoping the group by topic
 * also keeps a rebalance of one topic from pausing another (and matches the in-memory bus).
 */
const kafkaGroupId = (group: string, topicName: string): string => `${group}.${topicName}`;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function textHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) out[name] = last.toString();
  }
  return out;
}

/** kafkajs log lines into the service's pino logger. */
const pinoLogCreator =
  (logger: Logger): logCreator =>
  () =>
  ({ namespace, level, log }) => {
    const { message, timestamp: _timestamp, ...extra } = log;
    const fields = { component: 'kafkajs', namespace, ...extra };
    if (level === logLevel.ERROR) logger.error(fields, message);
    else if (level === logLevel.WARN) logger.warn(fields, message);
    else if (level === logLevel.INFO) logger.info(fields, message);
    else logger.debug(fields, message);
  };

/**
 * Kafka adapter of the Bus port (kafkajs + a Confluent-compatible schema registry).
 * - Key = transaction id; the default (murmur2) partitioner keeps one key on one partition, and kafkajs
 *   hands one partition to one group member, one message at a time.
 * - Offsets are committed by kafkajs only for messages whose handler resolved (at least once).
 * - A handler failing `maxAttempts` times, or bytes that cannot be decoded, go to `<topic>.dlq` with the
 *   reason and the partition moves on.
 */
export class KafkaBus implements Bus {
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly codec: RegistryCodec;
  private readonly log: Logger | undefined;
  private connection: Promise<void> | undefined;
  private readonly topicsReady = new Map<string, Promise<void>>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly deadConsumers = new Map<string, string>();
  /** Durable groups whose lag is exported (`switch_kafka_consumer_lag`). */
  private readonly lagGroups = new Map<string, { group: string; topic: string }>();
  private lagTimer: NodeJS.Timeout | undefined;
  private state: 'open' | 'closing' | 'closed' = 'open';
  private closing: Promise<void> | undefined;

  constructor(readonly options: KafkaBusOptions) {
    this.log = options.logger?.child({ component: 'kafka-bus' });
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      ...(options.logger ? { logLevel: logLevel.INFO, logCreator: pinoLogCreator(options.logger) } : { logLevel: logLevel.WARN }),
    });
    // The explicit DefaultPartitioner (murmur2, like the Java client) also silences kafkajs' v2 warning.
    this.producer = this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
    this.admin = this.kafka.admin();
    this.codec = new RegistryCodec(options.schemaRegistryUrl, options.clientId);
  }

  async publish<T extends Topic>(topic: T, key: string, value: Payload<T>, headers: Record<string, string> = {}): Promise<void> {
    if (this.state === 'closed') throw new Error('bus closed');
    const bytes = await this.codec.encode(topic, value); // SchemaViolation before anything is sent
    await this.ensureTopics([topic]);
    // acks -1: the broker answers once every in-sync replica has the message.
    await this.producer.send({ topic: topic.name, acks: -1, messages: [{ key, value: bytes, headers }] });
  }

  async subscribe<T extends Topic>(
    topic: T,
    options: SubscribeOptions,
    handler: (message: Delivered<Payload<T>>) => Promise<void>,
  ): Promise<Subscription> {
    if (this.state !== 'open') throw new Error('bus closed');
    await this.ensureTopics([topic]);
    await this.codec.schemaId(deadLetterTopic(topic.name)); // so dead-lettering never waits on a first registration
    const groupId = kafkaGroupId(options.group, topic.name);
    // Where "latest" is, taken now: left to kafkajs it is looked up at the first fetch after the join,
    // and a message published in between would be missed.
    const ends = options.latestOnly ? await this.admin.fetchTopicOffsets(topic.name) : [];

    const consumer = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      // Idle fetches return after 1 s, so a shutdown does not wait for a 5 s long poll.
      maxWaitTimeInMs: 1_000,
    });
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [topic.name], fromBeginning: !options.latestOnly });
      const joined = this.joined(consumer, (assignment) => {
        // Seeks made on the join are applied (and committed) before the first fetch.
        for (const p of ends) {
          if (assignment[topic.name]?.includes(p.partition)) consumer.seek({ topic: topic.name, partition: p.partition, offset: p.high });
        }
      });
      await consumer.run({
        partitionsConsumedConcurrently: Math.min(topic.partitions, this.options.partitionsConsumedConcurrently ?? 4),
        autoCommitInterval: 1_000, // besides the commit at the end of every batch
        eachMessage: (payload) => this.deliver(topic, options, handler as (m: Delivered<unknown>) => Promise<void>, payload),
      });
      await joined;
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        if (payload.restart) return;
        this.deadConsumers.set(groupId, errorText(payload.error));
        this.log?.error({ groupId, error: errorText(payload.error) }, 'consumer crashed and will not restart');
      });
      // close() began while this consumer was joining: it would not be in the set close() went through.
      if (this.state !== 'open') throw new Error('bus closed');
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }

    let closed: Promise<void> | undefined;
    const subscription: Subscription = {
      close: () =>
        (closed ??= (async () => {
          // Stops fetching, lets the messages in hand finish, commits their offsets, leaves the group.
          await consumer.disconnect();
          this.subscriptions.delete(subscription);
          // A latest-only group is private to one process: do not leave it behind in __consumer_offsets.
          if (options.latestOnly) await this.admin.deleteGroups([groupId]).catch(() => undefined);
        })()),
    };
    this.subscriptions.add(subscription);
    if (!options.latestOnly) {
      this.lagGroups.set(groupId, { group: options.group, topic: topic.name });
      this.lagTimer ??= setInterval(() => void this.measureLag().catch(() => undefined), 15_000).unref();
    }
    return subscription;
  }

  /** Messages not yet consumed per durable group and topic: end offsets minus committed offsets. */
  async measureLag(): Promise<Record<string, number>> {
    const lags: Record<string, number> = {};
    for (const [groupId, { group, topic }] of this.lagGroups) {
      const [ends, committed] = await Promise.all([this.admin.fetchTopicOffsets(topic), this.admin.fetchOffsets({ groupId, topics: [topic] })]);
      const done = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
      let lag = 0n;
      for (const p of ends) {
        const at = done.get(p.partition) ?? -1n;
        const from = at < 0n ? BigInt(p.low) : at;
        if (BigInt(p.high) > from) lag += BigInt(p.high) - from;
      }
      metrics.consumerLag.set({ group, topic }, Number(lag));
      lags[`${group}|${topic}`] = Number(lag);
    }
    return lags;
  }

  /** Creates the topics (and their dead-letter topics) with their partition counts, once per process. */
  async ensureTopics(topics: Topic[]): Promise<void> {
    const wanted = new Map<string, Topic>();
    for (const t of topics) for (const u of [t, deadLetterTopic(t.name)]) wanted.set(u.name, u);
    const missing = [...wanted.values()].filter((t) => !this.topicsReady.has(t.name));
    if (missing.length > 0) {
      const creating = this.createTopics(missing);
      for (const t of missing) this.topicsReady.set(t.name, creating);
      creating.catch(() => missing.forEach((t) => this.topicsReady.delete(t.name)));
    }
    await Promise.all([...wanted.keys()].map((name) => this.topicsReady.get(name)));
  }

  /** Reads the dead-letter topic from its beginning up to its end as it is now. */
  async deadLetters(topicName: string): Promise<DeadLetter[]> {
    if (this.state === 'closed') throw new Error('bus closed');
    await this.connect();
    const name = deadLetterTopicName(topicName);
    if (!(await this.admin.listTopics()).includes(name)) return [];
    const ends = new Map<number, bigint>();
    for (const p of await this.admin.fetchTopicOffsets(name)) if (BigInt(p.high) > BigInt(p.low)) ends.set(p.partition, BigInt(p.high));
    if (ends.size === 0) return [];

    const groupId = `${this.options.clientId}.dlq-reader.${randomUUID()}`;
    const reader = this.kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 500 });
    const found: { partition: number; offset: bigint; letter: DeadLetter }[] = [];
    let done!: () => void;
    const all = new Promise<void>((resolve) => (done = resolve));
    try {
      await reader.connect();
      await reader.subscribe({ topics: [name], fromBeginning: true });
      await reader.run({
        autoCommit: false,
        eachMessage: async ({ partition, message }) => {
          const end = ends.get(partition);
          if (end === undefined || BigInt(message.offset) >= end) return;
          const letter = await this.readDeadLetter(topicName, message.key, message.value, message.timestamp);
          found.push({ partition, offset: BigInt(message.offset), letter });
          if (BigInt(message.offset) + 1n >= end) ends.delete(partition);
          if (ends.size === 0) done();
        },
      });
      await withTimeout(all, 30_000, `reading ${name}`);
    } finally {
      await reader.disconnect().catch(() => undefined);
      await this.admin.deleteGroups([groupId]).catch(() => undefined);
    }
    type Found = (typeof found)[number];
    const order = (a: Found, b: Found) => a.partition - b.partition || (a.offset < b.offset ? -1 : a.offset > b.offset ? 1 : 0);
    return found.sort(order).map((f) => f.letter);
  }

  /** For /readyz: the broker describes its cluster and the registry lists its subjects. */
  async ready(): Promise<Readiness> {
    const check = (work: () => Promise<unknown>, what: string): Promise<Check> =>
      withTimeout(work(), 5_000, what).then(
        (): Check => ({ ok: true }),
        (error: unknown): Check => ({ ok: false, error: errorText(error) }),
      );
    const [broker, registry] = await Promise.all([
      check(async () => {
        await this.connect();
        await this.admin.describeCluster();
      }, 'kafka describeCluster'),
      check(() => this.codec.ping(), 'schema registry'),
    ]);
    const consumers: Check =
      this.deadConsumers.size === 0 ? { ok: true } : { ok: false, error: [...this.deadConsumers].map(([g, e]) => `${g}: ${e}`).join('; ') };
    return { ok: broker.ok && registry.ok && consumers.ok, broker, registry, consumers };
  }

  /** Throws unless ready (what the services' health server expects). */
  async ping(): Promise<void> {
    const r = await this.ready();
    if (!r.ok) {
      const problems = [
        r.broker.ok ? '' : `kafka: ${r.broker.error}`,
        r.registry.ok ? '' : `schema registry: ${r.registry.error}`,
        r.consumers.ok ? '' : `consumers: ${r.consumers.error}`,
      ];
      throw new Error(problems.filter(Boolean).join('; '));
    }
  }

  /** Graceful: consumers finish and commit the messages in hand first (their handlers may still publish). */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.state = 'closing';
      clearInterval(this.lagTimer);
      const results = await Promise.allSettled([...this.subscriptions].map((s) => s.close()));
      this.state = 'closed';
      if (this.connection) results.push(...(await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()])));
      for (const r of results) {
        if (r.status === 'rejected') this.log?.warn({ error: errorText(r.reason) }, 'kafka bus close: a client did not disconnect cleanly');
      }
    })();
    return this.closing;
  }

  private connect(): Promise<void> {
    if (!this.connection) {
      this.connection = Promise.all([this.producer.connect(), this.admin.connect()]).then(() => undefined);
      this.connection.catch(() => (this.connection = undefined));
    }
    return this.connection;
  }

  private async createTopics(topics: Topic[]): Promise<void> {
    await this.connect();
    const existing = new Set(await this.admin.listTopics());
    const toCreate = topics.filter((t) => !existing.has(t.name));
    if (toCreate.length > 0) {
      // Resolves false (no throw) when another process created them meanwhile. Not `waitForLeaders`:
      // kafkajs then retries only LEADER_NOT_AVAILABLE, and a KRaft broker whose metadata cache lags
      // the controller answers UNKNOWN_TOPIC_OR_PARTITION for a moment, which it throws.
      await this.admin.createTopics({ waitForLeaders: false, topics: toCreate.map((t) => ({ topic: t.name, numPartitions: t.partitions })) });
      this.log?.info({ topics: toCreate.map((t) => `${t.name}(${t.partitions})`) }, 'topics created');
    }
    await this.leadersElected(topics.map((t) => t.name));
  }

  /**
   * A topic just created (here or by another process starting beside this one) is listed before the
   * broker serves it: for a moment requests about it fail ("does not host this topic-partition",
   * "is not the leader for that topic-partition"). Wait until the leader of every partition answers
   * an offsets request, which is what subscribe asks first.
   */
  private async leadersElected(names: string[], timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
      let problem: string;
      try {
        const { topics } = await this.admin.fetchTopicMetadata({ topics: names });
        const leaderless = topics.filter((t) => t.partitions.length === 0 || t.partitions.some((p) => p.leader < 0)).map((t) => t.name);
        if (leaderless.length === 0) {
          await Promise.all(names.map((name) => this.admin.fetchTopicOffsets(name)));
          return;
        }
        problem = `no leader yet for ${leaderless.join(', ')}`;
      } catch (error) {
        problem = errorText(error);
      }
      if (Date.now() + pause > deadline) throw new Error(`topics not usable within ${timeoutMs} ms: ${problem}`);
      this.log?.debug({ topics: names, problem }, 'waiting for topic leaders');
      await sleep(pause);
    }
  }

  /** Resolves when the consumer has joined its group and got its partitions, so a publish after subscribe is seen. */
  private joined(consumer: Consumer, onJoin: (assignment: IMemberAssignment) => void): Promise<void> {
    const timeoutMs = this.options.joinTimeoutMs ?? 60_000;
    return new Promise<void>((resolve, reject) => {
      const stop = () => {
        clearTimeout(timer);
        offJoin();
        offCrash();
      };
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`consumer did not join its group within ${timeoutMs} ms`));
      }, timeoutMs);
      const offJoin = consumer.on(consumer.events.GROUP_JOIN, (event) => {
        stop();
        this.log?.debug({ groupId: event.payload.groupId, ms: event.payload.duration }, 'consumer joined');
        onJoin(event.payload.memberAssignment);
        resolve();
      });
      const offCrash = consumer.on(consumer.events.CRASH, (event) => {
        if (event.payload.restart) return; // kafkajs retries the join itself
        stop();
        reject(event.payload.error);
      });
    });
  }

  /** One message, in partition order: decode, run the handler with retries, else dead-letter. Never throws for a poison message. */
  private async deliver(
    topic: Topic,
    options: SubscribeOptions,
    handler: (m: Delivered<unknown>) => Promise<void>,
    { partition, message, heartbeat }: EachMessagePayload,
  ): Promise<void> {
    const key = message.key?.toString() ?? '';
    const headers = textHeaders(message.headers);
    const at = { topic: topic.name, group: options.group, key, partition, offset: message.offset, headers: message.headers };
    // A registry that cannot be reached throws here: the offset is not committed and kafkajs fetches it again.
    const decoded = await this.codec.decode(message.value);
    if (!decoded.ok) {
      return this.deadLetter(at, { value: null, raw: message.value?.toString('base64') ?? '', reason: decoded.reason, attempts: 0 });
    }

    const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
    let lastError = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      try {
        await handler({ key, value: structuredClone(decoded.value), headers });
        return;
      } catch (error) {
        lastError = errorText(error);
        if (attempt < maxAttempts) {
          await sleep(Math.min(2_000, (this.options.retryBackoffMs ?? 100) * 2 ** (attempt - 1)));
          await heartbeat(); // a long retry must not cost the partition through a session timeout
        }
      }
    }
    await this.deadLetter(at, { value: decoded.value, raw: null, reason: lastError, attempts: maxAttempts });
  }

  /** Awaited before the offset is resolved: a dead letter that cannot be written leaves the message to be fetched again. */
  private async deadLetter(
    at: { topic: string; group: string; key: string; partition: number; offset: string; headers: IHeaders | undefined },
    what: { value: unknown; raw: string | null; reason: string; attempts: number },
  ): Promise<void> {
    const dlq = deadLetterTopic(at.topic);
    const envelope: DeadLetterEnvelope = {
      topic: at.topic,
      group: at.group,
      key: at.key,
      partition: at.partition,
      offset: at.offset,
      ...what,
      at: new Date().toISOString(),
    };
    const bytes = await this.codec.encode(dlq, envelope);
    await this.producer.send({ topic: dlq.name, acks: -1, messages: [{ key: at.key, value: bytes, headers: at.headers ?? {} }] });
    const { headers: _headers, ...where } = at; // no payloads or headers in logs
    this.log?.warn({ ...where, reason: what.reason }, 'message dead-lettered');
  }

  private async readDeadLetter(topicName: string, key: Buffer | null, value: Buffer | null, timestamp: string): Promise<DeadLetter> {
    const decoded = await this.codec.decode(value);
    if (!decoded.ok) {
      const at = new Date(Number(timestamp)).toISOString();
      return { topic: topicName, key: key?.toString() ?? '', value: value?.toString() ?? null, reason: `unreadable dead letter: ${decoded.reason}`, at };
    }
    const e = decoded.value as DeadLetterEnvelope;
    // Undecodable originals are shown as text; the exact bytes stay on the topic (`raw`, base64).
    const shown = e.raw !== null ? Buffer.from(e.raw, 'base64').toString('utf8') : e.value;
    return { topic: e.topic, key: e.key, value: shown, reason: e.reason, at: e.at };
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
