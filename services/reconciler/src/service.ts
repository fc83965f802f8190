import { envReader, type Bus, type DueCursor, type EnvReader, type Logger, type TransactionReads } from '@switch/shared';
import { observeBacklog, reconcileRound, type ReconcilerConfig, type RoundResult } from './poller';

export interface ReconcilerServiceConfig extends ReconcilerConfig {
  intervalMs: number;
  /** How often the backlog gauges are refreshed (they read every open operation). */
  backlogIntervalMs: number;
}

/** Backoff and deadlines belong to the transaction core (SWITCH_RECONCILER_BACKOFF_MS etc.: the router reads them). */
export function loadReconcilerConfig(env: EnvReader = envReader()): ReconcilerServiceConfig {
  return {
    intervalMs: env.int('SWITCH_RECONCILER_INTERVAL_MS', 5_000, { min: 10, max: 3_600_000 }),
    reviewAfterMs: env.int('SWITCH_REVIEW_AFTER_MS', 24 * 3_600_000, { min: 1, max: 30 * 24 * 3_600_000 }),
    batchSize: env.int('SWITCH_RECONCILER_BATCH', 500, { min: 1, max: 100_000 }),
    backlogIntervalMs: env.int('SWITCH_RECONCILER_BACKLOG_MS', 30_000, { min: 1_000, max: 3_600_000 }),
  };
}

export interface ReconcilerHandle {
  /** Runs one round now (operators, tests). */
  runOnce(): Promise<RoundResult>;
  stop(): Promise<void>;
}

export function startReconciler(deps: {
  bus: Bus;
  store: { transactions: TransactionReads };
  log: Logger;
  config: ReconcilerServiceConfig;
}): ReconcilerHandle {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let observedAt = 0;
  const runOnce = () => reconcileRound(deps);
  const round = async () => {
    // A full batch means more is due: walk on from where it stopped (the ones just asked about keep
    // their due time until the actor has handled them), a bounded number of batches per round.
    let cursor: DueCursor | null = null;
    for (let batches = 0; batches < 20 && !stopped; batches++) {
      cursor = (await reconcileRound(deps, cursor ?? undefined)).cursor;
      if (!cursor) break;
    }
    if (Date.now() - observedAt >= deps.config.backlogIntervalMs) {
      observedAt = Date.now();
      await observeBacklog(deps.store);
    }
  };
  const timer = setInterval(() => {
    void running.then(() => {
      if (stopped) return;
      running = round().catch((error: unknown) => deps.log.error({ err: error }, 'reconciliation round failed'));
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
