import { performance } from 'node:perf_hooks';

/**
 * What `/healthz` answers: whether this process can still do its work, so the orchestrator restarts
 * it when it cannot. Never its dependencies (a broker or database outage restarting every pod at once
 * helps nothing): only what a restart cures. Two things: a Kafka consumer that died for good (kafkajs
 * gave up on it: a crash without restart, or it stopped while the bus was open), and an event loop
 * that stalled past `stallMs` since the last probe (a wedged loop cannot answer at all; the probe's
 * own timeout covers that one).
 */
export function livenessProblems(state: { deadConsumers: readonly string[]; loopDelayMaxMs: number; stallMs: number }): string[] {
  const problems = state.deadConsumers.map((c) => `consumer ${c} is dead`);
  if (state.loopDelayMaxMs > state.stallMs)
    problems.push(`event loop stalled ${Math.round(state.loopDelayMaxMs)} ms (bound ${state.stallMs} ms)`);
  return problems;
}

/**
 * The largest event-loop delay since the previous reading: a timer every `tickMs` notes how late it
 * ran, and a reading also counts how late the next tick already is (a probe answered right after a
 * stall, before the timer ran). Each delay is reported once.
 */
export class EventLoopWatch {
  private max = 0;
  private expected: number;
  private reportedUntil = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly tickMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.expected = now() + tickMs;
    this.timer = setInterval(() => {
      const t = this.now();
      this.max = Math.max(this.max, t - Math.max(this.expected, this.reportedUntil));
      this.expected = t + this.tickMs;
    }, tickMs);
    this.timer.unref();
  }

  /** Milliseconds; starts the next window. */
  takeMaxMs(): number {
    const t = this.now();
    const late = Math.max(this.max, t - Math.max(this.expected, this.reportedUntil), 0);
    this.max = 0;
    this.reportedUntil = t;
    return late;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Liveness of one process: its consumers (`deadConsumers`, from the bus) and its event loop. */
export function processLiveness(options: { stallMs: number; deadConsumers?: () => readonly string[] }): {
  live(): string[];
  stop(): void;
} {
  // Ticks well inside the bound, at most every second.
  const loop = new EventLoopWatch(Math.max(10, Math.min(1_000, Math.floor(options.stallMs / 4))));
  return {
    live: () =>
      livenessProblems({ deadConsumers: options.deadConsumers?.() ?? [], loopDelayMaxMs: loop.takeMaxMs(), stallMs: options.stallMs }),
    stop: () => loop.stop(),
  };
}
