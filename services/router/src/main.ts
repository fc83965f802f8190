import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('router', loadTracingConfig()); // first line: modules are instrumented as they load
import { connectAdapters, infraConfig, onShutdown, startHealthServer } from '@switch/platform/runtime/service';
import { corePolicy } from '@switch/platform/config/core-policy';
import { createLogger } from '@switch/platform/telemetry/logger';
import { instanceId } from '@switch/platform/config/instance';
import { ConfigError, readSettings } from '@switch/platform/config/env';
import { riskPolicy } from '@switch/platform/config/risk';
import { routingTable } from '@switch/platform/config/routing';
import { RouterServiceSettings } from './config';
import { startRouter } from './service';

/** The transaction actor as its own process: `node services/router/dist/main.js`. */
async function main(): Promise<void> {
  const settings = readSettings(RouterServiceSettings);
  if (settings.router.relayLeaseMs < 2 * settings.router.relayIntervalMs)
    throw new ConfigError(
      'SWITCH_OUTBOX_RELAY_LEASE_MS',
      'must be at least twice SWITCH_OUTBOX_RELAY_MS: the holder renews it once per round',
    );
  const routing = routingTable(settings.routing);
  const risk = riskPolicy(settings.risk);
  const infra = infraConfig(settings.infra);
  // Stable across restarts; the health port tells apart routers on one host.
  const id = instanceId(settings.instance, settings.health.port);
  const log = createLogger('router', settings.process.logLevel);
  const adapters = await connectAdapters(infra, 'router', log, settings.process);
  const router = await startRouter({
    bus: adapters.bus,
    store: adapters.store,
    routing,
    log,
    risk,
    policy: corePolicy(settings.policy),
    relayIntervalMs: settings.router.relayIntervalMs,
    relayGraceMs: settings.router.relayGraceMs,
    relayLeaseMs: settings.router.relayLeaseMs,
    instanceId: id,
  });
  const health = await startHealthServer(settings.health.port, settings.health.host, adapters, {
    // Which connector replica reports which bank how, and which are routed around (decision 0175).
    '/bank-health': () => router.bankHealth(),
  });
  log.info('router ready');
  onShutdown(
    log,
    async () => {
      await router.stop();
      await adapters.close();
      health.close();
    },
    adapters.timings.shutdownMs,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`router failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
