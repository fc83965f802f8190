import { readSettings, setting, settings } from '@switch/shared';
import { startEmulator } from './server';

/**
 * The Banco Activo emulator on its own, for local runs:
 * `PORT=8243 ACTIVO_EMULATOR_API_KEY=... node services/bank-activo/dist/emulator/main.js`.
 */
export const ActivoEmulatorSettings = settings(
  {
    port: setting.int('PORT', 8243, 'port', { min: 0, max: 65535 }),
    controlPort: setting.int('CONTROL_PORT', 0, 'port of the controls (0: any)', { min: 0, max: 65535 }),
    host: setting.string('HOST', '127.0.0.1', 'address'),
    apiKey: setting.optionalString('ACTIVO_EMULATOR_API_KEY', 'the API key it accepts', { defaultText: '`ACTIVO_TEST_API_KEY`, else `activo-test-key`' }),
    testApiKey: setting.optionalString('ACTIVO_TEST_API_KEY', "the connector's test key, accepted when `ACTIVO_EMULATOR_API_KEY` is unset"),
    merchantAccount: setting.optionalString('MERCHANT_ACCOUNT', "the merchant's account"),
    settleMs: setting.int('SETTLE_DELAY_MS', 1_500, 'how long immediate operations stay pending (negative: only through the controls)', {
      min: -1,
      max: 3_600_000,
    }),
    slowSettleMs: setting.int('SLOW_SETTLE_DELAY_MS', 60_000, "the sandbox's slow settlement (amounts ending in .83)", { min: 0, max: 3_600_000 }),
  },
  'Banco Activo emulator',
);

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
