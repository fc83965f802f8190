import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('gateway', loadTracingConfig()); // first line: modules are instrumented as they load
import { connectAdapters, infraConfig, onShutdown } from '@switch/platform/runtime/service';
import { createLogger } from '@switch/platform/telemetry/logger';
import { readSettings } from '@switch/platform/config/env';
import { routingTable } from '@switch/platform/config/routing';
import { bookIncomingPagoMovil } from '@switch/connector-kit/simulated-ledger';
import { buildGateway } from './app';
import { GatewayServiceSettings, gatewayConfig } from './config';

/** The merchant API as its own process: `node services/gateway/dist/main.js`. */
async function main(): Promise<void> {
  const settings = readSettings(GatewayServiceSettings);
  const config = gatewayConfig(settings.config);
  const log = createLogger('gateway', settings.process.logLevel);
  const adapters = await connectAdapters(infraConfig(settings.infra), 'gateway', log, settings.process);
  const gateway = await buildGateway({
    store: adapters.store,
    bus: adapters.bus,
    routing: routingTable(settings.routing),
    log,
    config,
    secrets: adapters.secrets,
    ready: adapters.ready,
    live: adapters.live,
    // Test mode's bnc is bank-sim, whose ledger is the store's: a sandbox payment booked here is in the
    // books every bank-sim replica reads. The other banks' test modes are their own sandboxes.
    sandboxPayments: (merchantId, banco, payment) =>
      banco === 'bnc' ? bookIncomingPagoMovil(adapters.store.simulatedBank, merchantId, payment) : null,
  });
  await gateway.app.listen({ host: config.host, port: config.port });
  // Metrics, probes and the admin API on their own port, never the merchant one.
  await gateway.operator.listen({ host: config.operatorHost, port: config.operatorPort });
  onShutdown(
    log,
    async () => {
      // Stop accepting requests, let in-flight ones finish, then disconnect.
      await gateway.close();
      await adapters.close();
    },
    adapters.timings.shutdownMs,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
