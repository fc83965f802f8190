import { randomUUID } from 'node:crypto';
import { CONSUMER_JOIN_TIMEOUT_MS } from '../../config/timings';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type, type Static } from '@sinclair/typebox';
import {
  AssignerProtocol,
  ConfigResourceTypes,
  Kafka,
  logLevel,
  type Admin,
  type Consumer,
  type EachMessagePayload,
  type IHeaders,
  type IMemberAssignment,
  type logCreator,
  type PartitionAssigner,
} from 'kafkajs';
import {
  assertAddressable,
  backoffMs,
  headerAccepted,
  type Bus,
  type DeadLetter,
  type Delivered,
  type RedriveReport,
  type RetryBackoff,
  type SubscribeOptions,
  type Subscription,
} from '../../ports/bus';
import { PoisonMessage, SchemaViolation } from '@switch/core/contracts/errors';
import { deadLetterTopicName, type Payload, type Topic } from '@switch/core/contracts/topics';
import { assertPayload } from '../schema-check';
import { partitionOf } from '../partition';
import { Pauses } from '../pauses';
import type { Logger } from '../../telemetry/logger';
import { metrics } from '../../telemetry/metrics';
import { RegistryCodec } from './registry';
import { OffsetCommits } from './offsets';
import { ProduceQueue } from './produce-queue';
import { RenewingProducer } from './renewing-producer';
import {
  CHECKED_CONFIG,
  contradictions,
  creationOf,
  DEAD_LETTER_PARTITIONS,
  PRODUCER_CONFIG,
  SINGLE_BROKER,
  TopicContradiction,
  topicSettings,
  type TopicDurability,
  type TopicSettings,
} from './topic-settings';
import { clientSecurity } from './security';
import type { KafkaSecurity } from '../../config/kafka-security';

