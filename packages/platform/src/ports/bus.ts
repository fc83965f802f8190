import type { Payload, Topic } from '@switch/core/contracts/topics';

export interface Delivered<T> {
  key: string;
  value: T;
  headers: Record<string, string>;
  /**
   * The subscriber's assignment epoch: it changes whenever the partitions this subscriber holds may have
   * changed hands (a rebalance, a member joining or leaving the group). Two messages delivered with the
   * same epoch were handled while this subscriber held their partition throughout, so no other member
   * handled a message of that key in between. Absent: no such promise.
   */
  epoch?: number;
}

export interface SubscribeOptions {
  /** Consumers in one group share the work; each group sees every message. */
  group: string;
  /**
   * Opt-in for best-effort broadcast listeners only (a gateway's reply stream): after this many failed
   * attempts the message is dead-lettered and the partition moves on. Unset (the default), a failing
   * handler is retried until it succeeds: a store or broker outage must delay work, never strand it.
   */
  maxAttempts?: number;
  /** Only messages published after subscribing (broadcast listeners such as a gateway's reply stream). */
  latestOnly?: boolean;
  /**
   * Only the messages of this key, on a topic addressed by key (`Topic.addressed`; refused on any
   * other): the subscription reads the one partition the key lands on, not the whole topic, and
   * skips the other keys sharing that partition. How one instance reads only the replies addressed
   * to it (its instance id is the key), under a group of its own.
   */
  key?: string;
  /**
   * Only the messages whose header `header` is one of `values`, and those without that header: the
   * filter saves decoding and never drops a message it cannot place. The others are skipped, as
   * handled, before their payload is decoded: how a bank's live connector passes over the test-mode
   * orders its topic also carries.
   */
  only?: HeaderFilter;
}

export interface HeaderFilter {
  header: string;
  values: readonly string[];
}

/**
 * Whether a subscription's `only` lets a message with this header value through (both adapters). A
 * message without the header is not let through: every topic filtered by a header carries it on
 * every message (`Topic.headersOf`).
 */
export function headerAccepted(only: HeaderFilter, value: string | undefined): boolean {
  return value !== undefined && only.values.includes(value);
}

export interface DeadLetter {
  /** Stable within the topic's dead letters (Kafka: `<partition>:<offset>` of the dead-letter topic). */
  id: string;
  topic: string;
  key: string;
  value: unknown;
  reason: string;
  at: string;
  /** Re-published to its topic by `redriveDeadLetters`; a redriven entry is never redriven again. */
  redriven: boolean;
}

/** What a redrive did, entry by entry. */
export interface RedriveReport {
  /** Ids re-published to the original topic (same key, same headers). */
  redriven: string[];
  /** Ids left where they are, with why: payload refused by the topic's schema, undecodable, already redriven, unknown id. */
  refused: { id: string; reason: string }[];
}

export interface Subscription {
  close(): Promise<void>;
}

/**
 * The message bus. Guarantees every adapter keeps (packages/platform/test/bus-contract.ts):
 * - a payload that violates the topic schema is refused at publish (SchemaViolation);
 * - messages of one key reach one group's handler one at a time, in publish order;
 * - at-least-once, and nothing strands: a handler that throws gets the same message again, with capped
 *   exponential backoff, while its partition waits (order per key is kept), until it succeeds;
 * - only a message that can never succeed is dead-lettered (`<topic>.dlq`, with the reason) so the
 *   partition moves on: bytes that cannot be decoded, a payload the topic's schema refuses, or a handler
 *   that throws PoisonMessage. A subscription with `maxAttempts` (best-effort listeners) also
 *   dead-letters after that many attempts;
 * - dead letters are listed with a stable id and redriven at most once each (`redriveDeadLetters`);
 * - every group receives every message;
 * - on an addressed topic, a subscription with `key` receives that key's messages and no other;
 * - a subscription with `only` receives the messages its header filter lets through, in order, and no other.
 */
export interface Bus {
  publish<T extends Topic>(topic: T, key: string, value: Payload<T>, headers?: Record<string, string>): Promise<void>;
  subscribe<T extends Topic>(
    topic: T,
    options: SubscribeOptions,
    handler: (message: Delivered<Payload<T>>) => Promise<void>,
  ): Promise<Subscription>;
  /** Dead letters recorded for a topic, oldest first (for operators and tests). */
  deadLetters(topicName: string): Promise<DeadLetter[]>;
  /**
   * Re-publishes dead letters of `topic` (all not yet redriven, or only `ids`) to the topic itself, with
   * their key and headers, and marks them redriven. An entry whose payload the topic's schema refuses
   * (or that could not be decoded) is refused and left as it is. The topic, not only its name, because
   * a redriven payload is checked against the topic's schema like any publish.
   */
  redriveDeadLetters(topic: Topic, ids?: string[]): Promise<RedriveReport>;
  close(): Promise<void>;
}

/** A subscription's `key` is only served on an addressed topic: elsewhere a key is spread by the broker's own hash. */
export function assertAddressable(topic: Topic, options: SubscribeOptions): void {
  if (options.key !== undefined && !topic.addressed) throw new Error(`${topic.name} is not addressed by key: cannot subscribe to one key`);
}

/** Capped exponential backoff between attempts of a failing handler (both adapters). */
export interface RetryBackoff {
  /** First pause. Default 100 ms. */
  retryBackoffMs?: number;
  /** Longest pause. Default 5 s. */
  retryBackoffMaxMs?: number;
}

/** The pause before attempt `attempt + 1` (attempt counts from 1). */
export function backoffMs(attempt: number, options: RetryBackoff = {}): number {
  const first = Math.max(1, options.retryBackoffMs ?? 100);
  const cap = Math.max(first, options.retryBackoffMaxMs ?? 5_000);
  return Math.min(cap, first * 2 ** Math.min(attempt - 1, 30));
}
