import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// The queue is private to kafkajs; this test reaches it to prove that patches/kafkajs+2.2.4.patch is
// applied to the installed copy (postinstall runs patch-package).
const RequestQueue = createRequire(__filename)('kafkajs/src/network/requestQueue') as new (options: object) => Queue;

type Queue = {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: unknown;
  checkPendingRequests(): void;
  destroy(): void;
};
const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const newQueue = () => new RequestQueue({ clientId: 'test', broker: 'b:9092', logger, isConnected: () => true });

describe('kafkajs request queue (patches/kafkajs+2.2.4.patch: no timer loop while nothing waits)', () => {
  it('schedules no check when nothing is pending (unpatched 2.2.4 re-arms a 1 ms timer for ever)', () => {
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
