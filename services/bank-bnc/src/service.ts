import { startBankHealthReporter, startBankWorker, type BankHttpClient, type Bus, type Logger, type Subscription } from '@switch/shared';
import { describeBncConfig, type BncConfig } from './config';
import { BncConnector } from './connector';

export interface BncService {
  connectors: { live?: BncConnector };
  stop(): Promise<void>;
}

/**
 * Serves live `bnc` orders from the bus (group `bank-bnc`); test-mode `bnc` belongs to the simulated
 * bank's group. Without a live configuration nothing subscribes, so no order is taken and dropped.
 */
export async function startBncService(deps: { bus: Bus; log: Logger; config: BncConfig; http?: BankHttpClient; now?: () => Date }): Promise<BncService> {
  const { bus, log, config } = deps;
  if (!config.live) {
    log.warn('BNC_LIVE_URL not set: no live BNC connector, bnc live orders are left on the bus');
    return { connectors: {}, stop: async () => {} };
  }
  const live = new BncConnector(config.live, { http: deps.http, now: deps.now });
  // Breaker states reach the router (it routes around an open breaker) and the switch_breaker_state gauge.
  const health = startBankHealthReporter({ bus, banco: 'bnc', breakers: [live.breakers], log });
  const subscription: Subscription = await startBankWorker({ bus, banco: 'bnc', connectors: { live }, group: 'bank-bnc', log });
  log.info({ config: describeBncConfig(config) }, 'BNC live connector ready');
  return {
    connectors: { live },
    stop: async () => {
      health.stop();
      await subscription.close();
      await live.close();
    },
  };
}
