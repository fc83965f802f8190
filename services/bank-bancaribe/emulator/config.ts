import { setting, settings } from '@switch/platform/config/env';

/** The emulator run on its own (`node services/bank-bancaribe/dist/emulator/main.js`). */
export const BancaribeEmulatorSettings = settings(
  {
    port: setting.int('PORT', 8243, 'port', { min: 0, max: 65535 }),
    host: setting.string('HOST', '127.0.0.1', 'address'),
    consumerKey: setting.string('BANCARIBE_EMULATOR_CONSUMER_KEY', 'emulator-key', 'the OAuth2 client id it accepts'),
    consumerSecret: setting.string('BANCARIBE_EMULATOR_CONSUMER_SECRET', 'emulator-secret', 'the OAuth2 client secret it accepts'),
    rif: setting.optionalString('BANCARIBE_EMULATOR_MERCHANT_RIF', "the merchant's RIF"),
    telefono: setting.optionalString('BANCARIBE_EMULATOR_MERCHANT_PHONE', "the merchant's phone"),
    cuenta: setting.optionalString('BANCARIBE_EMULATOR_MERCHANT_ACCOUNT', "the merchant's account"),
    hash: setting.optionalString('BANCARIBE_EMULATOR_CLIENT_HASH', 'the client hash it accepts'),
    tokenTtlSeconds: setting.int('TOKEN_TTL_SECONDS', 3600, "tokens' lifetime", { min: 0 }),
    settleMs: setting.int('SETTLE_DELAY_MS', 2000, 'how long operations stay pending', { min: 0 }),
    slowSettleMs: setting.int('SLOW_SETTLE_DELAY_MS', 60_000, "the sandbox's slow settlement (amounts ending in .83)", { min: 0 }),
  },
  'Bancaribe emulator',
);
