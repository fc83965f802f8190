import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('reconciler', loadTracingConfig()); // first line: modules are instrumented as they load
import { connectAdapters, infraConfig, onShutdown, startHealthServer } from '@switch/platform/runtime/service';
import { createLogger } from '@switch/platform/telemetry/logger';
import { readSettings } from '@switch/platform/config/env';
import { instanceId } from '@switch/platform/config/instance';
import { loadReconcilerConfig, startReconciler } from './service';
import { ReconcilerServiceSettings } from './config';

/** Drives open operations to their outcome as its own process: `node services/reconciler/dist/main.js`. */
async function main(): Promise<void> {
  const settings = readSettings(ReconcilerServiceSettings);
  const infra = infraConfig(settings.infra);
  const log = createLogger('reconciler', settings.process.logLevel);
  const adapters = await connectAdapters(infra, 'reconciler', log, settings.process);
  // Stable across restarts (the lease's holder); the health port tells apart replicas on one host.
  const id = instanceId(settings.instance, settings.health.port);
  const reconciler = startReconciler({ bus: adapters.bus, store: adapters.store, log, config: loadReconcilerConfig(), instanceId: id });
  const health = await startHealthServer(settings.health.port, settings.health.host, adapters);
  log.info({ instance: id }, 'reconciler ready');
  onShutdown(
    log,
    async () => {
      await reconciler.stop();
      await adapters.close();
      health.close();
    },
    adapters.timings.shutdownMs,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`reconciler failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
