import { setting, settings } from './env';

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
 * `/healthz`, `/readyz` and `/metrics` of a service without an HTTP API of its own, on its default
 * port (router 9101, bank-sim 9102, notifier 9103, reconciler 9104, plaza 9105, bancaribe 9106,
 * activo 9107, bnc 9108, panel 9109).
 */
export const healthSettings = (defaultPort: number) =>
  settings(
    {
      host: setting.string(
        'HEALTH_HOST',
        '127.0.0.1',
        'address of `/healthz`, `/readyz`, `/metrics`: loopback unless probes and Prometheus must reach it (Kubernetes: `0.0.0.0`)',
      ),
      port: setting.int('HEALTH_PORT', defaultPort, 'port of `/healthz`, `/readyz`, `/metrics`', { min: 0, max: 65535 }),
    },
    'Health',
  );
