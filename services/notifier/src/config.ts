import { healthSettings, InfraSettings, InstanceSettings, ProcessSettings, settings } from '@switch/shared';
import { NotifierConfigSettings } from './service';

/** The notifier process. */
export const NotifierServiceSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  instance: InstanceSettings,
  health: healthSettings('notifier'),
  config: NotifierConfigSettings,
});
