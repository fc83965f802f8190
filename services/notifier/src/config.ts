import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import { InstanceSettings } from '@switch/platform/config/instance';
import { settings } from '@switch/platform/config/env';
import { NotifierConfigSettings } from './service';

/** The notifier process. */
export const NotifierServiceSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  instance: InstanceSettings,
  health: healthSettings('notifier'),
  config: NotifierConfigSettings,
});
