import { describe, expect, it } from 'vitest';
import { KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { ProduceQueue } from './produce-queue';

/** A producer that fails the requests `fail` picks, and records every request's messages. */
function producer(fail: (values: string[]) => Error | null) {
  const requests: string[][] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  return {
    requests,
    release,
    sendBatch: async ({ topicMessages }: { topicMessages?: { messages: { value: unknown }[] }[] }) => {
      const values = (topicMessages ?? []).flatMap((t) => t.messages.map((m) => String(m.value)));
      requests.push(values);
      if (requests.length === 1) await held; // the first request stays in flight while the others queue
      const error = fail(values);
      if (error) throw error;
      return [];
    },
  };
}

const publishAll = (queue: ProduceQueue, values: string[]) =>
  Promise.allSettled(values.map((value) => queue.send('t', { key: 'k', value })));

describe('ProduceQueue', () => {
  it('sends what was published during a request in the next one', async () => {
    const p = producer(() => null);
    const queue = new ProduceQueue(p);
    const first = queue.send('t', { key: 'k', value: 'a' });
    const rest = publishAll(queue, ['b', 'c', 'd']);
    p.release();
    await first;
    expect((await rest).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(p.requests).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('a broker out of reach fails the whole request at once, not one retry cycle per message', async () => {
    const outage = new KafkaJSNumberOfRetriesExceeded(new Error('Connection timeout'), { retryCount: 5, retryTime: 30_000 });
    const p = producer((values) => (values.length > 1 ? outage : null));
    const queue = new ProduceQueue(p);
    const first = queue.send('t', { key: 'k', value: 'a' });
    const rest = publishAll(queue, ['b', 'c', 'd']);
    p.release();
    await first;
    const results = await rest;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(p.requests).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('a message the broker refuses fails alone: the others of its request are sent one by one', async () => {
    const tooLarge = new KafkaJSNonRetriableError(new KafkaJSProtocolError('MESSAGE_TOO_LARGE'));
    const p = producer((values) => (values.includes('huge') ? tooLarge : null));
    const queue = new ProduceQueue(p);
    const first = queue.send('t', { key: 'k', value: 'a' });
    const rest = publishAll(queue, ['b', 'huge', 'd']);
    p.release();
    await first;
    expect((await rest).map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(p.requests).toEqual([['a'], ['b', 'huge', 'd'], ['b'], ['huge'], ['d']]);
  });
});
