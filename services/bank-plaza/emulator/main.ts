import { envReader } from '@switch/shared';
import { startEmulator } from './server';

/**
 * The Banco Plaza emulator on its own, for local runs: `node services/bank-plaza/dist/emulator/main.js`.
 * PORT (default 8585), HOST (default 127.0.0.1), PLAZA_EMULATOR_API_KEY / _API_SECRET (point the connector's PLAZA_TEST_* at
 * the same), PLAZA_EMULATOR_RIF / _ACCOUNT, PLAZA_EMULATOR_SETTLE_MS (negative = settle only on demand),
 * PLAZA_EMULATOR_SLOW_SETTLE_MS (the sandbox's slow settlement, amounts ending in .83; default 60000).
 */
async function main(): Promise<void> {
  const env = envReader();
  const settle = env.int('PLAZA_EMULATOR_SETTLE_MS', 2_000, { min: -1, max: 3_600_000 });
  const emulator = await startEmulator({
    port: env.int('PORT', 8585, { min: 0, max: 65535 }),
    host: env.string('HOST', '127.0.0.1'),
    credentials: {
      apiKey: env.string('PLAZA_EMULATOR_API_KEY', 'plaza-test-key'),
      apiSecret: env.string('PLAZA_EMULATOR_API_SECRET', 'plaza-test-secret'),
    },
    merchant: { rif: env.string('PLAZA_EMULATOR_RIF', 'J123456789'), cuenta: env.string('PLAZA_EMULATOR_ACCOUNT', '01380000000000000001') },
    settleDelayMs: settle < 0 ? null : settle,
    slowSettleDelayMs: env.int('PLAZA_EMULATOR_SLOW_SETTLE_MS', 60_000, { min: 0, max: 3_600_000 }),
  });
  process.stdout.write(`Banco Plaza emulator listening on ${emulator.url}\n`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`bank-plaza emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
