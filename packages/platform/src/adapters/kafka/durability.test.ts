import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { ConfigResourceTypes, Kafka, logLevel, type Admin } from 'kafkajs';
import { switchTopics, TOPICS, type Topic } from '@switch/core/contracts/topics';
import { KafkaBus } from './bus';
import { TopicContradiction } from './topic-settings';
import { connectAdapters } from '../../runtime/service';
import { secretBox } from '../../config/infra';
import { createLogger } from '../../telemetry/logger';

/**
 * Topic settings on the real broker (infra/up.sh: one broker, so one copy). Fails without it: settings
 * never applied to a broker must not look green.
 */
const brokers =
  process.env.KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean) ?? [];
const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? '';
const ONE = { replicationFactor: 1, minInsyncReplicas: 1 };

let admin: Admin;
const made = new Set<string>();
const open: KafkaBus[] = [];
beforeAll(async () => {
  if (brokers.length === 0 || !registryUrl)
    throw new Error('KAFKA_BROKERS and SCHEMA_REGISTRY_URL are not set: run `npm run infra:up`, then `source .cache/infra.env`');
  admin = new Kafka({ clientId: 'durability-test', brokers, logLevel: logLevel.WARN }).admin();
  await admin.connect();
});
afterAll(async () => {
  await Promise.allSettled(open.map((b) => b.close()));
  if (admin) {
    const existing = new Set(await admin.listTopics());
    await admin.deleteTopics({ topics: [...made].filter((t) => existing.has(t)) }).catch(() => undefined);
    await admin.disconnect();
  }
});

const Ping = Type.Object({ n: Type.Integer() });
const fresh = (over: Partial<Topic<typeof Ping>> = {}): Topic<typeof Ping> => {
  const name = `durability.${randomUUID().slice(0, 8)}.v1`;
  made.add(name).add(`${name}.dlq`).add(`${name}.dlq.redriven`);
  return { name, schema: Ping, partitions: 2, ...over };
};
const newBus = (options: Partial<ConstructorParameters<typeof KafkaBus>[0]> = {}) => {
  const b = new KafkaBus({
    brokers,
    schemaRegistryUrl: registryUrl,
    clientId: `durability-${randomUUID().slice(0, 6)}`,
    durability: ONE,
    ...options,
  });
  open.push(b);
  return b;
};
async function configOf(name: string): Promise<Record<string, string>> {
  const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name }] });
  return Object.fromEntries(resources[0]!.configEntries.map((e) => [e.configName, e.configValue]));
}
/** A topic made by someone else (by hand, an older deployment), with its dead-letter topic. */
async function madeByHand(name: string, numPartitions: number, configEntries: { name: string; value: string }[] = []) {
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      { topic: name, numPartitions, replicationFactor: 1, configEntries },
      { topic: `${name}.dlq`, numPartitions: 1, replicationFactor: 1 },
    ],
  });
}

describe('topics are created with the settings of the contract and the deployment', () => {
  it('copies, min.insync.replicas, unclean election off, and the retention of its kind; its dead letters never expire', async () => {
    const work = fresh({ perOperation: true });
    const state = fresh({ kind: 'state', partitions: 1 });
    await newBus({ partitions: 3 }).ensureTopics([work, state]);
    const { topics } = await admin.fetchTopicMetadata({ topics: [work.name, `${work.name}.dlq`] });
    expect(topics.map((t) => [t.name, t.partitions.length, t.partitions[0]!.replicas.length]).sort()).toEqual([
      [work.name, 3, 1],
      [`${work.name}.dlq`, 1, 1],
    ]);
    expect(await configOf(work.name)).toMatchObject({
      'min.insync.replicas': '1',
      'unclean.leader.election.enable': 'false',
      'cleanup.policy': 'delete',
      'retention.ms': String(7 * 24 * 3600 * 1000),
      'segment.ms': String(24 * 3600 * 1000),
    });
    expect(await configOf(`${work.name}.dlq`)).toMatchObject({ 'retention.ms': '-1', 'cleanup.policy': 'delete' });
    expect(await configOf(state.name)).toMatchObject({ 'cleanup.policy': 'compact,delete' });
  });
});

describe('a service refuses topics that contradict the settings, naming the topic and the setting', () => {
  it('another partition count', async () => {
    const topic = fresh({ partitions: 4 });
    await madeByHand(topic.name, 2);
    const refused = newBus().ensureTopics([topic]);
    await expect(refused).rejects.toBeInstanceOf(TopicContradiction);
    await expect(refused).rejects.toThrow(`topic ${topic.name}: partitions is 2 on the cluster, the switch wants 4`);
  });

  it('fewer copies than the deployment requires', async () => {
    const topic = fresh();
    await madeByHand(topic.name, 2);
    await expect(newBus({ durability: { replicationFactor: 3, minInsyncReplicas: 2 } }).ensureTopics([topic])).rejects.toThrow(
      `topic ${topic.name}: replication factor is 1 on the cluster, the switch wants 3`,
    );
  });

  it('another min.insync.replicas', async () => {
    const topic = fresh();
    await madeByHand(topic.name, 2, [{ name: 'min.insync.replicas', value: '2' }]);
    await expect(newBus().ensureTopics([topic])).rejects.toThrow(
      `topic ${topic.name}: min.insync.replicas is 2 on the cluster, the switch wants 1`,
    );
  });

  it('more copies than the cluster has brokers: the creation fails, saying so', async () => {
    const topic = fresh();
    await expect(newBus({ durability: { replicationFactor: 7, minInsyncReplicas: 2 } }).ensureTopics([topic])).rejects.toThrow(
      /topics could not be created \(7 copies, min.insync.replicas 2\): Replication-factor is invalid/,
    );
  });

  it('a topic that agrees is taken as it is', async () => {
    const topic = fresh();
    await madeByHand(topic.name, 2, [{ name: 'min.insync.replicas', value: '1' }]);
    await expect(newBus().ensureTopics([topic])).resolves.toBeUndefined();
  });

  it('a service whose SWITCH_KAFKA_PARTITIONS contradicts its existing topics does not start', async () => {
    const namespace = `durab${randomUUID().slice(0, 8)}`;
    const inbox = `${namespace}.${TOPICS.routerInbox.name}`;
    made.add(inbox).add(`${inbox}.dlq`);
    await madeByHand(inbox, 6);
    const bus = {
      kind: 'kafka' as const,
      brokers,
      schemaRegistryUrl: registryUrl,
      sessionTimeoutMs: 6_000,
      namespace,
      partitions: 12,
      durability: ONE,
    };
    const log = createLogger('durability-test', 'silent');
    // Every topic of the switch is created or checked before a service takes work.
    for (const t of switchTopics()) made.add(`${namespace}.${t.name}`).add(`${namespace}.${t.name}.dlq`);
    const starting = connectAdapters({ bus, store: { kind: 'memory' }, secrets: secretBox({}, false) }, 'router', log);
    await expect(starting).rejects.toThrow(`topic ${inbox}: partitions is 6 on the cluster, the switch wants 12`);
  });
});