export interface KafkaBusOptions extends RetryBackoff {
  brokers: string[];
  schemaRegistryUrl: string;
  clientId: string;
  logger?: Logger;
  /** Partitions of one subscription handled at the same time (each partition stays in order). Default: all of the topic's (at most 16). */
  partitionsConsumedConcurrently?: number;
  /**
   * How long the broker waits without a heartbeat before it gives a member's partitions to the others
   * (a member killed with -9 never says goodbye). Default 6000 ms, the broker's usual minimum
   * (`group.min.session.timeout.ms`); a member heartbeats every `heartbeatIntervalMs`, also while a
   * handler runs or waits between retries.
   */
  sessionTimeoutMs?: number;
  /** Default 1000 ms. */
  heartbeatIntervalMs?: number;
  /**
   * Prefix of every topic name on the cluster (`<namespace>.<name>`), and so of every consumer group and
   * registry subject derived from it: several environments share one cluster. Default none.
   */
  namespace?: string;
  /**
   * Partitions of the per-operation topics (`Topic.perOperation`): what this bus creates them with and
   * what it requires of them when they exist. Default the topic's own.
   */
  partitions?: number;
  /**
   * Replication factor and `min.insync.replicas` the topics are created with, and required of them
   * when they exist (./topic-settings.ts). Default one broker's (1 and 1); services pass the typed
   * config's (production 3 and 2).
   */
  durability?: TopicDurability;
  /**
   * How long a rebalance waits for members to rejoin. A member rejoins only once the message in its
   * hands is done, so this bounds how long a slow bank call can hold a rebalance. Default 60 s.
   */
  rebalanceTimeoutMs?: number;
  /** Longest wait of each readiness check (broker, registry), so /readyz answers within a second. Default 800 ms. */
  readyTimeoutMs?: number;
  /** How long subscribe waits for the consumer to join its group. Default 60 s. */
  joinTimeoutMs?: number;
  /**
   * Handled offsets are committed this often (and when a rebalance starts or the subscription closes),
   * not after every batch: a crash redelivers at most this much (./offsets.ts). Default 1000 ms.
   */
  commitIntervalMs?: number;
  /**
   * How often a subscription reads its group's committed offsets of the partitions it reads, and
   * commits its position again where the group's is below it (./offsets.ts, `check`). Default 30 s.
   */
  offsetCheckMs?: number;
  /** TLS and SASL towards the brokers (`KAFKA_SSL*`, `KAFKA_SASL_*`); none: plaintext. Every client of the bus uses it. */
  security?: KafkaSecurity;
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

/** Kept until an operator acts (kind `dead-letter`: no expiry). */
const deadLetterTopic = (topicName: string): Topic<typeof DeadLetterEnvelope> => ({
  name: deadLetterTopicName(topicName),
  schema: DeadLetterEnvelope,
  partitions: DEAD_LETTER_PARTITIONS,
  kind: 'dead-letter',
});

/** Which dead letters were redriven: one mark per id, appended after the redriven copy was published. */
const RedriveMark = Type.Object({ id: Type.String(), at: Type.String({ format: 'date-time' }) });
const redriveMarksTopic = (topicName: string): Topic<typeof RedriveMark> => ({
  name: `${deadLetterTopicName(topicName)}.redriven`,
  schema: RedriveMark,
  partitions: DEAD_LETTER_PARTITIONS,
  kind: 'dead-letter',
});

/** A dead letter as read from its topic, with what a redrive needs. */
interface StoredDeadLetter {
  letter: DeadLetter;
  /** The decoded original payload; absent when it could not be decoded (such an entry cannot be redriven). */
  original?: { value: unknown };
  headers: Record<string, string>;
}

/**
 * One Kafka group per (service group, topic). kafkajs' assigners spread every topic any member of a
 * group subscribes to over all members, so two subscriptions of one service to two topics under one
 * group id would be handed each other's partitions and never consume them. Scoping the group by topic
 * also keeps a rebalance of one topic from pausing another (and matches the in-memory bus).
 */
const kafkaGroupId = (group: string, topicName: string): string => `${group}.${topicName}`;

/**
 * For a subscription to one key of an addressed topic: kafkajs has no `assign()`, so the group (one
 * per instance) uses this assigner, which gives the key's one partition to one member (the first by
 * id; a stale member of a restarted instance is dropped by the broker after its session timeout).
 */
const onePartition =
  (topicName: string, partition: number): PartitionAssigner =>
  () => ({
    name: 'SwitchOnePartition',
    version: 0,
    async assign({ members }) {
      const [first] = members.map((m) => m.memberId).sort();
      return members.map(({ memberId }) => ({
        memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 0,
          assignment: memberId === first ? { [topicName]: [partition] } : {},
          userData: Buffer.alloc(0),
        }),
      }));
    },
    protocol: ({ topics }) => ({
      name: 'SwitchOnePartition',
      metadata: AssignerProtocol.MemberMetadata.encode({ version: 0, topics, userData: Buffer.alloc(0) }),
    }),
  });

/** Epochs are unique in the process, so two subscriptions never share one (Delivered.epoch). */
let epochs = 0;
const nextEpoch = () => ++epochs;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function textHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers ?? {})) {
    const text = textHeader(headers, name);
    if (text !== undefined) out[name] = text;
  }
  return out;
}

