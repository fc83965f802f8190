import type { Payload, Topic } from '../contracts/topics';

export interface Delivered<T> {
  key: string;
  value: T;
  headers: Record<string, string>;
}

export interface SubscribeOptions {
  /** Consumers in one group share the work; each group sees every message. */
  group: string;
  /** Attempts of a failing handler before the message is dead-lettered. Default 5. */
  maxAttempts?: number;
  /** Only messages published after subscribing (broadcast listeners such as a gateway's reply stream). */
  latestOnly?: boolean;
}

export interface DeadLetter {
  topic: string;
  key: string;
  value: unknown;
  reason: string;
  at: string;
}

export interface Subscription {
  close(): Promise<void>;
}

/**
 * The message bus. Guarantees every adapter keeps (shared/test/bus-contract.ts):
 * - a payload that violates the topic schema is refused at publish (SchemaViolation);
 * - messages of one key reach one group's handler one at a time, in publish order;
 * - at-least-once: a handler that throws gets the message again, then it is dead-lettered with the
 *   reason and the next messages flow;
 * - every group receives every message.
 */
export interface Bus {
  publish<T extends Topic>(topic: T, key: string, value: Payload<T>, headers?: Record<string, string>): Promise<void>;
  subscribe<T extends Topic>(
    topic: T,
    options: SubscribeOptions,
    handler: (message: Delivered<Payload<T>>) => Promise<void>,
  ): Promise<Subscription>;
  /** Dead letters recorded for a topic (for operators and tests). */
  deadLetters(topicName: string): Promise<DeadLetter[]>;
  close(): Promise<void>;
}

export class SchemaViolation extends Error {
  constructor(
    readonly topic: string,
    readonly problems: string[],
  ) {
    super(`payload refused by the schema of ${topic}: ${problems.join('; ')}`);
  }
}
