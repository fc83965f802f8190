import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import type { Bus, DeadLetter, Delivered, SubscribeOptions, Subscription } from '../../ports/bus';
import { deadLetterTopicName, type Payload, type Topic } from '../../contracts/topics';
import { assertPayload } from '../schema-check';
import { partitionOf } from '../partition';

type Handler = (message: Delivered<unknown>) => Promise<void>;

/** One serial queue: a partition of one group, so one key is handled one message at a time, in order. */
class PartitionQueue {
  private readonly items: Delivered<unknown>[] = [];
  private running = false;
  constructor(
    private readonly handler: Handler,
    private readonly maxAttempts: number,
    private readonly onDead: (message: Delivered<unknown>, reason: string) => void,
  ) {}

  push(message: Delivered<unknown>): void {
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
    while (this.items.length > 0) {
      const message = this.items.shift()!;
      let lastError = '';
      let done = false;
      for (let attempt = 1; attempt <= this.maxAttempts && !done; attempt++) {
        try {
          // Each message runs in the trace its publisher was in (its headers), not in whichever context started the drain.
          const parent = propagation.extract(ROOT_CONTEXT, message.headers);
          await context.with(parent, () => this.handler(structuredClone(message)));
          done = true;
        } catch (error) {
          lastError = error instanceof Error ? error.message : String(error);
        }
      }
      if (!done) this.onDead(message, lastError);
    }
    this.running = false;
  }
}

interface Group {
  members: Handler[];
  queues: PartitionQueue[];
}

/** In-process bus for the embedded default and fast tests; keeps the same guarantees as Kafka. */
export class MemoryBus implements Bus {
  private readonly groups = new Map<string, Map<string, Group>>();
  private readonly dead = new Map<string, DeadLetter[]>();
  private closed = false;

  async publish<T extends Topic>(topic: T, key: string, value: Payload<T>, headers: Record<string, string> = {}): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    assertPayload(topic, value);
    const message: Delivered<unknown> = { key, value: structuredClone(value), headers: { ...headers } };
    // The publisher's trace context (W3C traceparent), as the Kafka adapter carries it; nothing when tracing is off.
    propagation.inject(context.active(), message.headers);
    for (const group of this.groups.get(topic.name)?.values() ?? []) {
      group.queues[partitionOf(key, topic.partitions)]!.push(message);
    }
  }

  async subscribe<T extends Topic>(
    topic: T,
    options: SubscribeOptions,
    handler: (message: Delivered<Payload<T>>) => Promise<void>,
  ): Promise<Subscription> {
    const byGroup = this.groups.get(topic.name) ?? new Map<string, Group>();
    this.groups.set(topic.name, byGroup);
    let group = byGroup.get(options.group);
    const member = handler as Handler;
    if (!group) {
      const g: Group = { members: [], queues: [] };
      // Each partition is bound to one member, chosen when the message is handled, like a group rebalance.
      g.queues = Array.from({ length: topic.partitions }, (_, p) =>
        new PartitionQueue(
          (m) => g.members[p % g.members.length]!(m),
          options.maxAttempts ?? 5,
          (m, reason) => this.deadLetter(topic.name, m, reason),
        ),
      );
      group = g;
      byGroup.set(options.group, g);
    }
    group.members.push(member);
    const g = group;
    return {
      close: async () => {
        g.members.splice(g.members.indexOf(member), 1);
        if (g.members.length === 0) byGroup.delete(options.group);
      },
    };
  }

  async deadLetters(topicName: string): Promise<DeadLetter[]> {
    return structuredClone(this.dead.get(deadLetterTopicName(topicName)) ?? []);
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

  async close(): Promise<void> {
    await this.drained();
    this.closed = true;
    this.groups.clear();
  }

  private deadLetter(topicName: string, message: Delivered<unknown>, reason: string): void {
    const name = deadLetterTopicName(topicName);
    const list = this.dead.get(name) ?? [];
    list.push({ topic: topicName, key: message.key, value: message.value, reason, at: new Date().toISOString() });
    this.dead.set(name, list);
  }
}
