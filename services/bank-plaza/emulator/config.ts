import { setting, settings } from '@switch/platform/config/env';

/** The emulator run on its own (`node services/bank-plaza/dist/emulator/main.js`). */
export const PlazaEmulatorSettings = settings(
  {
    port: setting.int('PORT', 8585, 'port', { min: 0, max: 65535 }),
    host: setting.string('HOST', '127.0.0.1', 'address'),
    apiKey: setting.string('PLAZA_EMULATOR_API_KEY', 'plaza-test-key', "the API key it accepts (the connector's `PLAZA_TEST_API_KEY`)"),
    apiSecret: setting.string('PLAZA_EMULATOR_API_SECRET', 'plaza-test-secret', 'the API secret it accepts'),
    rif: setting.string('PLAZA_EMULATOR_RIF', 'J123456789', "the merchant's RIF"),
    account: setting.string('PLAZA_EMULATOR_ACCOUNT', '01380000000000000001', "the merchant's account"),
    settleMs: setting.int('PLAZA_EMULATOR_SETTLE_MS', 2_000, 'how long operations stay pending (negative: only on demand)', {
      min: -1,
      max: 3_600_000,
    }),
    slowSettleMs: setting.int('PLAZA_EMULATOR_SLOW_SETTLE_MS', 60_000, "the sandbox's slow settlement (amounts ending in .83)", {
      min: 0,
      max: 3_600_000,
    }),
  },
  'Banco Plaza emulator',
);
