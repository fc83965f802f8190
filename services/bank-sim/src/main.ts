import { loadTracingConfig } from '@switch/shared/dist/config/tracing';
import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-sim', loadTracingConfig()); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, infraConfig, onShutdown, readSettings, startHealthServer } from '@switch/shared';
import { BankSimServiceSettings } from './config';
import { SimulatedBank } from './connector';
import { startSimulatedBank } from './service';

/** The simulated bank (`bnc` in test mode) as its own process: `node services/bank-sim/dist/main.js`. */
async function main(): Promise<void> {
  const settings = readSettings(BankSimServiceSettings);
  const infra = infraConfig(settings.infra);
  const log = createLogger('bank-sim', settings.process.logLevel);
  const adapters = await connectAdapters(infra, 'bank-sim', log);
  const journal = settings.sim.journal;
  const sim = await startSimulatedBank({
    bus: adapters.bus,
    store: adapters.store,
    secrets: adapters.secrets,
    log,
    bank: new SimulatedBank(undefined, journal),
    faults: settings.faults,
  });
  const health = await startHealthServer(settings.health.port, settings.health.host, adapters.ready, {
    // Test mode only: lets end-to-end tests count orders at the bank.
    '/sim/orders': () => ({ executed: sim.bank.executedOrders, byTransaction: sim.bank.ordersByTransaction() }),
    // Every order received per orderRef (repeats included) and the ledger: read by the reliability drills.
    '/sim/received': () => ({ byRef: sim.bank.receivedByOrderRef(), ledger: sim.bank.ledger() }),
  });
  log.info('simulated bank ready');
  onShutdown(
    log,
    async () => {
      await sim.stop();
      await adapters.close();
      health.close();
    },
    settings.process.shutdownMs,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bank-sim failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
