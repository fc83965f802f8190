import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-activo'); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, envReader, listenPort, loadInfraConfig, onShutdown, startHealthServer } from '@switch/shared';
import { loadActivoConfig } from './config';
import { startActivoService } from './service';

/** Banco Activo's connector as its own process: `node services/bank-activo/dist/src/main.js`. */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('bank-activo');
  const config = loadActivoConfig(env);
  const adapters = await connectAdapters(loadInfraConfig(env), 'bank-activo', log);
  const service = await startActivoService({ bus: adapters.bus, store: adapters.store, secrets: adapters.secrets, log, config });
  const health = await startHealthServer(listenPort(env, 'bank-activo'), env.string('HEALTH_HOST', '127.0.0.1'), adapters.ready);
  onShutdown(log, async () => {
    await service.stop();
    await adapters.close();
    health.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bank-activo failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
