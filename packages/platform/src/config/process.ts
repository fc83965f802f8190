import { setting, settings } from './env';

/** The floor of the shutdown bound (config/timings.ts derives the bound of bank connectors above it). */
export const DEFAULT_SHUTDOWN_MS = 20_000;
/** How long `/readyz` holds ready through failing dependency checks (decision 0177). */
export const DEFAULT_READY_GRACE_MS = 15_000;
/** An event-loop delay past this since the last probe makes `/healthz` fail (decision 0177). */
export const DEFAULT_STALL_MS = 10_000;
import type { Listener } from './listeners';
import { portSetting } from './ports';

/** Logging and graceful shutdown: every service process. */
export const ProcessSettings = settings(
  {
    logLevel: setting.string('LOG_LEVEL', 'info', 'pino level (`npm start`: `warn`)'),
    shutdownMs: setting.int(
      'SWITCH_SHUTDOWN_MS',
      DEFAULT_SHUTDOWN_MS,
      'graceful shutdown bound after SIGTERM (past it the process exits non-zero); a bank connector takes at least its longest order (2 × (connect + answer timeout) + 10 s, docs/operations.md "Shutdown and probe timings")',
      {
        min: 100,
        max: 600_000,
      },
    ),
    readyGraceMs: setting.int(
      'SWITCH_READY_GRACE_MS',
      DEFAULT_READY_GRACE_MS,
      '`/readyz` stays ready through failing dependency checks shorter than this (a blip does not empty every Service); 0: unready at the first failure',
      { min: 0, max: 300_000 },
    ),
    stallMs: setting.int(
      'SWITCH_LIVENESS_STALL_MS',
      DEFAULT_STALL_MS,
      '`/healthz` fails when the event loop stalled longer than this since the last probe (a dead Kafka consumer fails it too)',
      { min: 100, max: 600_000 },
    ),
  },
  'Process',
);

/**
 * `/healthz`, `/readyz` and `/metrics` of a service without an HTTP API of its own, on its listener's
 * default port (config/ports.ts).
 */
export const healthSettings = (listener: Listener) =>
  settings(
    {
      host: setting.string(
        'HEALTH_HOST',
        '127.0.0.1',
        'address of `/healthz`, `/readyz`, `/metrics`: loopback unless probes and Prometheus must reach it (Kubernetes: `0.0.0.0`)',
      ),
      port: portSetting(listener, 'port of `/healthz`, `/readyz`, `/metrics`'),
    },
    'Health',
  );
