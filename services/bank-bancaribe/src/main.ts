import { loadTracingConfig } from '@switch/shared/dist/config/tracing';
import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-bancaribe', loadTracingConfig()); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, infraConfig, onShutdown, readSettings, startHealthServer } from '@switch/shared';
import { BancaribeProcessSettings, describeBancaribeConfig, loadBancaribeConfig } from './config';
import { startBancaribeService } from './service';

/** Bancaribe's connector as its own process: `node services/bank-bancaribe/dist/src/main.js`. */
async function main(): Promise<void> {
  const base = readSettings(BancaribeProcessSettings);
  const config = loadBancaribeConfig();
  const log = createLogger('bank-bancaribe', base.process.logLevel);
  if (!config.test && !config.live) log.warn('neither BANCARIBE_TEST_URL nor BANCARIBE_LIVE_URL is set: no Bancaribe order will be served');
  const adapters = await connectAdapters(infraConfig(base.infra), 'bank-bancaribe', log);
  const service = await startBancaribeService({
    bus: adapters.bus,
    store: adapters.store,
    secrets: adapters.secrets,
    log,
    config,
    faults: base.faults,
  });
  const health = await startHealthServer(base.health.port, base.health.host, adapters.ready);
  log.info({ modes: describeBancaribeConfig(config) }, 'bancaribe connector ready');
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
  process.stderr.write(`bank-bancaribe failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
