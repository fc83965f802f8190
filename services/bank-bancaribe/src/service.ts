import { startBankHealthReporter, startBankWorker, type BankHttpClient, type Bus, type Logger, type Mode } from '@switch/shared';
import { BancaribeConnector } from './connector';
import type { BancaribeConfig } from './config';

export interface BancaribeService {
  connectors: Partial<Record<Mode, BancaribeConnector>>;
  stop(): Promise<void>;
}

/**
 * Serves `bancaribe` orders and reads of every mode that has a configuration; a mode without one is
 * left to other workers (there are none: its requests wait on the topic until it is configured).
 */
export async function startBancaribeService(deps: {
  bus: Bus;
  log: Logger;
  config: BancaribeConfig;
  http?: BankHttpClient;
  now?: () => Date;
}): Promise<BancaribeService> {
  const connectors: Partial<Record<Mode, BancaribeConnector>> = {};
  for (const mode of ['test', 'live'] as const) {
    const c = deps.config[mode];
    if (c) connectors[mode] = new BancaribeConnector(c, { ...(deps.http ? { http: deps.http } : {}), ...(deps.now ? { now: deps.now } : {}) });
  }
  // Breaker states reach the router (it routes around an open breaker) and the switch_breaker_state gauge.
  const health = startBankHealthReporter({ bus: deps.bus, banco: 'bancaribe', breakers: Object.values(connectors).map((c) => c.breakers), log: deps.log });
  const subscription = await startBankWorker({ bus: deps.bus, banco: 'bancaribe', connectors, group: 'bank-bancaribe', log: deps.log });
  return {
    connectors,
    stop: async () => {
      health.stop();
      await subscription.close();
      await Promise.all(Object.values(connectors).map((c) => c.close()));
    },
  };
}
