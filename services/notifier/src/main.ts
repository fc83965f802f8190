import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('notifier', loadTracingConfig()); // first line: modules are instrumented as they load
import { connectAdapters, infraConfig, onShutdown, startHealthServer } from '@switch/platform/runtime/service';
import { createLogger } from '@switch/platform/telemetry/logger';
import { instanceId } from '@switch/platform/config/instance';
import { readSettings } from '@switch/platform/config/env';
import { NotifierServiceSettings } from './config';
import { notifierConfig, startNotifier } from './service';

/** Webhook delivery as its own process: `node services/notifier/dist/main.js`. */
async function main(): Promise<void> {
  const settings = readSettings(NotifierServiceSettings);
  const infra = infraConfig(settings.infra);
  const config = notifierConfig(settings.config, infra.secrets, [settings.health.port]);
  // Stable across restarts; the health port tells apart notifiers on one host.
  const id = instanceId(settings.instance, settings.health.port);
  const log = createLogger('notifier', settings.process.logLevel);
  const adapters = await connectAdapters(infra, 'notifier', log, settings.process);
  const notifier = await startNotifier({ bus: adapters.bus, store: adapters.store, log, config, instanceId: id });
  const health = await startHealthServer(settings.health.port, settings.health.host, adapters);
  log.info({ owner: notifier.dispatcher.owner }, 'notifier ready');
  onShutdown(
    log,
    async () => {
      await notifier.stop();
      await adapters.close();
      health.close();
    },
    adapters.timings.shutdownMs,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`notifier failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
