import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('reconciler'); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, envReader, listenPort, loadInfraConfig, onShutdown, startHealthServer } from '@switch/shared';
import { loadReconcilerConfig, startReconciler } from './service';

/** Drives open operations to their outcome as its own process: `node services/reconciler/dist/main.js`. */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('reconciler');
  const adapters = await connectAdapters(loadInfraConfig(env), 'reconciler', log);
  const reconciler = startReconciler({ bus: adapters.bus, store: adapters.store, log, config: loadReconcilerConfig(env) });
  const health = await startHealthServer(listenPort(env, 'reconciler'), env.string('HEALTH_HOST', '127.0.0.1'), adapters.ready);
  log.info('reconciler ready');
  onShutdown(log, async () => {
    await reconciler.stop();
    await adapters.close();
    health.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`reconciler failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
