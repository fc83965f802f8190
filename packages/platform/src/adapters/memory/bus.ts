import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import {
  assertAddressable,
  backoffMs,
  headerAccepted,
  type Bus,
  type DeadLetter,
  type Delivered,
  type HeaderFilter,
  type RedriveReport,
  type RetryBackoff,
  type SubscribeOptions,
  type Subscription,
} from '../../ports/bus';
import { PoisonMessage } from '@switch/core/contracts/errors';
import { deadLetterTopicName, type Payload, type Topic } from '@switch/core/contracts/topics';
import type { Logger } from '../../telemetry/logger';
import { metrics } from '../../telemetry/metrics';
import { assertPayload } from '../schema-check';
import { clonePlain } from './clone';
import { partitionOf } from '../partition';
import { Pauses } from '../pauses';

type Handler = (message: Delivered<unknown>) => Promise<void>;

export interface MemoryBusOptions extends RetryBackoff {
  logger?: Logger;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** One serial queue: a partition of one group, so one key is handled one message at a time, in order. */
class PartitionQueue {
  private readonly items: Delivered<unknown>[] = [];
  private running = false;
  private halted = false;
  constructor(
    private readonly handler: Handler,
    private readonly policy: { maxAttempts: number | undefined; backoff: RetryBackoff; pauses: Pauses },
    private readonly onRetry: (reason: string, attempt: number) => void,
    private readonly onDead: (message: Delivered<unknown>, reason: string) => void,
  ) {}

  push(message: Delivered<unknown>): void {
    if (this.halted) return;
    this.items.push(message);
    if (!this.running) void this.drain();
  }

  isIdle(): boolean {
    return !this.running && this.items.length === 0;
  }

  /** Resolves when the queue is empty and idle. */
  idle(): Promise<void> {
    return this.running || this.items.length > 0 ? new Promise((r) => setImmediate(() => r(this.idle()))) : Promise.resolve();
  }

  private async drain(): Promise<void> {
    this.running = true;
    // Yield first so that publish() returns before the handler runs, as with a real broker.
    await new Promise((r) => setImmediate(r));
    while (this.items.length > 0 && !this.halted) {
      if (!(await this.deliver(this.items[0]!))) this.halted = true;
      this.items.shift();
    }
    // Halted (a retry given up because the group's last member left or the bus is closing): the partition
    // stops here, as a Kafka partition stops at its uncommitted message; nothing behind it overtakes it.
    if (this.halted) this.items.length = 0;
    this.running = false;
  }

  /**
   * Until the handler succeeds, the message is poison or the opt-in attempts are spent (true: the
   * partition moves on), or retrying is stopped (false).
   */
  private async deliver(message: Delivered<unknown>): Promise<boolean> {
    const { maxAttempts, backoff, pauses } = this.policy;
    for (let attempt = 1; ; attempt++) {
      try {
        // Each message runs in the trace its publisher was in (its headers), not in whichever context started the drain.
        const parent = propagation.extract(ROOT_CONTEXT, message.headers);
        await context.with(parent, () => this.handler(clonePlain(message)));
        return true;
      } catch (error) {
        if (error instanceof PoisonMessage) {
          this.onDead(message, error.message);
          return true;
        }
        if (maxAttempts !== undefined && attempt >= maxAttempts) {
          this.onDead(message, errorText(error));
          return true;
        }
        if (pauses.stopped) return false;
        this.onRetry(errorText(error), attempt);
        await pauses.sleep(backoffMs(attempt, backoff));
        if (pauses.stopped) return false;
      }
    }
  }
}

/** Epochs are unique in the process, so two members never share one (Delivered.epoch). */
let epochs = 0;
const nextEpoch = () => ++epochs;

interface Group {
  /** The one key this group takes (`SubscribeOptions.key`), or every key. */
  key: string | undefined;
  /** `SubscribeOptions.only`: the messages this group takes by header. */
  only: HeaderFilter | undefined;
  members: Handler[];
  queues: PartitionQueue[];
  pauses: Pauses;
  /** Bumped at every membership change (Delivered.epoch). */
  epoch: number;
}

interface Entry extends DeadLetter {
  headers: Record<string, string>;
}

/** In-process bus for the embedded default and fast tests; keeps the same guarantees as Kafka. */
export class MemoryBus implements Bus {
  private readonly groups = new Map<string, Map<string, Group>>();
  private readonly dead = new Map<string, Entry[]>();
  private readonly log: Logger | undefined;
  private closed = false;

  constructor(private readonly options: MemoryBusOptions = {}) {
    this.log = options.logger?.child({ component: 'memory-bus' });
  }

  async publish<T extends Topic>(topic: T, key: string, value: Payload<T>, headers: Record<string, string> = {}): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    assertPayload(topic, value);
    const message: Delivered<unknown> = { key, value: clonePlain(value), headers: { ...topic.headersOf?.(value), ...headers } };
    // The publisher's trace context (W3C traceparent), as the Kafka adapter carries it; nothing when tracing is off.
    propagation.inject(context.active(), message.headers);
    const groups = this.groups.get(topic.name);
    if (!groups) return;
    const partition = partitionOf(key, topic.partitions);
    for (const group of groups.values()) {
      if (group.key !== undefined && group.key !== key) continue;
      if (group.only && !headerAccepted(group.only, message.headers[group.only.header])) continue;
      group.queues[partition]!.push(message);
    }
  }

