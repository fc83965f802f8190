import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('bank-sim'); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, envReader, listenPort, loadInfraConfig, onShutdown, startHealthServer } from '@switch/shared';
import { SimulatedBank } from './connector';
import { startSimulatedBank } from './service';

/** The simulated bank (`bnc` in test mode) as its own process: `node services/bank-sim/dist/main.js`. */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('bank-sim');
  const adapters = await connectAdapters(loadInfraConfig(env), 'bank-sim', log);
  const journal = env.string('SWITCH_SIM_JOURNAL', '');
  const sim = await startSimulatedBank({
    bus: adapters.bus,
    store: adapters.store,
    secrets: adapters.secrets,
    log,
    bank: new SimulatedBank(undefined, journal || undefined),
  });
  const health = await startHealthServer(listenPort(env, 'bank-sim'), env.string('HEALTH_HOST', '127.0.0.1'), adapters.ready, {
    // Test mode only: lets end-to-end tests count orders at the bank.
    '/sim/orders': () => ({ executed: sim.bank.executedOrders, byTransaction: sim.bank.ordersByTransaction() }),
    // Every order received per orderRef (repeats included) and the ledger: read by the reliability drills.
    '/sim/received': () => ({ byRef: sim.bank.receivedByOrderRef(), ledger: sim.bank.ledger() }),
  });
  log.info('simulated bank ready');
  onShutdown(log, async () => {
    await sim.stop();
    await adapters.close();
    health.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bank-sim failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
