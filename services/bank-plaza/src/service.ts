import { startBankHealthReporter, startBankWorker, type Bus, type Logger, type Mode, type Subscription } from '@switch/shared';
import { BancoPlazaConnector } from './connector';
import type { PlazaConfig } from './config';

export interface PlazaService {
  connectors: Partial<Record<Mode, BancoPlazaConnector>>;
  stop(): Promise<void>;
}

/** Serves `banco_plaza` orders of every configured mode from the bus; a mode without a URL is left alone. */
export async function startPlazaService(deps: { bus: Bus; log: Logger; config: PlazaConfig }): Promise<PlazaService> {
  const connectors: Partial<Record<Mode, BancoPlazaConnector>> = {};
  for (const mode of ['test', 'live'] as const) {
    const c = deps.config[mode];
    if (c) connectors[mode] = new BancoPlazaConnector(c);
  }
  // Breaker states reach the router (it routes around an open breaker) and the switch_breaker_state gauge.
  const health = startBankHealthReporter({ bus: deps.bus, banco: 'banco_plaza', breakers: Object.values(connectors).map((c) => c.breakers), log: deps.log });
  const subscription: Subscription = await startBankWorker({ bus: deps.bus, banco: 'banco_plaza', connectors, group: 'bank-plaza', log: deps.log });
  return {
    connectors,
    stop: async () => {
      health.stop();
      await subscription.close();
      await Promise.all(Object.values(connectors).map((c) => c.close()));
    },
  };
}
