import type { Bus } from '../ports/bus';
import type { OrderJournal } from '../ports/order-journal';
import { MODES, type BancoId, type Mode } from '@switch/core/contracts/bancos';
import type { Logger } from '../telemetry/logger';
import type { GuardedConnector } from '@switch/connector-kit/connector';
import type { BankBreakers, BankHttpClient } from '@switch/connector-kit/send';
import { startBankWorker, type BankWorkerFaults, type BankWorkerStore } from './bank-worker';
import { startBankHealthReporter } from './bank-health';
import type { Sealer } from './secret-box';
import type { ConnectorService, ModeConfigs } from '@switch/connector-kit/service';

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
  /** This replica's stable instance id: its breaker reports are kept apart from other replicas'. */
  replica?: string;
}): Promise<BankService<C>> {
  const { bus, log, banco, connectors } = deps;
  const all = Object.values(connectors) as C[];
  const breakers = Object.fromEntries(Object.entries(connectors).map(([mode, c]) => [mode, (c as C).breakers])) as Partial<
    Record<Mode, BankBreakers>
  >;
  const health = startBankHealthReporter({ bus, banco, breakers, log, ...(deps.replica ? { replica: deps.replica } : {}) });
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

/**
 * Serves a bank with one connector per configured mode (`serveBank`). A bank with no mode configured
 * subscribes to nothing: its orders wait on the topic until it is configured, never taken and dropped.
 */
export async function startConnectorService<M, C extends GuardedConnector>(
  service: ConnectorService<M, C>,
  deps: {
    bus: Bus;
    store: BankWorkerStore & Pick<OrderJournal, 'bankReferences'>;
    log: Logger;
    secrets: Pick<Sealer, 'open'>;
    config: ModeConfigs<M>;
    /** Drills only (`SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL`); default none. */
    faults?: BankWorkerFaults;
    http?: BankHttpClient;
    now?: () => Date;
    /** This replica's stable instance id (breaker reports); default the host name. */
    replica?: string;
  },
): Promise<BankService<C>> {
  const { log, config } = deps;
  const connectors: Partial<Record<Mode, C>> = {};
  for (const mode of MODES) {
    const c = config[mode];
    if (!c) continue;
    connectors[mode] = new service.Connector(c, { references: deps.store.bankReferences, http: deps.http, now: deps.now });
  }
  if (Object.keys(connectors).length === 0) {
    log.warn(`${service.name}: no mode configured, its orders are left on the bus`);
    return { connectors, stop: async () => {} };
  }
  const served = await serveBank({
    bus: deps.bus,
    store: deps.store,
    log,
    secrets: deps.secrets,
    banco: service.banco,
    group: service.name,
    connectors,
    ...(deps.faults ? { faults: deps.faults } : {}),
    ...(deps.replica ? { replica: deps.replica } : {}),
  });
  log.info({ modes: Object.keys(connectors), config: service.describe?.(config) }, `${service.name} ready`);
  return served;
}
