// What the switch announced: the newest version of each transaction seen on its events topic. A
// stored state counts as announced only when its event is on the topic (the router publishes every
// write's event; docs/reliability.md), read here straight from Kafka, not from the store's say-so.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Kafka, logLevel } = require('kafkajs');

/** Confluent wire format: magic byte 0, a 4-byte schema id, then the JSON payload. */
const payloadOf = (bytes) => JSON.parse(bytes.subarray(5).toString('utf8'));

export async function followAnnouncements({ brokers, namespace }) {
  const kafka = new Kafka({ clientId: 'drills-announcements', brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `drills-announcements-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topic: `${namespace}.switch.transactions.events.v1`, fromBeginning: true });
  const versions = new Map();
  await consumer.run({
    eachMessage: async ({ message }) => {
      if (!message.value) return;
      const event = payloadOf(message.value);
      versions.set(event.txnId, Math.max(versions.get(event.txnId) ?? 0, event.version));
    },
  });
  return {
    /** The newest version of `txnId` announced so far (0: none). */
    version: (txnId) => versions.get(txnId) ?? 0,
    close: () => consumer.disconnect(),
  };
}
