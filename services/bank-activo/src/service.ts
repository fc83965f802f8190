import {
  serveBank,
  type BankService,
  type Bus,
  type Logger,
  type Sealer,
  type BankWorkerFaults,
  type BankWorkerStore,
  type Mode,
} from '@switch/shared';
import { loadActivoConfig, type ActivoConfig } from './config';
import { ActivoConnector } from './connector';

export type ActivoService = BankService<ActivoConnector>;

/** Serves `banco_activo` orders for every configured mode (a mode without a URL is left alone). */
export async function startActivoService(deps: {
  bus: Bus;
  store: BankWorkerStore;
  log: Logger;
  secrets: Pick<Sealer, 'open'>;
  /** Drills only (`SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL`); default none. */
  faults?: BankWorkerFaults;
  config?: ActivoConfig;
}): Promise<ActivoService> {
  const config = deps.config ?? loadActivoConfig();
  const connectors: Partial<Record<Mode, ActivoConnector>> = {};
  for (const mode of ['test', 'live'] as const) {
    const c = config[mode];
    if (c) connectors[mode] = new ActivoConnector(c);
  }
  const service = await serveBank({
    bus: deps.bus,
    store: deps.store,
    log: deps.log,
    banco: 'banco_activo',
    group: 'bank-activo',
    connectors,
    secrets: deps.secrets,
    ...(deps.faults ? { faults: deps.faults } : {}),
  });
  deps.log.info({ modes: Object.keys(connectors) }, 'banco activo connector ready');
  return service;
}
