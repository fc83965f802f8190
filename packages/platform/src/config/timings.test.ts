import { describe, expect, it } from 'vitest';
import { DEFAULT_BANK_CALL_MS, deriveTimings, longestBankCallMs, minimumGraceSeconds } from './timings';

describe('the shutdown and Kafka timing chain', () => {
  const connector = deriveTimings({ bankCallMs: DEFAULT_BANK_CALL_MS, shutdownMs: 20_000, sessionTimeoutMs: 6_000 });

  it('a connector stops only after the longest order in hand could end, and a rebalance waits for it too', () => {
    // Two exchanges of 3 s connect + 30 s answer, then the journal and the publish.
    expect(connector.handlerMs).toBe(71_000);
    expect(connector.shutdownMs).toBeGreaterThan(connector.handlerMs);
    expect(connector.rebalanceTimeoutMs).toBeGreaterThan(connector.handlerMs);
    expect(connector.shutdownMs).toBe(76_000);
    expect(minimumGraceSeconds(connector, 0)).toBe(81);
  });

  it('services without bank calls keep SWITCH_SHUTDOWN_MS and the 60 s rebalance', () => {
    const router = deriveTimings({ bankCallMs: 0, shutdownMs: 20_000, sessionTimeoutMs: 6_000 });
    expect(router).toMatchObject({ handlerMs: 5_000, shutdownMs: 20_000, rebalanceTimeoutMs: 60_000, heartbeatIntervalMs: 1_000 });
    // The gateway's preStop pause (5 s) comes first.
    expect(minimumGraceSeconds(router, 5_000)).toBe(30);
  });

  it('the heartbeat stays within a third of the session timeout', () => {
    for (const sessionTimeoutMs of [1_000, 2_500, 6_000, 45_000])
      expect(deriveTimings({ bankCallMs: 0, shutdownMs: 20_000, sessionTimeoutMs }).heartbeatIntervalMs).toBeLessThanOrEqual(
        sessionTimeoutMs / 3,
      );
  });

  it('a connector is bounded by its slowest mode: answer plus connect timeout (3 s when unset)', () => {
    expect(longestBankCallMs({ test: { timeoutMs: 10_000, connectTimeoutMs: 1_000 }, live: { timeoutMs: 45_000 } })).toBe(48_000);
    expect(longestBankCallMs({})).toBe(0);
  });
});