/** One header as text (the last, when it was given several times). */
function textHeader(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return last?.toString();
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
 * - A failing handler is retried with capped backoff until it succeeds, the partition waiting behind it;
 *   only what can never succeed (undecodable bytes, a payload the topic's schema refuses, PoisonMessage,
 *   the opt-in `maxAttempts`) goes to `<topic>.dlq` with the reason, and the partition moves on.
 * - Dead letters are listed with ids and redriven once each (marks on `<topic>.dlq.redriven`).
 */
export class KafkaBus implements Bus {
  private readonly kafka: Kafka;
  private readonly producer: RenewingProducer;
  private readonly admin: Admin;
  private readonly codec: RegistryCodec;
  private readonly outgoing: ProduceQueue;
  private readonly log: Logger | undefined;
  private connection: Promise<void> | undefined;
  private readonly topicsReady = new Map<string, Promise<void>>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly offsetCommits = new Set<OffsetCommits>();
  private readonly deadConsumers = new Map<string, string>();
  /** Durable groups whose lag is exported (`switch_kafka_consumer_lag`). */
  private readonly lagGroups = new Map<string, { group: string; topic: string }>();
  private lagTimer: NodeJS.Timeout | undefined;
  private state: 'open' | 'closing' | 'closed' = 'open';
  private readonly heartbeatMs: number;
  private closing: Promise<void> | undefined;

  constructor(readonly options: KafkaBusOptions) {
    this.log = options.logger?.child({ component: 'kafka-bus' });
    this.heartbeatMs = options.heartbeatIntervalMs ?? 1_000;
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      ...clientSecurity(options.security),
      ...(options.logger ? { logLevel: logLevel.INFO, logCreator: pinoLogCreator(options.logger) } : { logLevel: logLevel.WARN }),
    });
    this.producer = new RenewingProducer(
      () => this.kafka.producer({ ...PRODUCER_CONFIG }),
      (error) => this.log?.warn({ error: errorText(error) }, 'produce request failed; the next goes through a new idempotent producer'),
    );
    this.admin = this.kafka.admin();
    this.outgoing = new ProduceQueue(this.producer);
    this.codec = new RegistryCodec(options.schemaRegistryUrl, options.clientId);
  }

  /** The switch's topics as they are on the cluster (see `onCluster`), and the names already mapped. */
  private readonly clusterTopics = new WeakMap<Topic, Topic>();
  private readonly mapped = new WeakSet<Topic>();

  /** A topic name in this deployment's namespace. */
  private clusterName(name: string): string {
    return this.options.namespace ? `${this.options.namespace}.${name}` : name;
  }

  /**
   * The topic as it is on the cluster: its name in the namespace and, for a per-operation topic, the
   * deployment's partition count. Every entry point maps its topic once; a mapped topic maps to itself.
   */
  private onCluster<T extends Topic>(topic: T): T {
    if (this.mapped.has(topic)) return topic;
    let t = this.clusterTopics.get(topic);
    if (!t) {
      const partitions = topic.perOperation && this.options.partitions ? this.options.partitions : topic.partitions;
      t = { ...topic, name: this.clusterName(topic.name), partitions };
      this.clusterTopics.set(topic, t);
      this.mapped.add(t);
    }
    return t as T;
  }

  async publish<T extends Topic>(switchTopic: T, key: string, value: Payload<T>, headers: Record<string, string> = {}): Promise<void> {
    if (this.state === 'closed') throw new Error('bus closed');
    const topic = this.onCluster(switchTopic);
    const bytes = await this.codec.encode(topic, value); // SchemaViolation before anything is sent
    await this.ensureTopics([topic]);
    // An addressed topic places by the switch's own hash, so a one-key subscriber knows the partition.
    const partition = topic.addressed ? partitionOf(key, topic.partitions) : undefined;
    await this.outgoing.send(topic.name, { key, value: bytes, headers: { ...topic.headersOf?.(value), ...headers }, partition });
    metrics.busPublished.inc({ topic: topic.name });
  }

  /** OffsetCommit requests sent by the open subscriptions (./offsets.ts), for tests. */
  get offsetCommitRequests(): number {
    return [...this.offsetCommits].reduce((sum, c) => sum + c.requests, 0);
  }

  /** Produce requests sent (each may carry many messages): what the group commit saves, for tests and metrics. */
  get produceRequests(): number {
    return this.outgoing.requests;
  }

  async subscribe<T extends Topic>(
    switchTopic: T,
    options: SubscribeOptions,
    handler: (message: Delivered<Payload<T>>) => Promise<void>,
  ): Promise<Subscription> {
    if (this.state !== 'open') throw new Error('bus closed');
    const topic = this.onCluster(switchTopic);
    assertAddressable(topic, options);
    await this.ensureTopics([topic]);
    await this.codec.schemaId(deadLetterTopic(topic.name)); // so dead-lettering never waits on a first registration
    const groupId = kafkaGroupId(options.group, topic.name);
    // Where "latest" is, taken now: left to kafkajs it is looked up at the first fetch after the join,
    // and a message published in between would be missed.
    const ends = options.latestOnly ? await this.admin.fetchTopicOffsets(topic.name) : [];
    // Ended when the subscription closes: a message being retried stops waiting and stays uncommitted.
    const pauses = new Pauses();

    const consumer = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: this.options.sessionTimeoutMs ?? 6_000,
      heartbeatInterval: this.heartbeatMs,
      rebalanceTimeout: this.options.rebalanceTimeoutMs ?? 60_000,
      // Idle fetches return after 1 s, so a shutdown does not wait for a 5 s long poll.
      maxWaitTimeInMs: 1_000,
      ...(options.key === undefined ? {} : { partitionAssigners: [onePartition(topic.name, partitionOf(options.key, topic.partitions))] }),
    });
    // Other keys share the partition: they are skipped (committed unhandled).
    const only = options.key;
    const take = (m: Delivered<unknown>) =>
      only === undefined || m.key === only ? handler(m as Delivered<Payload<T>>) : Promise.resolve();
    await consumer.connect();
    // Delivered.epoch: bumped when a rebalance starts and when the member (re)joins with its assignment.
    let epoch = nextEpoch();
    const commits = new OffsetCommits({
      topic: topic.name,
      commit: (offsets) => consumer.commitOffsets(offsets),
      read: async (partitions) => {
        const [read] = await this.admin.fetchOffsets({ groupId, topics: [topic.name] });
        const wanted = new Set(partitions);
        // '-1': nothing committed for the partition.
        return new Map(
          (read?.partitions ?? []).filter((p) => wanted.has(p.partition) && p.offset !== '-1').map((p) => [p.partition, p.offset]),
        );
      },
      intervalMs: this.options.commitIntervalMs ?? 1_000,
      checkIntervalMs: this.options.offsetCheckMs ?? 30_000,
      onError: (error) => this.log?.debug({ groupId, error: errorText(error) }, 'offset commit refused; tried again next round'),
      onRepaired: (offsets) =>
        this.log?.warn(
          { groupId, offsets: offsets.map((o) => `${o.partition}:${o.offset}`) },
          "the group's committed offset was below this member's position; committed again",
        ),
    });
    this.offsetCommits.add(commits);
    const dropCommits = () => {
      commits.stop();
      this.offsetCommits.delete(commits);
    };
    consumer.on(consumer.events.REBALANCING, () => {
      epoch = nextEpoch();
      void commits.flush(); // before the partitions move: their next owner starts after what was handled
    });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      epoch = nextEpoch();
      commits.rejoined();
    });
    try {
      await consumer.subscribe({ topics: [topic.name], fromBeginning: !options.latestOnly });
      const joined = this.joined(consumer, (assignment) => {
        // Seeks made on the join are applied (and committed) before the first fetch.
        for (const p of ends) {
          if (!assignment[topic.name]?.includes(p.partition)) continue;
          consumer.seek({ topic: topic.name, partition: p.partition, offset: p.high });
          commits.startAt(p.partition, p.high);
        }
      });
      await consumer.run({
        partitionsConsumedConcurrently: Math.min(topic.partitions, this.options.partitionsConsumedConcurrently ?? 16),
        autoCommit: false, // committed on a clock by `commits` (./offsets.ts), not after every batch
        eachMessage: (payload) =>
          commits.around(payload.partition, payload.message.offset, () => this.deliver(topic, options, take, pauses, payload, () => epoch)),
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
      pauses.stop();
      dropCommits();
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }

    let closed: Promise<void> | undefined;
    const subscription: Subscription = {
      close: () =>
        (closed ??= (async () => {
          // Stops fetching, lets the messages in hand finish, commits their offsets, leaves the group.
          // A message being retried gives up at once and is not committed: the group's next member gets it.
          pauses.stop();
          consumer.pause([{ topic: topic.name }]); // the rest of a fetched batch stays unhandled, uncommitted
          await commits.settled();
          await commits.flush();
          dropCommits();
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
      const [ends, committed] = await Promise.all([
        this.admin.fetchTopicOffsets(topic),
        this.admin.fetchOffsets({ groupId, topics: [topic] }),
      ]);
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
  async ensureTopics(switchTopics: Topic[]): Promise<void> {
    const topics = switchTopics.map((t) => this.onCluster(t));
    await this.ensureTopicsOnly(topics.flatMap((t) => [t, deadLetterTopic(t.name)]));
  }

  /** Creates exactly these topics, once per process. */
  private async ensureTopicsOnly(topics: Topic[]): Promise<void> {
    const wanted = new Map<string, Topic>(topics.map((t) => [t.name, t]));
    const missing = [...wanted.values()].filter((t) => !this.topicsReady.has(t.name));
    if (missing.length > 0) {
      const creating = this.createTopics(missing);
      for (const t of missing) this.topicsReady.set(t.name, creating);
      creating.catch(() => {
        for (const t of missing) this.topicsReady.delete(t.name);
      });
    }
    await Promise.all([...wanted.keys()].map((name) => this.topicsReady.get(name)));
  }

  /** The topic's dead letters, oldest first, each with its id (`<partition>:<offset>` on the dead-letter topic). */
  async deadLetters(topicName: string): Promise<DeadLetter[]> {
    return (await this.storedDeadLetters(this.clusterName(topicName))).map((d) => d.letter);
  }

  /**
   * Re-publishes dead letters (same key, same headers) and then appends one mark per id to
   * `<topic>.dlq.redriven`; entries with a mark are never redriven again. A crash between the publish and
   * the mark can redrive an entry a second time: harmless, as every handler is idempotent (a redelivery).
   */
  async redriveDeadLetters(switchTopic: Topic, ids?: string[]): Promise<RedriveReport> {
    const topic = this.onCluster(switchTopic);
    const stored = await this.storedDeadLetters(topic.name);
    const byId = new Map(stored.map((d) => [d.letter.id, d]));
    const chosen = ids ?? stored.filter((d) => !d.letter.redriven).map((d) => d.letter.id);
    const report: RedriveReport = { redriven: [], refused: [] };
    const marks = redriveMarksTopic(topic.name);
    for (const id of new Set(chosen)) {
      const entry = byId.get(id);
      if (!entry) report.refused.push({ id, reason: 'no such dead letter' });
      else if (entry.letter.redriven) report.refused.push({ id, reason: 'already redriven' });
      else if (!entry.original) report.refused.push({ id, reason: `cannot be redriven: ${entry.letter.reason}` });
      else {
        try {
          await this.publish(topic, entry.letter.key, entry.original.value as Payload<Topic>, entry.headers);
        } catch (error) {
          if (!(error instanceof SchemaViolation)) throw error; // an outage: nothing marked, the operator tries again
          report.refused.push({ id, reason: error.message });
          continue;
        }
        await this.ensureTopicsOnly([marks]);
        const bytes = await this.codec.encode(marks, { id, at: new Date().toISOString() });
        await this.outgoing.send(marks.name, { key: id, value: bytes });
        report.redriven.push(id);
        this.log?.info({ topic: topic.name, id, key: entry.letter.key }, 'dead letter redriven');
      }
    }
    return report;
  }

  private async storedDeadLetters(topicName: string): Promise<StoredDeadLetter[]> {
    const name = deadLetterTopicName(topicName);
    const marksName = redriveMarksTopic(topicName).name;
    const read = await this.readTopics([name, marksName]);
    const redriven = new Set<string>();
    for (const m of read.filter((r) => r.topic === marksName)) {
      const decoded = await this.codec.decode(m.value);
      if (decoded.ok) redriven.add((decoded.value as Static<typeof RedriveMark>).id);
    }
    const out: StoredDeadLetter[] = [];
    for (const m of read.filter((r) => r.topic === name)) {
      const id = `${m.partition}:${m.offset}`;
      const headers = textHeaders(m.headers);
      const decoded = await this.codec.decode(m.value);
      if (!decoded.ok) {
        const at = new Date(Number(m.timestamp)).toISOString();
        const letter = {
          id,
          topic: topicName,
          key: m.key?.toString() ?? '',
          value: m.value?.toString() ?? null,
          reason: `unreadable dead letter: ${decoded.reason}`,
          at,
        };
        out.push({ letter: { ...letter, redriven: redriven.has(id) }, headers });
        continue;
      }
      const e = decoded.value as DeadLetterEnvelope;
      // Undecodable originals are shown as text; the exact bytes stay on the topic (`raw`, base64).
      const shown = e.raw !== null ? Buffer.from(e.raw, 'base64').toString('utf8') : e.value;
      const letter: DeadLetter = { id, topic: e.topic, key: e.key, value: shown, reason: e.reason, at: e.at, redriven: redriven.has(id) };
      out.push({ letter, headers, ...(e.raw === null ? { original: { value: e.value } } : {}) });
    }
    return out;
  }

  /** Reads topics from their beginning up to their ends as they are now, in partition and offset order. */
  private async readTopics(names: string[]): Promise<
    {
      topic: string;
      partition: number;
      offset: string;
      key: Buffer | null;
      value: Buffer | null;
      headers: IHeaders | undefined;
      timestamp: string;
    }[]
  > {
    if (this.state === 'closed') throw new Error('bus closed');
    await this.connect();
    const listed = new Set(await this.admin.listTopics());
    const present = names.filter((n) => listed.has(n));
    const ends = new Map<string, bigint>();
    for (const name of present) {
      for (const p of await this.admin.fetchTopicOffsets(name))
        if (BigInt(p.high) > BigInt(p.low)) ends.set(`${name}|${p.partition}`, BigInt(p.high));
    }
    const found: Awaited<ReturnType<KafkaBus['readTopics']>> = [];
    if (ends.size === 0) return found;

    const groupId = `${this.options.clientId}.dlq-reader.${randomUUID()}`;
    const reader = this.kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 500 });
    let done!: () => void;
    const all = new Promise<void>((resolve) => (done = resolve));
    try {
      await reader.connect();
      await reader.subscribe({ topics: [...new Set([...ends.keys()].map((k) => k.slice(0, k.lastIndexOf('|'))))], fromBeginning: true });
      await reader.run({
        autoCommit: false,
        eachMessage: async ({ topic, partition, message }) => {
          const at = `${topic}|${partition}`;
          const end = ends.get(at);
          if (end === undefined || BigInt(message.offset) >= end) return;
          found.push({
            topic,
            partition,
            offset: message.offset,
            key: message.key,
            value: message.value,
            headers: message.headers,
            timestamp: message.timestamp,
          });
          if (BigInt(message.offset) + 1n >= end) ends.delete(at);
          if (ends.size === 0) done();
        },
      });
      await withTimeout(all, 30_000, `reading ${present.join(', ')}`);
    } finally {
      await reader.disconnect().catch(() => undefined);
      await this.admin.deleteGroups([groupId]).catch(() => undefined);
    }
    const order = (a: (typeof found)[number], b: (typeof found)[number]) => {
      const x = BigInt(a.offset);
      const y = BigInt(b.offset);
      return a.topic.localeCompare(b.topic) || a.partition - b.partition || (x < y ? -1 : x > y ? 1 : 0);
    };
    return found.sort(order);
  }

  /** For /readyz: the broker describes its cluster and the registry lists its subjects. */
  async ready(): Promise<Readiness> {
    const check = (work: () => Promise<unknown>, what: string): Promise<Check> =>
      // Bounded well under a second: /readyz must answer (503) while a broker is paused, not hang with it.
      withTimeout(work(), this.options.readyTimeoutMs ?? 800, what).then(
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

  /**
   * Consumer groups of this process whose consumer died for good (kafkajs crashed it and will not
   * restart it: a non-retriable error; a crash it restarts emits STOP too, so STOP says nothing):
   * liveness, a restart's work.
   */
  deadConsumerGroups(): string[] {
    return [...this.deadConsumers].map(([group, error]) => `${group} (${error})`);
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
    const durability = this.options.durability ?? SINGLE_BROKER;
    const wanted = topics.map((t) => topicSettings(t, durability));
    const existing = new Set(await this.admin.listTopics());
    const toCreate = wanted.filter((t) => !existing.has(t.name));
    if (toCreate.length > 0) {
      // Resolves false (no throw) when another process created them meanwhile. Not `waitForLeaders`:
      // kafkajs then retries only LEADER_NOT_AVAILABLE, and a KRaft broker whose metadata cache lags
      // the controller answers UNKNOWN_TOPIC_OR_PARTITION for a moment, which it throws.
      await this.admin.createTopics({ waitForLeaders: false, topics: toCreate.map(creationOf) }).catch((error: unknown) => {
        throw new Error(
          `topics could not be created (${durability.replicationFactor} copies, min.insync.replicas ${durability.minInsyncReplicas}): ${creationErrors(error)}`,
          { cause: error },
        );
      });
      this.log?.info({ topics: toCreate.map((t) => `${t.name}(${t.partitions}x${t.replicationFactor})`) }, 'topics created');
    }
    await this.leadersElected(wanted.map((t) => t.name));
    await this.verifyTopics(wanted);
  }

  /**
   * Refuses topics that contradict what this deployment wants of them: another partition count (keys
   * would land elsewhere than the switch computes, replicas would idle or starve), fewer copies, another
   * `min.insync.replicas`, unclean leader election on. The topic was made by hand, by an older
   * deployment or by another setting; running on it would give up a guarantee silently.
   */
  private async verifyTopics(wanted: TopicSettings[], timeoutMs = 30_000): Promise<void> {
    const names = wanted.map((t) => t.name);
    const deadline = Date.now() + timeoutMs;
    // A broker whose metadata lags the controller may not describe a topic just created: asked again.
    for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
      let unknown: string[];
      try {
        const [{ topics: metadata }, { resources }] = await Promise.all([
          this.admin.fetchTopicMetadata({ topics: names }),
          this.admin.describeConfigs({
            includeSynonyms: false,
            resources: names.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: [...CHECKED_CONFIG] })),
          }),
        ]);
        unknown = [];
        const problems = wanted.flatMap((want) => {
          const meta = metadata.find((t) => t.name === want.name);
          const described = resources.find((r) => r.resourceName === want.name);
          if (!meta || meta.partitions.length === 0 || !described || described.errorCode !== 0) {
            unknown.push(`${want.name} (${described?.errorMessage || 'no metadata'})`);
            return [];
          }
          const config = Object.fromEntries(described.configEntries.map((e) => [e.configName, e.configValue]));
          const replicationFactor = Math.min(...meta.partitions.map((p) => p.replicas.length));
          return contradictions(want, { name: want.name, partitions: meta.partitions.length, replicationFactor, config });
        });
        if (problems.length > 0) throw new TopicContradiction(problems);
        if (unknown.length === 0) return;
      } catch (error) {
        if (error instanceof TopicContradiction) throw error;
        unknown = [errorText(error)];
      }
      if (Date.now() + pause > deadline) throw new Error(`topics could not be described within ${timeoutMs} ms: ${unknown.join(', ')}`);
      await sleep(pause);
    }
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
    const timeoutMs = this.options.joinTimeoutMs ?? CONSUMER_JOIN_TIMEOUT_MS;
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

  /**
   * One message, in partition order. Dead-lettered only when it can never succeed: undecodable bytes, a
   * payload the topic's schema refuses, a handler throwing PoisonMessage (or the opt-in `maxAttempts`
   * spent). Anything else (store, registry, broker unreachable) is retried with capped backoff while
   * the partition waits, heartbeating all along so the member keeps its partitions. Throws only when
   * the subscription is closing, so the offset is not committed.
   */
  private async deliver(
    topic: Topic,
    options: SubscribeOptions,
    handler: (m: Delivered<unknown>) => Promise<void>,
    pauses: Pauses,
    { partition, message, heartbeat }: EachMessagePayload,
    epoch: () => number,
  ): Promise<void> {
    // Skipped before anything else: a message for another subscription is not decoded, only committed.
    if (options.only && !headerAccepted(options.only, textHeader(message.headers, options.only.header))) return;
    const key = message.key?.toString() ?? '';
    const headers = textHeaders(message.headers);
    const at = { topic: topic.name, group: options.group, key, partition, offset: message.offset, headers: message.headers };
    const where = { topic: topic.name, group: options.group, partition, offset: message.offset };
    const maxAttempts = options.maxAttempts === undefined ? undefined : Math.max(1, options.maxAttempts);
    // A bank call can take 30 s and more: without heartbeats the broker would hand the partition to
    // another member after sessionTimeoutMs and the message would run twice.
    const beat = setInterval(() => {
      heartbeat().catch((error: unknown) => this.log?.debug({ ...where, error: errorText(error) }, 'heartbeat refused (rebalancing)'));
    }, this.heartbeatMs);
    let handlerAttempts = 0;
    let verdict: Parameters<KafkaBus['deadLetter']>[1] | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          verdict ??= await this.attempt(topic, handler, message, { key, headers, epoch: epoch() }, () => ++handlerAttempts, maxAttempts);
          if (verdict) await this.deadLetter(at, verdict);
          return;
        } catch (error) {
          if (pauses.stopped) throw new Error(`${topic.name}[${partition}]@${message.offset}: subscription closing, left uncommitted`);
          metrics.handlerRetries.inc({ group: options.group, topic: topic.name });
          this.log?.warn({ ...where, attempt, error: errorText(error) }, 'handler failed; retrying the message, its partition waits');
          await pauses.sleep(backoffMs(attempt, this.options));
          if (pauses.stopped) throw new Error(`${topic.name}[${partition}]@${message.offset}: subscription closing, left uncommitted`);
        }
      }
    } finally {
      clearInterval(beat);
    }
  }

  /** One attempt: nothing when handled, what to dead-letter when it can never succeed; throws to be retried. */
  private async attempt(
    topic: Topic,
    handler: (m: Delivered<unknown>) => Promise<void>,
    message: EachMessagePayload['message'],
    { key, headers, epoch }: { key: string; headers: Record<string, string>; epoch: number },
    countAttempt: () => number,
    maxAttempts: number | undefined,
  ): Promise<{ value: unknown; raw: string | null; reason: string; attempts: number } | undefined> {
    // A registry that cannot be reached throws here: retried like any outage.
    const decoded = await this.codec.decode(message.value);
    if (!decoded.ok) return { value: null, raw: message.value?.toString('base64') ?? '', reason: decoded.reason, attempts: 0 };
    try {
      // The writer's schema accepted it; the reader's (this topic's) must too, or the handler gets a shape it does not expect.
      assertPayload(topic, decoded.value);
    } catch (error) {
      if (error instanceof SchemaViolation) return { value: decoded.value, raw: null, reason: error.message, attempts: 0 };
      throw error;
    }
    const attempts = countAttempt();
    try {
      await handler({ key, value: decoded.value, headers, epoch });
      return undefined;
    } catch (error) {
      // The handler had the decoded value and may have changed it: the dead letter keeps the value as published.
      const published = () =>
        this.codec.decode(message.value).then(
          (again) => (again.ok ? again.value : decoded.value),
          () => decoded.value,
        );
      if (error instanceof PoisonMessage) return { value: await published(), raw: null, reason: error.message, attempts };
      if (maxAttempts !== undefined && attempts >= maxAttempts)
        return { value: await published(), raw: null, reason: errorText(error), attempts };
      throw error;
    }
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
    // Through the one queue: every produce request of this bus waits for the previous (./renewing-producer.ts).
    await this.outgoing.send(dlq.name, { key: at.key, value: bytes, headers: at.headers ?? {} });
    const { headers: _headers, ...where } = at; // no payloads or headers in logs
    metrics.deadLettered.inc({ group: at.group, topic: at.topic });
    this.log?.warn({ ...where, reason: what.reason }, 'message dead-lettered');
  }
}

/** kafkajs' "Topic creation errors" with what the broker said about each topic (e.g. more copies than brokers). */
function creationErrors(error: unknown): string {
  const each = (error as { errors?: { topic?: string; message?: string }[] } | null)?.errors;
  if (!each?.length) return errorText(error);
  const byMessage = new Map<string, string[]>();
  for (const e of each) byMessage.set(e.message ?? 'unknown', [...(byMessage.get(e.message ?? 'unknown') ?? []), e.topic ?? '?']);
  return [...byMessage]
    .map(([message, topics]) => `${message} (${topics.length === 1 ? topics[0] : `${topics.length} topics, ${topics[0]}…`})`)
    .join('; ');
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
