import {
  serveBank,
  type BankHttpClient,
  type BankService,
  type Bus,
  type Logger,
  type Sealer,
  type BankWorkerFaults,
  type BankWorkerStore,
  type Mode,
} from '@switch/shared';
import { BancaribeConnector } from './connector';
import type { BancaribeConfig } from './config';

export type BancaribeService = BankService<BancaribeConnector>;

/**
 * Serves `bancaribe` orders and reads of every mode that has a configuration; a mode without one is
 * left to other workers (there are none: its requests wait on the topic until it is configured).
 */
export async function startBancaribeService(deps: {
  bus: Bus;
  store: BankWorkerStore;
  log: Logger;
  secrets: Pick<Sealer, 'open'>;
  /** Drills only (`SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL`); default none. */
  faults?: BankWorkerFaults;
  config: BancaribeConfig;
  http?: BankHttpClient;
  now?: () => Date;
}): Promise<BancaribeService> {
  const connectors: Partial<Record<Mode, BancaribeConnector>> = {};
  for (const mode of ['test', 'live'] as const) {
    const c = deps.config[mode];
    if (c)
      connectors[mode] = new BancaribeConnector(c, { ...(deps.http ? { http: deps.http } : {}), ...(deps.now ? { now: deps.now } : {}) });
  }
  return serveBank({
    bus: deps.bus,
    store: deps.store,
    log: deps.log,
    banco: 'bancaribe',
    group: 'bank-bancaribe',
    connectors,
    secrets: deps.secrets,
    ...(deps.faults ? { faults: deps.faults } : {}),
  });
}
