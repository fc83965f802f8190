import { BankWorkerSettings } from '@switch/platform/config/bank-worker';
import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import { settings } from '@switch/platform/config/env';

/** The simulated bank process. */
export const BankSimServiceSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  health: healthSettings('bank-sim'),
  faults: BankWorkerSettings,
});
