import { storesClosedAfterEach } from './store-lifecycle';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Store } from '../src/ports/store';
import { createLogger } from '../src/telemetry/logger';
import { LeaseKeeper, startLeasedLoop } from '../src/runtime/leased-loop';

/** The guarantees of the lease port (packages/platform/src/ports/leases.ts), run against every adapter. */
export function leaseContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Lease contract: ${name}`, () => {
    const store = storesClosedAfterEach(makeStore);
    const lease = () => `lease-${randomUUID().slice(0, 8)}`;
    const T0 = 1_800_000_000_000;

    it('one holder at a time: a live lease is refused to others, renewed for its holder under the same token', async () => {
      const s = await store();
      const n = lease();
      expect(await s.leases.acquire(n, 'a', T0, 10_000)).toEqual({ name: n, holder: 'a', token: 1, expiresAt: T0 + 10_000 });
      expect(await s.leases.acquire(n, 'b', T0 + 9_999, 10_000)).toBeNull();
      expect(await s.leases.acquire(n, 'a', T0 + 5_000, 10_000)).toEqual({ name: n, holder: 'a', token: 1, expiresAt: T0 + 15_000 });
      expect(await s.leases.get(n)).toEqual({ name: n, holder: 'a', token: 1, expiresAt: T0 + 15_000 });
    });

    it('a lapsed lease goes to the next who asks, under a new token; the old holder is then refused', async () => {
      const s = await store();
      const n = lease();
      await s.leases.acquire(n, 'a', T0, 10_000);
      expect(await s.leases.acquire(n, 'b', T0 + 10_000, 10_000)).toEqual({ name: n, holder: 'b', token: 2, expiresAt: T0 + 20_000 });
      expect(await s.leases.acquire(n, 'a', T0 + 10_001, 10_000)).toBeNull();
      // Its own lapsed lease is a new term too.
      expect(await s.leases.acquire(n, 'b', T0 + 30_000, 10_000)).toMatchObject({ holder: 'b', token: 3 });
    });

    it('of holders asking together, exactly one gets it', async () => {
      const s = await store();
      const n = lease();
      const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((h) => s.leases.acquire(n, h, T0, 10_000)));
      const winners = answers.filter((a) => a !== null);
      expect(winners).toHaveLength(1);
      expect(await s.leases.get(n)).toEqual(winners[0]);
      // Also when it lapsed and everyone asks again.
      const again = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((h) => s.leases.acquire(n, h, T0 + 20_000, 10_000)));
      expect(again.filter((a) => a !== null)).toEqual([expect.objectContaining({ token: 2 })]);
    });

    it('a release by its holder frees it at once; a release under an old token changes nothing', async () => {
      const s = await store();
      const n = lease();
      await s.leases.acquire(n, 'a', T0, 10_000);
      await s.leases.release(n, 'a', 7);
      expect(await s.leases.acquire(n, 'b', T0 + 1, 10_000)).toBeNull();
      await s.leases.release(n, 'a', 1);
      expect(await s.leases.acquire(n, 'b', T0 + 1, 10_000)).toMatchObject({ holder: 'b', token: 2 });
      expect(await s.leases.get(`${n}-none`)).toBeNull();
    });

    it('two loops over this store: exactly one acts each period; when its holder dies the other takes over after the lease', async () => {
      const s = await store();
      const n = lease();
      let clock = T0;
      const acted: string[] = [];
      const log = createLogger('lease-contract', 'silent');
      const loop = (holder: string) =>
        startLeasedLoop({
          keeper: new LeaseKeeper({ leases: s.leases, name: n, holder, ttlMs: 15_000, log, now: () => clock, monotonic: () => clock }),
          intervalMs: 3_600_000, // the test runs each period
          what: 'contract loop',
          log,
          round: async (fence) => {
            if (fence.holds()) acted.push(holder);
          },
        });
      const a = loop('a');
      const b = loop('b');
      for (let period = 0; period < 3; period++) {
        await Promise.all([a.tick(), b.tick()]);
        clock += 5_000;
      }
      expect(acted).toHaveLength(3);
      const first = acted[0]!;
      expect(new Set(acted)).toEqual(new Set([first]));
      // The holder dies: it never runs again, never lets go. The other waits out the lease, then acts.
      const other = first === 'a' ? b : a;
      acted.length = 0;
      await other.tick();
      expect(acted).toEqual([]);
      clock += 15_000;
      await other.tick();
      expect(acted).toEqual([first === 'a' ? 'b' : 'a']);
      await other.stop();
    });
  });
}
