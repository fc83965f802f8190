import { startTracing } from '@switch/shared/dist/telemetry/tracing'; startTracing('bank-sim'); // first line: modules are instrumented as they load
import { connectAdapters, createLogger, envReader, loadInfraConfig, onShutdown, startHealthServer } from '@switch/shared';
import { startSimulatedBank } from './service';

/** The simulated bank (`bnc` in test mode) as its own process: `node services/bank-sim/dist/main.js`. */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('bank-sim');
  const adapters = await connectAdapters(loadInfraConfig(env), 'bank-sim', log);
  const sim = await startSimulatedBank({ bus: adapters.bus, store: adapters.store, log });
  const health = await startHealthServer(env.int('HEALTH_PORT', 9102, { min: 0, max: 65535 }), env.string('HEALTH_HOST', '0.0.0.0'), adapters.ready, {
    // Test mode only: lets end-to-end tests count orders at the bank.
    '/sim/orders': () => ({ executed: sim.bank.executedOrders, byTransaction: sim.bank.ordersByTransaction() }),
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
