import { startBankWorker, type Bus, type Logger, type Mode, type Subscription } from '@switch/shared';
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
  for (const [mode, connector] of Object.entries(connectors)) {
    connector.breakers.onStateChange((banco, operation, state) => deps.log.warn({ banco, mode, operation, state }, 'bank breaker changed state'));
  }
  const subscription: Subscription = await startBankWorker({ bus: deps.bus, banco: 'banco_plaza', connectors, group: 'bank-plaza', log: deps.log });
  return {
    connectors,
    stop: async () => {
      await subscription.close();
      await Promise.all(Object.values(connectors).map((c) => c.close()));
    },
  };
}
