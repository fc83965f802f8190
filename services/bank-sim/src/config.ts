import { BankWorkerSettings } from '@switch/platform/config/bank-worker';
import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import { setting, settings } from '@switch/platform/config/env';

/** The simulated bank process. */
export const BankSimServiceSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  health: healthSettings('bank-sim'),
  faults: BankWorkerSettings,
  sim: settings(
    {
      journal: setting.optionalString(
        'SWITCH_SIM_JOURNAL',
        'file where every order received is appended before it is answered and replayed at start: the simulated ledger survives a restart (`npm run stack` sets it)',
      ),
    },
    'Simulated bank',
  ),
});
