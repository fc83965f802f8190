import { portSetting } from '@switch/platform/config/ports';
import { setting, settings } from '@switch/platform/config/env';

/** What `npm start` itself reads; every service inside reads its own configuration from the same snapshot. */
export const EmbeddedMainSettings = settings(
  {
    logLevel: setting.string('LOG_LEVEL', 'warn', 'pino level'),
    adminToken: setting.optionalString('SWITCH_ADMIN_TOKEN', 'the operator token; unset: a random one, written to the state directory', {
      defaultText: 'random per start',
    }),
    emulators: setting.optionalBool('SWITCH_EMULATORS', 'start the bank emulators in the process and point the connectors at them', {
      defaultText: '`true` where installed (a checkout, not the image)',
    }),
    host: setting.string('HOST', '127.0.0.1', 'address of the merchant port (the panel at `/panel` too)'),
    port: portSetting('gateway', 'the merchant port'),
    stateDir: setting.optionalString('SWITCH_STATE_DIR', 'where `admin.json` (operator URL and token) is written for `npm run switch`', {
      defaultText: '`.switch` in the working directory',
    }),
  },
  'Embedded switch (`npm start`)',
);
