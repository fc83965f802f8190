import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import { settings } from '@switch/platform/config/env';
import { InstanceSettings } from '@switch/platform/config/instance';
import { ReconcilerSettings } from './service';

/** The reconciler process. */
export const ReconcilerServiceSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  instance: InstanceSettings,
  health: healthSettings('reconciler'),
  reconciler: ReconcilerSettings,
});
