import { setting, settings } from '@switch/platform/config/env';

/** The emulator run on its own (`node services/bank-bnc/dist/emulator/main.js`). */
export const BncEmulatorSettings = settings(
  {
    port: setting.int('PORT', 16500, "port (BNC's QA port)", { min: 0, max: 65535 }),
    host: setting.string('HOST', '127.0.0.1', 'address'),
    clientGuid: setting.string('BNC_EMULATOR_CLIENT_GUID', '4A074C46-DD4E-4E54-8010-B80A6A8758F4', 'the ClientGUID it accepts'),
    masterKey: setting.string('BNC_EMULATOR_MASTER_KEY', 'test-master-key', 'the MasterKey it accepts'),
    clientId: setting.string('BNC_EMULATOR_CLIENT_ID', 'J000121532', "the merchant's ClientID"),
    account: setting.string('BNC_EMULATOR_ACCOUNT', '01910001482101010049', "the merchant's account"),
    settleMs: setting.int('BNC_EMULATOR_SETTLE_DELAY_MS', 3000, 'how long operations stay pending (-1: only through the controls)', {
      min: -1,
      max: 3_600_000,
    }),
    children: setting.optionalString('BNC_EMULATOR_CHILDREN', 'child merchants, `RIF:account` separated by commas'),
  },
  'BNC emulator',
);
