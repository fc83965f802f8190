import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('router'); // first line: modules are instrumented as they load
import {
  connectAdapters,
  createLogger,
  envReader,
  listenPort,
  loadCorePolicy,
  loadInfraConfig,
  loadInstanceId,
  loadRiskPolicy,
  loadRoutingTable,
  onShutdown,
  startHealthServer,
} from '@switch/shared';
import { startRouter } from './service';

/** The transaction actor as its own process: `node services/router/dist/main.js`. */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('router');
  const routing = loadRoutingTable(env);
  const healthPort = listenPort(env, 'router');
  const adapters = await connectAdapters(loadInfraConfig(env), 'router', log);
  const router = await startRouter({
    bus: adapters.bus,
    store: adapters.store,
    routing,
    log,
    risk: loadRiskPolicy(env),
    policy: loadCorePolicy(env),
    relayIntervalMs: env.int('SWITCH_OUTBOX_RELAY_MS', 1_000, { min: 50, max: 60_000 }),
    relayGraceMs: env.int('SWITCH_OUTBOX_GRACE_MS', 10_000, { min: 0, max: 600_000 }),
    // Stable across restarts; the health port tells apart routers on one host.
    instanceId: loadInstanceId(env, healthPort),
  });
  const health = await startHealthServer(healthPort, env.string('HEALTH_HOST', '127.0.0.1'), adapters.ready);
  log.info('router ready');
  onShutdown(log, async () => {
    await router.stop();
    await adapters.close();
    health.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`router failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
