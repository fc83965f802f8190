import { performance } from 'node:perf_hooks';
import type { LeaseTable } from '../ports/leases';
import type { Logger } from '../telemetry/logger';
import { metrics } from '../telemetry/metrics';

/**
 * What a round is given while its process holds the lease: the lease's token, and `holds()`, true
 * until the holder's own bound on the lease has passed. A round checks `holds()` before each action
 * (each message it publishes), so a holder paused past its lease (SIGSTOP, a long GC, a stalled
 * store call) and overtaken meanwhile stops acting as soon as it runs again.
 */
export interface Fence {
  token: number;
  holds(): boolean;
}

/**
 * Holds one named lease for one process (`holder`, its instance id). The holder's bound is measured
 * on its own monotonic clock from the moment it asked, not from when the store answered, and ends a
 * fifth of the lease early: the store's clock comparison (replicas' wall clocks) and the time the
 * answer took are inside that margin.
 */
export class LeaseKeeper {
  private held: { token: number } | null = null;

  constructor(
    private readonly options: {
      leases: LeaseTable;
      name: string;
      holder: string;
      ttlMs: number;
      log: Logger;
      /** Wall clock, ms since the epoch (what the store compares across replicas); default `Date.now`. */
      now?: () => number;
      /** Monotonic clock, ms (the holder's own bound); default `performance.now`. */
      monotonic?: () => number;
    },
  ) {
    metrics.leaseHeld.set({ lease: options.name }, 0);
  }

  /** Takes or renews the lease: a fence while this process holds it, else null. */
  async hold(): Promise<Fence | null> {
    const { leases, name, holder, ttlMs, log } = this.options;
    const monotonic = this.options.monotonic ?? (() => performance.now());
    const askedAt = monotonic();
    const lease = await leases.acquire(name, holder, (this.options.now ?? Date.now)(), ttlMs);
    if (!lease) {
      if (this.held) log.warn({ lease: name, holder, token: this.held.token }, 'lease lost to another replica');
      this.held = null;
      metrics.leaseHeld.set({ lease: name }, 0);
      return null;
    }
    if (this.held?.token !== lease.token) log.info({ lease: name, holder, token: lease.token }, 'lease taken: this replica runs the loop');
    this.held = { token: lease.token };
    metrics.leaseHeld.set({ lease: name }, 1);
    const until = askedAt + ttlMs - ttlMs / 5;
    return { token: lease.token, holds: () => monotonic() < until };
  }

  /** Lets go (a clean stop), so another replica takes over on its next round instead of after the lease's end. */
  async release(): Promise<void> {
    if (!this.held) return;
    const { token } = this.held;
    this.held = null;
    metrics.leaseHeld.set({ lease: this.options.name }, 0);
    await this.options.leases.release(this.options.name, this.options.holder, token);
    this.options.log.info({ lease: this.options.name, holder: this.options.holder, token }, 'lease released');
  }
}

/**
 * A background loop that runs on one replica at a time: every `intervalMs` it takes or renews its
 * lease and, while held, runs one round with the fence. Rounds never overlap. `tick` runs one step
 * now (tests, operators) and says whether a round ran.
 */
export function startLeasedLoop(options: {
  keeper: LeaseKeeper;
  intervalMs: number;
  round: (fence: Fence) => Promise<unknown>;
  log: Logger;
  /** What the loop is, for its log lines. */
  what: string;
}): { tick(): Promise<boolean>; stop(): Promise<void> } {
  let running: Promise<boolean> = Promise.resolve(false);
  let stopped = false;
  let pending = 0;
  const step = async (): Promise<boolean> => {
    if (stopped) return false;
    const fence = await options.keeper.hold();
    if (!fence || stopped) return false;
    await options.round(fence);
    return true;
  };
  const tick = (): Promise<boolean> => {
    pending++;
    running = running
      .then(step)
      .catch((error: unknown) => {
        options.log.error({ err: error }, `${options.what} round failed`);
        return false;
      })
      .finally(() => pending--);
    return running;
  };
  // A round longer than the interval is not queued behind: the next one starts at the next interval.
  const timer = setInterval(() => pending === 0 && void tick(), options.intervalMs);
  timer.unref();
  return {
    tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await options.keeper.release().catch((error: unknown) => options.log.warn({ err: error }, `${options.what}: lease release failed`));
    },
  };
}
