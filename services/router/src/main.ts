import { loadTracingConfig } from '@switch/shared/dist/config/tracing';
import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('router', loadTracingConfig()); // first line: modules are instrumented as they load
import {
  connectAdapters,
  corePolicy,
  createLogger,
  infraConfig,
  instanceId,
  onShutdown,
  readSettings,
  riskPolicy,
  routingTable,
  startHealthServer,
} from '@switch/shared';
import { RouterServiceSettings } from './config';
import { startRouter } from './service';

/** The transaction actor as its own process: `node services/router/dist/main.js`. */
async function main(): Promise<void> {
  const settings = readSettings(RouterServiceSettings);
  const routing = routingTable(settings.routing);
  const risk = riskPolicy(settings.risk);
  const infra = infraConfig(settings.infra);
  // Stable across restarts; the health port tells apart routers on one host.
  const id = instanceId(settings.instance, settings.health.port);
  const log = createLogger('router', settings.process.logLevel);
  const adapters = await connectAdapters(infra, 'router', log);
  const router = await startRouter({
    bus: adapters.bus,
    store: adapters.store,
    routing,
    log,
    risk,
    policy: corePolicy(settings.policy),
    relayIntervalMs: settings.router.relayIntervalMs,
    relayGraceMs: settings.router.relayGraceMs,
    instanceId: id,
  });
  const health = await startHealthServer(settings.health.port, settings.health.host, adapters.ready);
  log.info('router ready');
  onShutdown(
    log,
    async () => {
      await router.stop();
      await adapters.close();
      health.close();
    },
    settings.process.shutdownMs,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`router failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
