import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('bank-sim', loadTracingConfig()); // first line: modules are instrumented as they load
import { runBankProcess } from '@switch/platform/runtime/bank-process';
import { BankSimServiceSettings } from './config';
import { startSimulatedBank } from './service';

/** The simulated bank (`bnc` in test mode) as its own process: `node services/bank-sim/dist/main.js`. */
runBankProcess(
  'bank-sim',
  BankSimServiceSettings,
  () => null,
  async (_config, { log, adapters, faults }) => {
    const sim = await startSimulatedBank({
      bus: adapters.bus,
      store: adapters.store,
      secrets: adapters.secrets,
      log,
      faults,
    });
    log.info('simulated bank ready');
    return {
      stop: sim.stop,
      routes: {
        // Test mode only: lets end-to-end tests count orders at the bank.
        '/sim/orders': () => ({ executed: sim.bank.executedOrders, byTransaction: sim.bank.ordersByTransaction() }),
        // Every order received per orderRef by any replica (repeats included) and the ledger: read by the reliability drills.
        '/sim/received': async () => ({ byRef: await sim.bank.receivedByOrderRef(), ledger: await sim.bank.ledger() }),
      },
    };
  },
);
