import { loadTracingConfig } from '@switch/shared/dist/config/tracing';
import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-activo', loadTracingConfig()); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, infraConfig, onShutdown, readSettings, startHealthServer } from '@switch/shared';
import { ActivoProcessSettings, loadActivoConfig } from './config';
import { startActivoService } from './service';

/** Banco Activo's connector as its own process: `node services/bank-activo/dist/src/main.js`. */
async function main(): Promise<void> {
  const base = readSettings(ActivoProcessSettings);
  const config = loadActivoConfig();
  const log = createLogger('bank-activo', base.process.logLevel);
  const adapters = await connectAdapters(infraConfig(base.infra), 'bank-activo', log);
  const service = await startActivoService({
    bus: adapters.bus,
    store: adapters.store,
    secrets: adapters.secrets,
    log,
    config,
    faults: base.faults,
  });
  const health = await startHealthServer(base.health.port, base.health.host, adapters.ready);
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
  process.stderr.write(`bank-activo failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
