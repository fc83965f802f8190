import { describe, expect, it } from 'vitest';
import { RequestQueue } from './request-queue-fix';

type Queue = {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: unknown;
  checkPendingRequests(): void;
  destroy(): void;
};
const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const newQueue = () =>
  new (RequestQueue as unknown as new (o: object) => Queue)({ clientId: 'test', broker: 'b:9092', logger, isConnected: () => true });

describe('kafkajs request queue (patched: no timer loop while nothing waits)', () => {
  it('schedules no check when nothing is pending (kafkajs 2.2.4 re-armed a 1 ms timer for ever)', () => {
    const queue = newQueue();
    try {
      queue.checkPendingRequests();
      expect(queue.throttleCheckTimeoutId).toBeNull();
    } finally {
      queue.destroy();
    }
  });

  it('still schedules one while a request waits for a throttle to end', () => {
    const queue = newQueue();
    try {
      queue.throttledUntil = Date.now() + 60_000;
      queue.pending.push({ send: () => undefined });
      queue.checkPendingRequests();
      expect(queue.throttleCheckTimeoutId).not.toBeNull();
    } finally {
      queue.destroy();
    }
  });
});
