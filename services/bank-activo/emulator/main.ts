import { readSettings } from '@switch/platform/config/env';
import { runEmulatorProcess } from '@switch/connector-kit/emulator';
import { ActivoEmulatorSettings } from './config';
import { startEmulator, type Emulator } from './server';

/**
 * The Banco Activo emulator on its own, for local runs:
 * `PORT=8243 ACTIVO_EMULATOR_API_KEY=... node services/bank-activo/dist/emulator/main.js`.
 */
function start(): Promise<Emulator> {
  const s = readSettings(ActivoEmulatorSettings);
  return startEmulator({
    port: s.port,
    controlPort: s.controlPort,
    host: s.host,
    credentials: { apiKey: s.apiKey ?? s.testApiKey ?? 'activo-test-key' },
    merchantAccount: s.merchantAccount,
    settleDelayMs: s.settleMs < 0 ? null : s.settleMs,
    slowSettleDelayMs: s.slowSettleMs,
  });
}

runEmulatorProcess('Banco Activo', start);
