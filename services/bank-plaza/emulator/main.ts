import { readSettings } from '@switch/platform/config/env';
import { runEmulatorProcess } from '@switch/connector-kit/emulator';
import { PlazaEmulatorSettings } from './config';
import { startEmulator, type Emulator } from './server';

/**
 * The Banco Plaza emulator on its own, for local runs: `node services/bank-plaza/dist/emulator/main.js`.
 * PORT (default 8585), HOST (default 127.0.0.1), PLAZA_EMULATOR_API_KEY / _API_SECRET (point the connector's PLAZA_TEST_* at
 * the same), PLAZA_EMULATOR_RIF / _ACCOUNT, PLAZA_EMULATOR_SETTLE_MS (negative = settle only on demand),
 * PLAZA_EMULATOR_SLOW_SETTLE_MS (the sandbox's slow settlement, amounts ending in .83; default 60000).
 */
function start(): Promise<Emulator> {
  const s = readSettings(PlazaEmulatorSettings);
  return startEmulator({
    port: s.port,
    host: s.host,
    credentials: { apiKey: s.apiKey, apiSecret: s.apiSecret },
    merchant: { rif: s.rif, cuenta: s.account },
    settleDelayMs: s.settleMs < 0 ? null : s.settleMs,
    slowSettleDelayMs: s.slowSettleMs,
  });
}

runEmulatorProcess('Banco Plaza', start);
