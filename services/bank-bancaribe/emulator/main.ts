import { readSettings } from '@switch/shared';
import { BancaribeEmulatorSettings } from './config';
import { startEmulator } from './server';

/**
 * The Bancaribe emulator as a process for local runs:
 * `PORT=8243 BANCARIBE_EMULATOR_CONSUMER_KEY=… BANCARIBE_EMULATOR_CONSUMER_SECRET=… node services/bank-bancaribe/dist/emulator/main.js`
 */

async function main(): Promise<void> {
  const s = readSettings(BancaribeEmulatorSettings);
  const emulator = await startEmulator({
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
  process.stdout.write(`bancaribe emulator listening on ${emulator.url}\n`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`bancaribe emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
