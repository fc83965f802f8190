import { loadTracingConfig } from '@switch/shared/dist/config/tracing';
import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-bnc', loadTracingConfig()); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, infraConfig, onShutdown, readSettings, startHealthServer } from '@switch/shared';
import { BncProcessSettings, loadBncConfig } from './config';
import { startBncService } from './service';

/** BNC's live connector as its own process: `node services/bank-bnc/dist/src/main.js`. */
async function main(): Promise<void> {
  const base = readSettings(BncProcessSettings);
  const config = loadBncConfig();
  const log = createLogger('bank-bnc', base.process.logLevel);
  const adapters = await connectAdapters(infraConfig(base.infra), 'bank-bnc', log);
  const service = await startBncService({
    bus: adapters.bus,
    store: adapters.store,
    secrets: adapters.secrets,
    log,
    config,
    faults: base.faults,
  });
  const health = await startHealthServer(base.health.port, base.health.host, adapters.ready);
  log.info('bank-bnc ready');
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
  process.stderr.write(`bank-bnc failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
