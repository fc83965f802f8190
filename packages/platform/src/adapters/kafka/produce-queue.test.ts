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

/**
 * Publishes 'a' alone (its request held in flight), then `values` while it is, then lets it go:
 * `values` leave together in the next request. Resolves with how each of them settled.
 */
async function publishBehindFirst(fail: (values: string[]) => Error | null, values: string[]) {
  const p = producer(fail);
  const queue = new ProduceQueue(p);
  const first = queue.send('t', { key: 'k', value: 'a' });
  await inFlight(p.requests, 1);
  const rest = Promise.allSettled(values.map((value) => queue.send('t', { key: 'k', value })));
  p.release();
  await first;
  return { statuses: (await rest).map((r) => r.status), requests: p.requests };
}

/** Resolves once `count` requests were sent (each is recorded as it is sent). */
async function inFlight(requests: unknown[], count: number): Promise<void> {
  while (requests.length < count) await new Promise<void>((r) => setImmediate(r));
}

describe('ProduceQueue', () => {
  it('sends the publishes made in one turn of the event loop in one request, in order', async () => {
    const p = producer(() => null);
    const queue = new ProduceQueue(p);
    p.release();
    await Promise.all(['a', 'b', 'c'].map((value) => queue.send('t', { key: 'k', value })));
    await queue.send('t', { key: 'k', value: 'd' });
    expect(p.requests).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('sends what was published during a request in the next one', async () => {
    const { statuses, requests } = await publishBehindFirst(() => null, ['b', 'c', 'd']);
    expect(statuses).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(requests).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('a broker out of reach fails the whole request at once, not one retry cycle per message', async () => {
    const outage = new KafkaJSNumberOfRetriesExceeded(new Error('Connection timeout'), { retryCount: 5, retryTime: 30_000 });
    const { statuses, requests } = await publishBehindFirst((values) => (values.length > 1 ? outage : null), ['b', 'c', 'd']);
    expect(statuses).toEqual(['rejected', 'rejected', 'rejected']);
    expect(requests).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('a message the broker refuses fails alone: the others of its request are sent one by one', async () => {
    const tooLarge = new KafkaJSNonRetriableError(new KafkaJSProtocolError('MESSAGE_TOO_LARGE'));
    const { statuses, requests } = await publishBehindFirst((values) => (values.includes('huge') ? tooLarge : null), ['b', 'huge', 'd']);
    expect(statuses).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(requests).toEqual([['a'], ['b', 'huge', 'd'], ['b'], ['huge'], ['d']]);
  });
});
