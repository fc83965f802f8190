import { startBankWorker, type BankHttpClient, type Bus, type Logger, type Mode } from '@switch/shared';
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
  for (const connector of Object.values(connectors)) {
    connector.breakers.onStateChange((banco, operation, state) => deps.log.warn({ banco, operation, state }, 'bank circuit breaker changed state'));
  }
  const subscription = await startBankWorker({ bus: deps.bus, banco: 'bancaribe', connectors, group: 'bank-bancaribe', log: deps.log });
  return {
    connectors,
    stop: async () => {
      await subscription.close();
      await Promise.all(Object.values(connectors).map((c) => c.close()));
    },
  };
}
