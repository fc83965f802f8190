import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-bnc'); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, envReader, listenPort, loadInfraConfig, onShutdown, startHealthServer } from '@switch/shared';
import { loadBncConfig } from './config';
import { startBncService } from './service';

/** BNC's live connector as its own process: `node services/bank-bnc/dist/src/main.js`. */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('bank-bnc');
  const config = loadBncConfig(env);
  const adapters = await connectAdapters(loadInfraConfig(env), 'bank-bnc', log);
  const service = await startBncService({ bus: adapters.bus, store: adapters.store, secrets: adapters.secrets, log, config });
  const health = await startHealthServer(listenPort(env, 'bank-bnc'), env.string('HEALTH_HOST', '127.0.0.1'), adapters.ready);
  log.info('bank-bnc ready');
  onShutdown(log, async () => {
    await service.stop();
    await adapters.close();
    health.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bank-bnc failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
