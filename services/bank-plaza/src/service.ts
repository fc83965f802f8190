import {
  serveBank,
  type BankService,
  type Bus,
  type Logger,
  type Sealer,
  type BankWorkerFaults,
  type BankWorkerStore,
  type OrderJournal,
  type Mode,
} from '@switch/shared';
import { BancoPlazaConnector } from './connector';
import type { PlazaConfig } from './config';

export type PlazaService = BankService<BancoPlazaConnector>;

/** Serves `banco_plaza` orders of every configured mode from the bus; a mode without a URL is left alone. */
export async function startPlazaService(deps: {
  bus: Bus;
  store: BankWorkerStore & Pick<OrderJournal, 'bankReferences'>;
  log: Logger;
  secrets: Pick<Sealer, 'open'>;
  /** Drills only (`SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL`); default none. */
  faults?: BankWorkerFaults;
  config: PlazaConfig;
}): Promise<PlazaService> {
  const connectors: Partial<Record<Mode, BancoPlazaConnector>> = {};
  for (const mode of ['test', 'live'] as const) {
    const c = deps.config[mode];
    if (c) connectors[mode] = new BancoPlazaConnector(c, { references: deps.store.bankReferences });
  }
  return serveBank({
    bus: deps.bus,
    store: deps.store,
    log: deps.log,
    banco: 'banco_plaza',
    group: 'bank-plaza',
    connectors,
    secrets: deps.secrets,
    ...(deps.faults ? { faults: deps.faults } : {}),
  });
}
