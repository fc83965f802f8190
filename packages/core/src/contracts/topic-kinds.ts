/**
 * What a topic holds decides how long the cluster keeps it. These classes are part of the topic
 * contract (every deployment keeps messages the same way); how many copies the cluster keeps
 * (replication factor, `min.insync.replicas`) depends on the cluster and is the deployment's setting
 * (the Kafka adapter's `topic-settings.ts`, docs/decisions/0170-topic-durability-in-code.md).
 */
export type TopicKind =
  /** One message per operation: the router's inbox, transaction events, each bank's orders. */
  | 'work'
  /** Answers and read replies to one asking instance: read within seconds or never. */
  | 'reply'
  /** A notice that a cached fact changed (merchant keys, webhooks): read by listeners from the latest offset. */
  | 'notice'
  /** The latest state per key, published again and again (bank health): only the newest per key matters. */
  | 'state'
  /** Messages that could not be handled, and the marks of their redrive: kept until an operator acts. */
  | 'dead-letter';

export interface TopicRetention {
  /** Kafka `cleanup.policy`. */
  readonly cleanupPolicy: 'delete' | 'compact,delete';
  /** Kafka `retention.ms`; -1 keeps messages until deleted by hand. */
  readonly retentionMs: number;
  /**
   * Kafka `segment.ms`: expiry and compaction act on closed segments only, so a segment (the broker's
   * default: 7 days) must close well within the retention for the retention to mean anything.
   */
  readonly segmentMs: number;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Retention per kind. Work topics keep a week: a redelivery, a consumer group reset or a replay after an
 * incident reads back days, never weeks (the store keeps the history). Dead letters never expire: each is
 * an operation that waits for a person, and a broker default (7 days) would erase it unseen. A state
 * topic is compacted (the newest per key) and still expires, so keys of replicas long gone drop out.
 */
export const RETENTION: Readonly<Record<TopicKind, TopicRetention>> = {
  work: { cleanupPolicy: 'delete', retentionMs: 7 * DAY_MS, segmentMs: DAY_MS },
  reply: { cleanupPolicy: 'delete', retentionMs: DAY_MS, segmentMs: HOUR_MS },
  notice: { cleanupPolicy: 'delete', retentionMs: 7 * DAY_MS, segmentMs: DAY_MS },
  state: { cleanupPolicy: 'compact,delete', retentionMs: DAY_MS, segmentMs: HOUR_MS },
  'dead-letter': { cleanupPolicy: 'delete', retentionMs: -1, segmentMs: 7 * DAY_MS },
};

/** A topic's kind: stated by the topic, else a per-operation topic is work, an addressed one a reply. */
export function topicKindOf(topic: {
  readonly kind?: TopicKind;
  readonly perOperation?: boolean;
  readonly addressed?: boolean;
}): TopicKind {
  if (topic.kind) return topic.kind;
  if (topic.addressed) return 'reply';
  return 'work';
}
