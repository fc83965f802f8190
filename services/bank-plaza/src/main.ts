import { loadTracingConfig } from '@switch/shared/dist/config/tracing';
import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-plaza', loadTracingConfig()); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, infraConfig, onShutdown, readSettings, startHealthServer } from '@switch/shared';
import { PlazaProcessSettings, loadPlazaConfig } from './config';
import { startPlazaService } from './service';

/** Banco Plaza's connector as its own process: `node services/bank-plaza/dist/src/main.js`. */
async function main(): Promise<void> {
  const base = readSettings(PlazaProcessSettings);
  const config = loadPlazaConfig();
  const log = createLogger('bank-plaza', base.process.logLevel);
  const modes = Object.keys(config);
  if (modes.length === 0) log.warn('no PLAZA_TEST_URL nor PLAZA_LIVE_URL: serving no mode');
  const adapters = await connectAdapters(infraConfig(base.infra), 'bank-plaza', log);
  const service = await startPlazaService({
    bus: adapters.bus,
    store: adapters.store,
    secrets: adapters.secrets,
    log,
    config,
    faults: base.faults,
  });
  const health = await startHealthServer(base.health.port, base.health.host, adapters.ready);
  log.info({ modes }, 'Banco Plaza connector ready');
  onShutdown(
    log,
    async () => {
      await service.stop();
      await adapters.close();
      health.close();
    },
    base.process.shutdownMs,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bank-plaza failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
