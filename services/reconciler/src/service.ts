import { readSettings, setting, settings, type EnvSource } from '@switch/platform/config/env';
import type { Bus } from '@switch/platform/ports/bus';
import type { DueCursor } from '@switch/platform/ports/store';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { TransactionReads } from '@switch/platform/ports/transaction-reads';
import { observeBacklog, reconcileRound, type ReconcilerConfig, type RoundResult } from './poller';

export interface ReconcilerServiceConfig extends ReconcilerConfig {
  intervalMs: number;
  /** How often the backlog gauges are refreshed (they read every open operation). */
  backlogIntervalMs: number;
}

/** Backoff and deadlines belong to the transaction core (SWITCH_RECONCILER_BACKOFF_MS etc.: the router reads them). */
export const ReconcilerSettings = settings(
  {
    intervalMs: setting.int('SWITCH_RECONCILER_INTERVAL_MS', 5_000, 'round interval', { min: 10, max: 3_600_000 }),
    reviewAfterMs: setting.int('SWITCH_REVIEW_AFTER_MS', 24 * 3_600_000, 'open operations older than this are flagged for manual review', {
      min: 1,
      max: 30 * 24 * 3_600_000,
    }),
    batchSize: setting.int(
      'SWITCH_RECONCILER_BATCH',
      500,
      'due operations per batch (a full batch is followed by the next one at once, up to 20 per round)',
      { min: 1, max: 100_000 },
    ),
    backlogIntervalMs: setting.int('SWITCH_RECONCILER_BACKLOG_MS', 30_000, 'how often the open-operations gauges are refreshed', {
      min: 1_000,
      max: 3_600_000,
    }),
  },
  'Reconciler',
);

/** The reconciler's configuration from `source` (by default the process environment). */
export function loadReconcilerConfig(source?: EnvSource): ReconcilerServiceConfig {
  return readSettings(ReconcilerSettings, source);
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
