import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-plaza'); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, envReader, listenPort, loadInfraConfig, onShutdown, startHealthServer } from '@switch/shared';
import { loadPlazaConfig } from './config';
import { startPlazaService } from './service';

/** Banco Plaza's connector as its own process: `node services/bank-plaza/dist/src/main.js`. */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('bank-plaza');
  const config = loadPlazaConfig(env);
  const modes = Object.keys(config);
  if (modes.length === 0) log.warn('no PLAZA_TEST_URL nor PLAZA_LIVE_URL: serving no mode');
  const adapters = await connectAdapters(loadInfraConfig(env), 'bank-plaza', log);
  const service = await startPlazaService({ bus: adapters.bus, store: adapters.store, secrets: adapters.secrets, log, config });
  const health = await startHealthServer(listenPort(env, 'bank-plaza'), env.string('HEALTH_HOST', '127.0.0.1'), adapters.ready);
  log.info({ modes }, 'Banco Plaza connector ready');
  onShutdown(log, async () => {
    await service.stop();
    await adapters.close();
    health.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bank-plaza failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
