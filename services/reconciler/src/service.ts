import { ConfigError, readSettings, setting, settings, type EnvSource } from '@switch/platform/config/env';
import type { Bus } from '@switch/platform/ports/bus';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { DueCursor, TransactionReads } from '@switch/platform/ports/transaction-reads';
import { observeBacklog, reconcileRound, type ReconcilerConfig, type RoundResult } from './poller';
import type { LeaseTable } from '@switch/platform/ports/leases';
import { LeaseKeeper, startLeasedLoop, type Fence } from '@switch/platform/runtime/leased-loop';

export interface ReconcilerServiceConfig extends ReconcilerConfig {
  intervalMs: number;
  /** How often the backlog gauges are refreshed (they read every open operation). */
  backlogIntervalMs: number;
  /** How long a replica's lease on the rounds lasts unrenewed: a killed replica is replaced after it. */
  leaseMs: number;
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
    leaseMs: setting.int(
      'SWITCH_RECONCILER_LEASE_MS',
      15_000,
      "one replica's lease on the rounds (one replica runs them, renewing every round): a holder killed without letting go is replaced after this; at least twice the round interval",
      { min: 1_000, max: 600_000 },
    ),
  },
  'Reconciler',
);

/** The reconciler's configuration from `source` (by default the process environment). */
export function loadReconcilerConfig(source?: EnvSource): ReconcilerServiceConfig {
  const config = readSettings(ReconcilerSettings, source);
  if (config.leaseMs < 2 * config.intervalMs)
    throw new ConfigError(
      'SWITCH_RECONCILER_LEASE_MS',
      `${config.leaseMs} must be at least twice SWITCH_RECONCILER_INTERVAL_MS (${config.intervalMs}): the holder renews it once per round`,
    );
  return config;
}

export interface ReconcilerHandle {
  /**
   * Runs one round now (operators, tests) if this replica holds the reconciler's lease (taking it if
   * free); null when another replica holds it.
   */
  runOnce(): Promise<RoundResult | null>;
  /** Stops the rounds and lets go of the lease (another replica takes over on its next round). */
  stop(): Promise<void>;
}

/** The lease the reconciler's replicas share: one of them runs the rounds at a time. */
export const RECONCILER_LEASE = 'reconciler';

/**
 * The reconciler's rounds, on one replica at a time: each round takes or renews the `reconciler`
 * lease in the store and runs only while held; a replica killed without letting go is replaced once
 * its lease runs out (`leaseMs`), one stopped cleanly at the next round. A round stops publishing as
 * soon as its fence lapses (a replica paused past its lease). The backlog gauges are read by every
 * replica (read-only, every `backlogIntervalMs`), so each replica's are current.
 */
export function startReconciler(deps: {
  bus: Bus;
  store: { transactions: TransactionReads; leases: LeaseTable };
  log: Logger;
  config: ReconcilerServiceConfig;
  /** This replica's stable id: the lease's holder. */
  instanceId: string;
}): ReconcilerHandle {
  let observedAt = 0;
  const keeper = new LeaseKeeper({
    leases: deps.store.leases,
    name: RECONCILER_LEASE,
    holder: deps.instanceId,
    ttlMs: deps.config.leaseMs,
    log: deps.log,
  });
  let last: RoundResult | null = null;
  const round = async (fence: Fence) => {
    // A full batch means more is due: walk on from where it stopped (the ones just asked about keep
    // their due time until the actor has handled them), a bounded number of batches per round.
    let cursor: DueCursor | null = null;
    for (let batches = 0; batches < 20 && fence.holds(); batches++) {
      const result: RoundResult = await reconcileRound({ ...deps, fence }, cursor ?? undefined);
      if (batches === 0) last = result;
      cursor = result.cursor;
      if (!cursor) break;
    }
  };
  const loop = startLeasedLoop({ keeper, intervalMs: deps.config.intervalMs, round, log: deps.log, what: 'reconciliation' });
  const backlog = setInterval(() => {
    if (Date.now() - observedAt < deps.config.backlogIntervalMs) return;
    observedAt = Date.now();
    observeBacklog(deps.store).catch((error: unknown) => deps.log.warn({ err: error }, 'backlog gauges not refreshed'));
  }, deps.config.intervalMs);
  backlog.unref();
  return {
    runOnce: async () => {
      last = null;
      return (await loop.tick()) ? last : null;
    },
    stop: async () => {
      clearInterval(backlog);
      await loop.stop();
    },
  };
}
