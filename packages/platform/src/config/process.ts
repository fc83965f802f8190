import { setting, settings } from './env';
import { type Listener, portSetting } from './ports';

/** Logging and graceful shutdown: every service process. */
export const ProcessSettings = settings(
  {
    logLevel: setting.string('LOG_LEVEL', 'info', 'pino level (`npm start`: `warn`)'),
    shutdownMs: setting.int('SWITCH_SHUTDOWN_MS', 20_000, 'graceful shutdown bound after SIGTERM; past it the process exits non-zero', {
      min: 100,
      max: 600_000,
    }),
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
