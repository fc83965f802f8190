import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('gateway'); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, envReader, loadInfraConfig, loadRoutingTable, onShutdown } from '@switch/shared';
import { buildGateway } from './app';
import { loadGatewayConfig } from './config';

/** The merchant API as its own process: `node services/gateway/dist/main.js`. */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('gateway');
  const config = loadGatewayConfig(env);
  const adapters = await connectAdapters(loadInfraConfig(env), 'gateway', log);
  const gateway = await buildGateway({
    store: adapters.store,
    bus: adapters.bus,
    routing: loadRoutingTable(env),
    log,
    config,
    secrets: adapters.secrets,
    ready: adapters.ready,
  });
  await gateway.app.listen({ host: config.host, port: config.port });
  // Metrics, probes and the admin API on their own port, never the merchant one.
  await gateway.operator.listen({ host: config.operatorHost, port: config.operatorPort });
  onShutdown(log, async () => {
    // Stop accepting requests, let in-flight ones finish, then disconnect.
    await gateway.close();
    await adapters.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
