import { type EnvSource, readSettings, setting, settings } from './env';
import { LISTENERS, type Listener } from './listeners';

/** The setting a listener's port is read from: its variable (0 = any free port), its default from the table. */
export function portSetting(listener: Listener, description: string) {
  const { variable, port } = LISTENERS[listener];
  return setting.int(variable, port, description, { min: 0, max: 65535 });
}

/** The port a listener binds in an environment (the deploy checks read the manifests' environments). */
export function listenPort(source: EnvSource, listener: Listener): number {
  return readSettings(settings({ port: portSetting(listener, 'the listening port') }), source).port;
}
