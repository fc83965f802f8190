import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import { settings } from '@switch/platform/config/env';
import { ReconcilerSettings } from './service';

/** The reconciler process. */
export const ReconcilerServiceSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  health: healthSettings('reconciler'),
  reconciler: ReconcilerSettings,
});
