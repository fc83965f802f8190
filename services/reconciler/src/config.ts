import { healthSettings, InfraSettings, ProcessSettings, settings } from '@switch/shared';
import { ReconcilerSettings } from './service';

/** The reconciler process. */
export const ReconcilerServiceSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  health: healthSettings('reconciler'),
  reconciler: ReconcilerSettings,
});
