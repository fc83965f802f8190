import { readSettings } from '@switch/platform/config/env';
import { runEmulatorProcess } from '@switch/connector-kit/emulator';
import { BncEmulatorSettings } from './config';
import { startEmulator, type Emulator } from './server';

/**
 * The BNC emulator as a process for local runs: `node services/bank-bnc/dist/emulator/main.js`.
 * Env: PORT (default 16500, BNC's QA port), HOST, BNC_EMULATOR_CLIENT_GUID, BNC_EMULATOR_MASTER_KEY,
 * BNC_EMULATOR_CLIENT_ID, BNC_EMULATOR_ACCOUNT, BNC_EMULATOR_SETTLE_DELAY_MS (default 3000; -1 =
 * only through the controls), BNC_EMULATOR_CHILDREN (child merchants, `RIF:account` separated by
 * commas, e.g. `J000000191:01910000000000000001`).
 */
function start(): Promise<Emulator> {
  const s = readSettings(BncEmulatorSettings);
  return startEmulator({
    port: s.port,
    host: s.host,
    credentials: { clientGuid: s.clientGuid, masterKey: s.masterKey, clientId: s.clientId, account: s.account },
    settleDelayMs: s.settleMs < 0 ? null : s.settleMs,
    children: children(s.children),
  });
}

function children(list: string | undefined): { clientId: string; account: string }[] {
  if (!list) return [];
  return list.split(',').map((item) => {
    const m = /^\s*([VEJGP][0-9]{1,9}):([0-9]{20})\s*$/.exec(item);
    if (!m) throw new Error(`BNC_EMULATOR_CHILDREN: "${item}" is not RIF:account (J123456789:<20 digits>)`);
    return { clientId: m[1]!, account: m[2]! };
  });
}

runEmulatorProcess('BNC', start);
