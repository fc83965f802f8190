import type { Message, Producer } from 'kafkajs';
import { PRODUCE_ACKS } from './topic-settings';

interface Outgoing {
  topic: string;
  message: Message;
  done: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * Group commit for the producer: a publish made while a produce request is in flight waits for it and
 * leaves with every other publish made meanwhile, in one request (acks -1: the broker answers once every
 * in-sync replica has the messages). Under load a request carries many messages, which is what the
 * broker's CPU goes by. Alone a publish leaves at the end of the event loop's current turn (no timer):
 * the publishes made in that turn, such as a write's order, event and answer, share its request. One
 * request at a time keeps publish order: a publish issued after another resolved, or in the same queue
 * after it, is written after it.
 *
 * A failed request fails each of its publishes (their callers retry: a handler's message, the outbox
 * relay). When the broker refused the request for something one message can cause (too large, a topic
 * gone), each message is tried on its own so one bad message does not fail the others; when the broker
 * could not be reached (kafkajs spent its retries), the whole request fails at once: trying its messages
 * one by one would spend a full retry cycle on each while every other publish of the process waits.
 */
export class ProduceQueue {
  private queue: Outgoing[] = [];
  private inFlight = false;
  requests = 0;

  constructor(
    private readonly producer: Pick<Producer, 'sendBatch'>,
    private readonly maxMessages = 500,
  ) {}

  send(topic: string, message: Message): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ topic, message, done: { resolve, reject } });
      if (this.inFlight) return;
      this.inFlight = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxMessages);
      try {
        await this.produce(batch);
        for (const o of batch) o.done.resolve();
      } catch (error) {
        if (batch.length === 1 || unreachable(error)) for (const o of batch) o.done.reject(error);
        else for (const o of batch) await this.produce([o]).then(o.done.resolve, o.done.reject);
      }
    }
    this.inFlight = false;
  }

  private async produce(batch: Outgoing[]): Promise<void> {
    const byTopic = new Map<string, Message[]>();
    for (const o of batch) {
      const list = byTopic.get(o.topic) ?? [];
      list.push(o.message);
      byTopic.set(o.topic, list);
    }
    this.requests++;
    await this.producer.sendBatch({ acks: PRODUCE_ACKS, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
  }
}

/** The broker could not be reached or kept failing: kafkajs spent its retries, or the error is one it retries. */
function unreachable(error: unknown): boolean {
  const e = error as { name?: string; retriable?: boolean } | null;
  return e?.name === 'KafkaJSNumberOfRetriesExceeded' || e?.retriable === true;
}
