import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('notifier'); // first line: modules are instrumented as they load
import {
  connectAdapters,
  createLogger,
  envReader,
  listenPort,
  loadInfraConfig,
  loadInstanceId,
  onShutdown,
  startHealthServer,
} from '@switch/shared';
import { loadNotifierConfig, startNotifier } from './service';

/** Webhook delivery as its own process: `node services/notifier/dist/main.js`. */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('notifier');
  const adapters = await connectAdapters(loadInfraConfig(env), 'notifier', log);
  const config = loadNotifierConfig(env, adapters.secrets);
  // Stable across restarts; the health port tells apart notifiers on one host.
  const healthPort = listenPort(env, 'notifier');
  const instanceId = loadInstanceId(env, healthPort);
  const notifier = await startNotifier({ bus: adapters.bus, store: adapters.store, log, config, instanceId });
  const health = await startHealthServer(healthPort, env.string('HEALTH_HOST', '127.0.0.1'), adapters.ready);
  log.info({ owner: notifier.dispatcher.owner }, 'notifier ready');
  onShutdown(log, async () => {
    await notifier.stop();
    await adapters.close();
    health.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`notifier failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
