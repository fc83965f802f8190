import { Partitioners, type ITopicConfig, type ProducerConfig } from 'kafkajs';
import { RETENTION, topicKindOf } from '@switch/core/contracts/topic-kinds';
import { deadLetterTopicName, type Topic } from '@switch/core/contracts/topics';

/**
 * How many copies of every message the cluster keeps: the deployment's choice (the typed infra
 * config, `SWITCH_KAFKA_REPLICATION_FACTOR` and `SWITCH_KAFKA_MIN_INSYNC_REPLICAS`, production 3 and 2).
 * With acks -1 a publish resolves only once `minInsyncReplicas` copies hold it, and unclean leader
 * election is off, so an acknowledged message survives the loss of any `minInsyncReplicas - 1` brokers
 * (docs/decisions/0170-topic-durability-in-code.md).
 */
export interface TopicDurability {
  replicationFactor: number;
  minInsyncReplicas: number;
}

/** One broker (local runs, the shared test broker): one copy, nothing else possible. */
export const SINGLE_BROKER: TopicDurability = { replicationFactor: 1, minInsyncReplicas: 1 };

/** Everything the cluster is told about one topic when it is created, and checked against when it exists. */
export interface TopicSettings {
  name: string;
  partitions: number;
  replicationFactor: number;
  /** Kafka topic configuration, by its own names. */
  config: Readonly<Record<string, string>>;
}

/** Dead letters are rare and read whole; one partition keeps them in the order they failed. */
export const DEAD_LETTER_PARTITIONS = 1;

/** The settings of one topic as this deployment wants it: partitions from the topic, copies from the deployment, retention from its kind. */
export function topicSettings(
  topic: Pick<Topic, 'name' | 'partitions' | 'kind' | 'addressed' | 'perOperation'>,
  durability: TopicDurability,
): TopicSettings {
  const retention = RETENTION[topicKindOf(topic)];
  return {
    name: topic.name,
    partitions: topic.partitions,
    replicationFactor: durability.replicationFactor,
    config: {
      'min.insync.replicas': String(durability.minInsyncReplicas),
      // Off is the broker's default; stated so no broker setting can turn an acknowledged message into a lost one.
      'unclean.leader.election.enable': 'false',
      'cleanup.policy': retention.cleanupPolicy,
      'retention.ms': String(retention.retentionMs),
      'segment.ms': String(retention.segmentMs),
    },
  };
}

/**
 * Every topic a deployment needs, as the Kafka adapter creates them: each topic (named and partitioned
 * as on the cluster), its `<topic>.dlq` and the `<topic>.dlq.redriven` marks (made at the first redrive).
 * What a manifest that creates the topics beforehand (Strimzi `KafkaTopic`) is generated from.
 */
export function deploymentTopics(
  topics: readonly Topic[],
  deployment: { namespace?: string; partitions?: number; durability: TopicDurability },
): TopicSettings[] {
  const name = (n: string) => (deployment.namespace ? `${deployment.namespace}.${n}` : n);
  return topics.flatMap((t) => {
    const onCluster = {
      ...t,
      name: name(t.name),
      partitions: t.perOperation && deployment.partitions ? deployment.partitions : t.partitions,
    };
    const dlq = deadLetterTopicName(onCluster.name);
    return [
      topicSettings(onCluster, deployment.durability),
      topicSettings({ name: dlq, partitions: DEAD_LETTER_PARTITIONS, kind: 'dead-letter' }, deployment.durability),
      topicSettings({ name: `${dlq}.redriven`, partitions: DEAD_LETTER_PARTITIONS, kind: 'dead-letter' }, deployment.durability),
    ];
  });
}

/** The createTopics request for these settings. */
export function creationOf(settings: TopicSettings): ITopicConfig {
  return {
    topic: settings.name,
    numPartitions: settings.partitions,
    replicationFactor: settings.replicationFactor,
    configEntries: Object.entries(settings.config).map(([name, value]) => ({ name, value })),
  };
}

/** A topic as the brokers describe it (metadata and configuration). */
export interface TopicOnCluster {
  name: string;
  partitions: number;
  /** The fewest replicas of any of its partitions. */
  replicationFactor: number;
  /** Effective values (the topic's own or inherited from the broker), by Kafka's names. */
  config: Readonly<Record<string, string | undefined>>;
}

/** The configuration names a topic on the cluster must agree on; retention may be tuned by operators. */
export const CHECKED_CONFIG = ['min.insync.replicas', 'unclean.leader.election.enable'] as const;

/** What an existing topic contradicts, each naming the topic, the setting, the value found and the one wanted. */
export function contradictions(wanted: TopicSettings, found: TopicOnCluster): string[] {
  const out: string[] = [];
  const differ = (setting: string, on: string | number | undefined, want: string | number) => {
    if (String(on) !== String(want))
      out.push(`topic ${wanted.name}: ${setting} is ${on ?? 'unknown'} on the cluster, the switch wants ${want}`);
  };
  differ('partitions', found.partitions, wanted.partitions);
  differ('replication factor', found.replicationFactor, wanted.replicationFactor);
  for (const name of CHECKED_CONFIG) differ(name, found.config[name], wanted.config[name] ?? '');
  return out;
}

/** Thrown at start when existing topics contradict the contract or the deployment's settings: the service must not run on them. */
export class TopicContradiction extends Error {
  constructor(readonly problems: readonly string[]) {
    super(
      `existing topics contradict the switch's topic settings (fix the topic or the setting; docs/operations.md, "Kafka on Strimzi"): ${problems.join('; ')}`,
    );
    this.name = 'TopicContradiction';
  }
}

/**
 * The producer every bus uses. Idempotent: a produce request retried by the client after a lost
 * answer (a leader moved, a connection dropped) is written once, not twice, and in order (the broker
 * drops a repeated sequence number). kafkajs requires one request in flight per broker for that. Its
 * retries stay bounded (the client's 5), so a publish fails cleanly while no quorum can take it and
 * its caller retries; kafkajs logs once that bounded retries may weaken exactly-once, which the switch
 * does not rely on (receivers dedupe by id and version).
 */
export const PRODUCER_CONFIG = {
  idempotent: true,
  maxInFlightRequests: 1,
  allowAutoTopicCreation: false,
  // The explicit DefaultPartitioner (murmur2, like the Java client) also silences kafkajs' v2 warning.
  createPartitioner: Partitioners.DefaultPartitioner,
} as const satisfies ProducerConfig;

/** Every produce request waits for all in-sync replicas (at least `min.insync.replicas`). */
export const PRODUCE_ACKS = -1;
