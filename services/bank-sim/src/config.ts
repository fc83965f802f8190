import { BankWorkerSettings, healthSettings, InfraSettings, ProcessSettings, setting, settings } from '@switch/shared';

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
