import { startBankHealthReporter, startBankWorker, type Bus, type Logger, type Mode } from '@switch/shared';
import { loadActivoConfig, type ActivoConfig } from './config';
import { ActivoConnector } from './connector';

export interface ActivoService {
  connectors: Partial<Record<Mode, ActivoConnector>>;
  stop(): Promise<void>;
}

/** Serves `banco_activo` orders for every configured mode (a mode without a URL is left alone). */
export async function startActivoService(deps: { bus: Bus; log: Logger; config?: ActivoConfig }): Promise<ActivoService> {
  const config = deps.config ?? loadActivoConfig();
  const connectors: Partial<Record<Mode, ActivoConnector>> = {};
  for (const mode of ['test', 'live'] as const) {
    const c = config[mode];
    if (c) connectors[mode] = new ActivoConnector(c);
  }
  // Breaker states reach the router (it routes around an open breaker) and the switch_breaker_state gauge.
  const health = startBankHealthReporter({ bus: deps.bus, banco: 'banco_activo', breakers: Object.values(connectors).map((c) => c.breakers), log: deps.log });
  const subscription = await startBankWorker({ bus: deps.bus, banco: 'banco_activo', connectors, group: 'bank-activo', log: deps.log });
  deps.log.info({ modes: Object.keys(connectors) }, 'banco activo connector ready');
  return {
    connectors,
    stop: async () => {
      health.stop();
      await subscription.close();
      await Promise.all(Object.values(connectors).map((c) => c.close()));
    },
  };
}
