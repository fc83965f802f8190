import { envReader } from '@switch/shared';
import { startEmulator } from './server';

/**
 * The Banco Activo emulator on its own, for local runs:
 * `PORT=8243 ACTIVO_EMULATOR_API_KEY=... node services/bank-activo/dist/emulator/main.js`.
 */
async function main(): Promise<void> {
  const env = envReader();
  const apiKey = env.optionalString('ACTIVO_EMULATOR_API_KEY') ?? env.optionalString('ACTIVO_TEST_API_KEY') ?? 'activo-test-key';
  const settle = env.int('SETTLE_DELAY_MS', 1_500, { min: -1, max: 3_600_000 });
  const emulator = await startEmulator({
    port: env.int('PORT', 8243, { min: 0, max: 65535 }),
    controlPort: env.int('CONTROL_PORT', 0, { min: 0, max: 65535 }),
    host: env.string('HOST', '127.0.0.1'),
    credentials: { apiKey },
    merchantAccount: env.optionalString('MERCHANT_ACCOUNT'),
    settleDelayMs: settle < 0 ? null : settle,
    // The sandbox's slow settlement (amounts ending in .83).
    slowSettleDelayMs: env.int('SLOW_SETTLE_DELAY_MS', 60_000, { min: 0, max: 3_600_000 }),
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
