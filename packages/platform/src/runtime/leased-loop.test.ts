import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../adapters/memory/store';
import { createLogger } from '../telemetry/logger';
import { registry } from '../telemetry/metrics';
import { LeaseKeeper, startLeasedLoop, type Fence } from './leased-loop';

const log = createLogger('test', 'silent');
const TTL = 15_000;

/** Two replicas of one loop over one store, on clocks the test moves (wall and monotonic together). */
function twoReplicas() {
  const store = new MemoryStore();
  let clock = 1_800_000_000_000;
  const acted: string[] = [];
  const replica = (holder: string) => {
    const keeper = new LeaseKeeper({
      leases: store.leases,
      name: 'reconciler',
      holder,
      ttlMs: TTL,
      log,
      now: () => clock,
      monotonic: () => clock,
    });
    return startLeasedLoop({
      keeper,
      intervalMs: 3_600_000, // the test ticks
      what: 'test loop',
      log,
      round: async (fence: Fence) => {
        if (fence.holds()) acted.push(holder);
      },
    });
  };
  return { store, acted, a: replica('a'), b: replica('b'), advance: (ms: number) => (clock += ms) };
}

describe('a background loop under a lease', () => {
  it('two replicas over one store: exactly one acts each period', async () => {
    const { acted, a, b, advance } = twoReplicas();
    for (let period = 0; period < 5; period++) {
      acted.length = 0;
      await Promise.all([a.tick(), b.tick()]);
      expect(acted).toEqual(['a']);
      advance(5_000);
    }
    await a.stop();
    await b.stop();
  });

  it('the holder dies (no release): the other takes over once its lease has run out, not before', async () => {
    const { store, acted, a, b, advance } = twoReplicas();
    await a.tick();
    expect(acted).toEqual(['a']);
    // `a` is killed: it never ticks again and never lets go.
    advance(TTL - 1);
    expect(await b.tick()).toBe(false);
    advance(1);
    expect(await b.tick()).toBe(true);
    expect(acted).toEqual(['a', 'b']);
    expect(await store.leases.get('reconciler')).toMatchObject({ holder: 'b', token: 2 });
    await b.stop();
  });

  it('a clean stop lets go: the other replica takes over on its next round', async () => {
    const { acted, a, b } = twoReplicas();
    await a.tick();
    await a.stop();
    expect(await b.tick()).toBe(true);
    expect(acted).toEqual(['a', 'b']);
    await b.stop();
  });

  it('a holder paused past its lease cannot act when it runs again (the fence), and loses the lease', async () => {
    const store = new MemoryStore();
    let clock = 1_800_000_000_000;
    const opts = { leases: store.leases, name: 'relay', ttlMs: TTL, log, now: () => clock, monotonic: () => clock };
    const paused = new LeaseKeeper({ ...opts, holder: 'a' });
    const other = new LeaseKeeper({ ...opts, holder: 'b' });
    const fence = (await paused.hold())!;
    expect(fence.holds()).toBe(true);
    // Paused (SIGSTOP) for longer than the lease; meanwhile the other replica takes it.
    clock += TTL;
    const taken = (await other.hold())!;
    expect(taken.token).toBe(fence.token + 1);
    // Resumed mid-round: its fence has lapsed, so it does not publish; its next round finds the lease taken.
    expect(fence.holds()).toBe(false);
    expect(await paused.hold()).toBeNull();
    expect(taken.holds()).toBe(true);
  });

  it('names the lease it holds in switch_lease_held', async () => {
    const { a, b } = twoReplicas();
    await a.tick();
    const held = (await registry.getSingleMetricAsString('switch_lease_held')).split('\n');
    expect(held).toContain('switch_lease_held{lease="reconciler"} 1');
    await a.stop();
    await b.stop();
  });
});
