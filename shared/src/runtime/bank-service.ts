import type { Bus } from '../ports/bus';
import type { BancoId, Mode } from '../domain/bancos';
import type { Logger } from '../telemetry/logger';
import type { GuardedConnector } from '../connector-kit/connector';
import type { BankBreakers } from './breaker';
import { startBankWorker, type BankWorkerFaults, type BankWorkerStore } from './bank-worker';
import { startBankHealthReporter } from './bank-health';
import type { Sealer } from './secret-box';

export interface BankService<C extends GuardedConnector> {
  connectors: Partial<Record<Mode, C>>;
  stop(): Promise<void>;
}

/**
 * Serves one bank's orders and reads from the bus with its connectors (one per configured mode) and
 * reports their breaker states, which the router routes around and the `switch_breaker_state` gauge
 * exports. A mode without a connector is left to other workers.
 */
export async function serveBank<C extends GuardedConnector>(deps: {
  bus: Bus;
  store: BankWorkerStore;
  log: Logger;
  banco: BancoId;
  group: string;
  connectors: Partial<Record<Mode, C>>;
  /** Opens the sealed OTP of a cobrar before the connector sends it. */
  secrets: Pick<Sealer, 'open'>;
  /** Drills only (`SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL`); default none. */
  faults?: BankWorkerFaults;
}): Promise<BankService<C>> {
  const { bus, log, banco, connectors } = deps;
  const all = Object.values(connectors) as C[];
  const breakers = Object.fromEntries(Object.entries(connectors).map(([mode, c]) => [mode, (c as C).breakers])) as Partial<
    Record<Mode, BankBreakers>
  >;
  const health = startBankHealthReporter({ bus, banco, breakers, log });
  const subscription = await startBankWorker({
    bus,
    store: deps.store,
    banco,
    connectors,
    group: deps.group,
    log,
    secrets: deps.secrets,
    ...(deps.faults ? { faults: deps.faults } : {}),
  });
  return {
    connectors,
    stop: async () => {
      health.stop();
      await subscription.close();
      await Promise.all(all.map((c) => c.close()));
    },
  };
}
