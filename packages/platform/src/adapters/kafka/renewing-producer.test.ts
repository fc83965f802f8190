import { describe, expect, it } from 'vitest';
import type { Producer, ProducerBatch } from 'kafkajs';
import { RenewingProducer } from './renewing-producer';

/**
 * A stand-in for kafkajs' idempotent producer as the broker sees it: each producer has its own id,
 * and a batch whose (id, sequence) the broker has written is answered as a success and dropped. A
 * failed request gives its sequence back (kafkajs does), and `lostAnswer` makes the broker write a
 * request whose answer never arrives.
 */
function brokerWithIdempotence() {
  const written: string[] = [];
  const seen = new Set<string>();
  let ids = 0;
  let lostAnswer = false;
  const make = (): Producer => {
    const id = ++ids;
    let sequence = 0;
    let connected = false;
    return {
      connect: async () => {
        connected = true;
      },
      disconnect: async () => {
        connected = false;
      },
      sendBatch: async (batch: ProducerBatch) => {
        if (!connected) throw new Error('The producer is disconnected');
        const values = batch.topicMessages!.flatMap((t) => t.messages.map((m) => String(m.value)));
        const first = sequence;
        sequence += values.length;
        const key = `${id}:${first}:${values.length}`;
        if (!seen.has(key)) {
          seen.add(key);
          written.push(...values);
        }
        if (lostAnswer) {
          lostAnswer = false;
          sequence = first; // kafkajs gives the sequence back when the request fails
          throw new Error('Request Produce timed out');
        }
        return [];
      },
    } as unknown as Producer;
  };
  return { make, written, loseNextAnswer: () => (lostAnswer = true) };
}

const batch = (value: string): ProducerBatch => ({ acks: -1, topicMessages: [{ topic: 't', messages: [{ key: 'k', value }] }] });

describe('RenewingProducer', () => {
  it('a request written whose answer was lost never makes the next batch look like its repeat', async () => {
    const broker = brokerWithIdempotence();
    const producer = new RenewingProducer(broker.make);
    await producer.sendBatch(batch('a'));
    broker.loseNextAnswer();
    await expect(producer.sendBatch(batch('b'))).rejects.toThrow(/timed out/);
    // The caller's next publish (another transaction's event) is acknowledged: it must be written.
    await producer.sendBatch(batch('c'));
    expect(broker.written).toEqual(['a', 'b', 'c']);
    expect(producer.renewals).toBe(1);
  });

  it('one producer reused after the failure (what kafkajs alone does) loses that next batch: the case above', async () => {
    const broker = brokerWithIdempotence();
    const single = broker.make();
    await single.connect();
    await single.sendBatch(batch('a'));
    broker.loseNextAnswer();
    await expect(single.sendBatch(batch('b'))).rejects.toThrow(/timed out/);
    await single.sendBatch(batch('c'));
    expect(broker.written).toEqual(['a', 'b']);
  });
});
