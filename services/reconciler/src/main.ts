import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('reconciler', loadTracingConfig()); // first line: modules are instrumented as they load
import { connectAdapters, infraConfig, onShutdown, startHealthServer } from '@switch/platform/runtime/service';
import { createLogger } from '@switch/platform/telemetry/logger';
import { readSettings } from '@switch/platform/config/env';
import { ReconcilerServiceSettings } from './config';
import { startReconciler } from './service';

/** Drives open operations to their outcome as its own process: `node services/reconciler/dist/main.js`. */
async function main(): Promise<void> {
  const settings = readSettings(ReconcilerServiceSettings);
  const infra = infraConfig(settings.infra);
  const log = createLogger('reconciler', settings.process.logLevel);
  const adapters = await connectAdapters(infra, 'reconciler', log);
  const reconciler = startReconciler({ bus: adapters.bus, store: adapters.store, log, config: settings.reconciler });
  const health = await startHealthServer(settings.health.port, settings.health.host, adapters.ready);
  log.info('reconciler ready');
  onShutdown(
    log,
    async () => {
      await reconciler.stop();
      await adapters.close();
      health.close();
    },
    settings.process.shutdownMs,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`reconciler failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
