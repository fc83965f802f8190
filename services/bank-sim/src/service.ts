import { startBankWorker, type BankWorkerFaults, type BankWorkerStore } from '@switch/platform/runtime/bank-worker';
import type { Bus, Subscription } from '@switch/platform/ports/bus';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { Sealer } from '@switch/platform/runtime/secret-box';
import type { Store } from '@switch/platform/ports/store';
import { SimulatedBank } from './connector';

/** Serves `bnc` orders of test mode; live `bnc` orders are left to the real BNC connector's group. */
export async function startSimulatedBank(deps: {
  bus: Bus;
  /** The bank worker's ports and the simulated bank's ledger (shared by every replica). */
  store: BankWorkerStore & Pick<Store, 'simulatedBank'>;
  log: Logger;
  /** Opens a cobrar's sealed OTP before the simulated bank gets the order. */
  secrets: Pick<Sealer, 'open'>;
  /** Drills only (`SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL`); default none. */
  faults?: BankWorkerFaults;
  bank?: SimulatedBank;
}): Promise<{ bank: SimulatedBank; stop(): Promise<void> }> {
  const bank = deps.bank ?? new SimulatedBank(deps.store.simulatedBank);
  const subscription: Subscription = await startBankWorker({
    bus: deps.bus,
    store: deps.store,
    banco: 'bnc',
    connectors: { test: bank },
    group: 'bank-sim',
    log: deps.log,
    secrets: deps.secrets,
    ...(deps.faults ? { faults: deps.faults } : {}),
  });
  return { bank, stop: () => subscription.close() };
}
