import {
  serveBank,
  type BankHttpClient,
  type BankService,
  type Bus,
  type Logger,
  type Sealer,
  type BankWorkerFaults,
  type BankWorkerStore,
} from '@switch/shared';
import { describeBncConfig, type BncConfig } from './config';
import { BncConnector } from './connector';

export type BncService = BankService<BncConnector>;

/**
 * Serves live `bnc` orders from the bus (group `bank-bnc`); test-mode `bnc` belongs to the simulated
 * bank's group. Without a live configuration nothing subscribes, so no order is taken and dropped.
 */
export async function startBncService(deps: {
  bus: Bus;
  store: BankWorkerStore;
  log: Logger;
  secrets: Pick<Sealer, 'open'>;
  /** Drills only (`SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL`); default none. */
  faults?: BankWorkerFaults;
  config: BncConfig;
  http?: BankHttpClient;
  now?: () => Date;
}): Promise<BncService> {
  const { bus, log, config } = deps;
  if (!config.live) {
    log.warn('BNC_LIVE_URL not set: no live BNC connector, bnc live orders are left on the bus');
    return { connectors: {}, stop: async () => {} };
  }
  const live = new BncConnector(config.live, { http: deps.http, now: deps.now });
  const service = await serveBank({
    bus,
    store: deps.store,
    log,
    banco: 'bnc',
    group: 'bank-bnc',
    connectors: { live },
    secrets: deps.secrets,
    ...(deps.faults ? { faults: deps.faults } : {}),
  });
  log.info({ config: describeBncConfig(config) }, 'BNC live connector ready');
  return service;
}
