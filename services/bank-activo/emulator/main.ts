import { readSettings } from '@switch/shared';
import { ActivoEmulatorSettings } from './config';
import { startEmulator } from './server';

/**
 * The Banco Activo emulator on its own, for local runs:
 * `PORT=8243 ACTIVO_EMULATOR_API_KEY=... node services/bank-activo/dist/emulator/main.js`.
 */

async function main(): Promise<void> {
  const s = readSettings(ActivoEmulatorSettings);
  const emulator = await startEmulator({
    port: s.port,
    controlPort: s.controlPort,
    host: s.host,
    credentials: { apiKey: s.apiKey ?? s.testApiKey ?? 'activo-test-key' },
    merchantAccount: s.merchantAccount,
    settleDelayMs: s.settleMs < 0 ? null : s.settleMs,
    slowSettleDelayMs: s.slowSettleMs,
  });
  process.stdout.write(`banco activo emulator on ${emulator.url} (controls also on ${emulator.controlUrl})\n`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`activo emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