  async subscribe<T extends Topic>(
    topic: T,
    options: SubscribeOptions,
    handler: (message: Delivered<Payload<T>>) => Promise<void>,
  ): Promise<Subscription> {
    if (this.closed) throw new Error('bus closed');
    assertAddressable(topic, options);
    const byGroup = this.groups.get(topic.name) ?? new Map<string, Group>();
    this.groups.set(topic.name, byGroup);
    let group = byGroup.get(options.group);
    const member = handler as Handler;
    if (!group) {
      const g: Group = { key: options.key, only: options.only, members: [], queues: [], pauses: new Pauses(), epoch: nextEpoch() };
      const where = { group: options.group, topic: topic.name };
      const policy = {
        maxAttempts: options.maxAttempts === undefined ? undefined : Math.max(1, options.maxAttempts),
        backoff: this.options,
        pauses: g.pauses,
      };
      // Each partition is bound to one member, chosen when the message is handled, like a group rebalance.
      g.queues = Array.from(
        { length: topic.partitions },
        (_, p) =>
          new PartitionQueue(
            (m) => {
              const member = g.members[p % g.members.length];
              if (!member) throw new Error('no member left in the group');
              return member({ epoch: g.epoch, key: m.key, value: m.value, headers: m.headers });
            },
            policy,
            (reason, attempt) => {
              metrics.handlerRetries.inc(where);
              this.log?.warn(
                { ...where, partition: p, attempt, error: reason },
                'handler failed; retrying the message, its partition waits',
              );
            },
            (m, reason) => {
              metrics.deadLettered.inc(where);
              this.log?.warn({ ...where, partition: p, key: m.key, reason }, 'message dead-lettered');
              this.deadLetter(topic.name, m, reason);
            },
          ),
      );
      group = g;
      byGroup.set(options.group, g);
    }
    group.members.push(member);
    group.epoch = nextEpoch(); // partitions are bound to members by position: a member joining moves them
    const g = group;
    return {
      close: async () => {
        const at = g.members.indexOf(member);
        if (at < 0) return;
        g.members.splice(at, 1);
        g.epoch = nextEpoch();
        if (g.members.length === 0) {
          // No member left to retry with: stop the group's queues rather than spin on a missing handler.
          g.pauses.stop();
          if (byGroup.get(options.group) === g) byGroup.delete(options.group);
        }
      },
    };
  }

  async deadLetters(topicName: string): Promise<DeadLetter[]> {
    return (this.dead.get(deadLetterTopicName(topicName)) ?? []).map(({ headers: _h, ...letter }) => structuredClone(letter));
  }

  async redriveDeadLetters(topic: Topic, ids?: string[]): Promise<RedriveReport> {
    const entries = this.dead.get(deadLetterTopicName(topic.name)) ?? [];
    const report: RedriveReport = { redriven: [], refused: [] };
    const chosen = ids ?? entries.filter((e) => !e.redriven).map((e) => e.id);
    for (const id of new Set(chosen)) {
      const entry = entries.find((e) => e.id === id);
      if (!entry) report.refused.push({ id, reason: 'no such dead letter' });
      else if (entry.redriven) report.refused.push({ id, reason: 'already redriven' });
      else {
        try {
          await this.publish(topic, entry.key, entry.value as Payload<Topic>, entry.headers);
        } catch (error) {
          report.refused.push({ id, reason: errorText(error) });
          continue;
        }
        entry.redriven = true;
        report.redriven.push(id);
      }
    }
    return report;
  }

  /** Resolves once every queued message has been handled (tests and graceful shutdown). */
  async drained(): Promise<void> {
    // Handlers publish further messages, so repeat until one whole pass finds every queue idle.
    for (;;) {
      const queues = [...this.groups.values()].flatMap((byGroup) => [...byGroup.values()].flatMap((g) => g.queues));
      if (queues.every((q) => q.isIdle())) return;
      await Promise.all(queues.map((q) => q.idle()));
    }
  }

  /** Lets handlers in hand finish; a message being retried is given up (it stops waiting, as on a real shutdown). */
  async close(): Promise<void> {
    if (this.closed) return;
    // Retries end; messages in hand and those their handlers publish are still delivered (once each).
    for (const byGroup of this.groups.values()) for (const g of byGroup.values()) g.pauses.stop();
    await this.drained();
    this.closed = true;
    this.groups.clear();
  }

  private deadLetter(topicName: string, message: Delivered<unknown>, reason: string): void {
    const name = deadLetterTopicName(topicName);
    const list = this.dead.get(name) ?? [];
    // Partition 0 like a Kafka dead-letter topic (one partition); the offset is the entry's position.
    const { traceparent: _t, tracestate: _s, ...headers } = message.headers;
    list.push({
      id: `0:${list.length}`,
      topic: topicName,
      key: message.key,
      value: message.value,
      headers,
      reason,
      at: new Date().toISOString(),
      redriven: false,
    });
    this.dead.set(name, list);
  }
}
