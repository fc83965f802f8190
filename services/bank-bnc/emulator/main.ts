import { readSettings, setting, settings } from '@switch/shared';
import { startEmulator } from './server';

/**
 * The BNC emulator as a process for local runs: `node services/bank-bnc/dist/emulator/main.js`.
 * Env: PORT (default 16500, BNC's QA port), HOST, BNC_EMULATOR_CLIENT_GUID, BNC_EMULATOR_MASTER_KEY,
 * BNC_EMULATOR_CLIENT_ID, BNC_EMULATOR_ACCOUNT, BNC_EMULATOR_SETTLE_DELAY_MS (default 3000; -1 =
 * only through the controls), BNC_EMULATOR_CHILDREN (child merchants, `RIF:account` separated by
 * commas, e.g. `J000000191:01910000000000000001`).
 */
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

async function main(): Promise<void> {
  const s = readSettings(BncEmulatorSettings);
  const emulator = await startEmulator({
    port: s.port,
    host: s.host,
    credentials: { clientGuid: s.clientGuid, masterKey: s.masterKey, clientId: s.clientId, account: s.account },
    settleDelayMs: s.settleMs < 0 ? null : s.settleMs,
    children: children(s.children),
  });
  process.stdout.write(`BNC emulator listening on ${emulator.url}\n`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function children(list: string | undefined): { clientId: string; account: string }[] {
  if (!list) return [];
  return list.split(',').map((item) => {
    const m = /^\s*([VEJGP][0-9]{1,9}):([0-9]{20})\s*$/.exec(item);
    if (!m) throw new Error(`BNC_EMULATOR_CHILDREN: "${item}" is not RIF:account (J123456789:<20 digits>)`);
    return { clientId: m[1]!, account: m[2]! };
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`BNC emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
