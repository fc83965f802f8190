import { readSettings } from '@switch/platform/config/env';
import { runEmulatorProcess } from '@switch/connector-kit/emulator';
import { BancaribeEmulatorSettings } from './config';
import { startEmulator, type Emulator } from './server';

/**
 * The Bancaribe emulator as a process for local runs:
 * `PORT=8243 BANCARIBE_EMULATOR_CONSUMER_KEY=… BANCARIBE_EMULATOR_CONSUMER_SECRET=… node services/bank-bancaribe/dist/emulator/main.js`
 */
function start(): Promise<Emulator> {
  const s = readSettings(BancaribeEmulatorSettings);
  return startEmulator({
    port: s.port,
    host: s.host,
    credentials: { consumerKey: s.consumerKey, consumerSecret: s.consumerSecret },
    merchant: {
      ...(s.rif ? { rif: s.rif } : {}),
      ...(s.telefono ? { telefono: s.telefono } : {}),
      ...(s.cuenta ? { cuenta: s.cuenta } : {}),
      ...(s.hash ? { hash: s.hash } : {}),
    },
    tokenTtlSeconds: s.tokenTtlSeconds,
    settleDelayMs: s.settleMs,
    slowSettleDelayMs: s.slowSettleMs,
  });
}

runEmulatorProcess('Bancaribe', start);
