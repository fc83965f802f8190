import { setting, settings } from '@switch/platform/config/env';

/** The emulator run on its own (`node services/bank-activo/dist/emulator/main.js`). */
export const ActivoEmulatorSettings = settings(
  {
    port: setting.int('PORT', 8243, 'port', { min: 0, max: 65535 }),
    controlPort: setting.int('CONTROL_PORT', 0, 'port of the controls (0: any)', { min: 0, max: 65535 }),
    host: setting.string('HOST', '127.0.0.1', 'address'),
    apiKey: setting.optionalString('ACTIVO_EMULATOR_API_KEY', 'the API key it accepts', {
      defaultText: '`ACTIVO_TEST_API_KEY`, else `activo-test-key`',
    }),
    testApiKey: setting.optionalString('ACTIVO_TEST_API_KEY', "the connector's test key, accepted when `ACTIVO_EMULATOR_API_KEY` is unset"),
    merchantAccount: setting.optionalString('MERCHANT_ACCOUNT', "the merchant's account"),
    settleMs: setting.int('SETTLE_DELAY_MS', 1_500, 'how long immediate operations stay pending (negative: only through the controls)', {
      min: -1,
      max: 3_600_000,
    }),
    slowSettleMs: setting.int('SLOW_SETTLE_DELAY_MS', 60_000, "the sandbox's slow settlement (amounts ending in .83)", {
      min: 0,
      max: 3_600_000,
    }),
  },
  'Banco Activo emulator',
);
