import { envReader, type Bus, type EnvReader, type Logger, type Store } from '@switch/shared';
import { DEFAULT_BACKOFF_MS, reconcileRound, type ReconcilerConfig, type RoundResult } from './poller';

export interface ReconcilerServiceConfig extends ReconcilerConfig {
  intervalMs: number;
}

export function loadReconcilerConfig(env: EnvReader = envReader()): ReconcilerServiceConfig {
  return {
    backoffMs: env.durations('SWITCH_RECONCILER_BACKOFF_MS', DEFAULT_BACKOFF_MS),
    intervalMs: env.int('SWITCH_RECONCILER_INTERVAL_MS', 5_000, { min: 10, max: 3_600_000 }),
    reviewAfterMs: env.int('SWITCH_REVIEW_AFTER_MS', 24 * 3_600_000, { min: 1, max: 30 * 24 * 3_600_000 }),
    batchSize: env.int('SWITCH_RECONCILER_BATCH', 500, { min: 1, max: 100_000 }),
  };
}

export interface ReconcilerHandle {
  /** Runs one round now (operators, tests). */
  runOnce(): Promise<RoundResult>;
  stop(): Promise<void>;
}

export function startReconciler(deps: { bus: Bus; store: Store; log: Logger; config: ReconcilerServiceConfig }): ReconcilerHandle {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const runOnce = () => reconcileRound(deps);
  const timer = setInterval(() => {
    void running.then(() => {
      if (stopped) return;
      running = runOnce().catch((error: unknown) => deps.log.error({ err: error }, 'reconciliation round failed'));
    });
  }, deps.config.intervalMs);
  timer.unref();
  return {
    runOnce,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
