import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-bancaribe'); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, envReader, listenPort, loadInfraConfig, onShutdown, startHealthServer } from '@switch/shared';
import { describeBancaribeConfig, loadBancaribeConfig } from './config';
import { startBancaribeService } from './service';

/** Bancaribe's connector as its own process: `node services/bank-bancaribe/dist/src/main.js`. */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('bank-bancaribe');
  const config = loadBancaribeConfig(env);
  if (!config.test && !config.live) log.warn('neither BANCARIBE_TEST_URL nor BANCARIBE_LIVE_URL is set: no Bancaribe order will be served');
  const adapters = await connectAdapters(loadInfraConfig(env), 'bank-bancaribe', log);
  const service = await startBancaribeService({ bus: adapters.bus, store: adapters.store, secrets: adapters.secrets, log, config });
  const health = await startHealthServer(listenPort(env, 'bank-bancaribe'), env.string('HEALTH_HOST', '127.0.0.1'), adapters.ready);
  log.info({ modes: describeBancaribeConfig(config) }, 'bancaribe connector ready');
  onShutdown(log, async () => {
    await service.stop();
    await adapters.close();
    health.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bank-bancaribe failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
