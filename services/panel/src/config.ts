import { randomBytes } from 'node:crypto';
import {
  ConfigError,
  envReader,
  loadDestinationPolicy,
  loadRotationOverlapSeconds,
  type DestinationPolicy,
  type EnvReader,
} from '@switch/shared';

export interface PanelConfig {
  /**
   * Signs the session cookie (`SWITCH_PANEL_SESSION_SECRET`, 32+ characters). Every replica needs the
   * same one; when unset (the embedded switch) each start draws its own, so sessions end with the process.
   */
  sessionSecret: string;
  /** `Secure` cookie attribute: `auto` (when the request came over https, proxies believed), true or false. */
  cookieSecure: boolean | 'auto';
  /** Idle time after which a session ends (each request extends it). */
  sessionIdleMinutes: number;
  /** Sign-in attempts per e-mail address and per source address in 15 minutes. */
  loginAttemptsPer15Min: number;
  /** Which webhook destinations may be registered (the notifier's rule, test and live mode alike). */
  webhookDestinations: DestinationPolicy;
  rotationOverlapSeconds: number;
}

export function loadPanelConfig(env: EnvReader = envReader()): PanelConfig {
  const secret = env.optionalString('SWITCH_PANEL_SESSION_SECRET');
  if (secret !== undefined && secret.length < 32) throw new ConfigError('SWITCH_PANEL_SESSION_SECRET', 'must be at least 32 characters');
  const secure = env.string('SWITCH_PANEL_COOKIE_SECURE', 'auto');
  if (!['auto', 'true', 'false'].includes(secure)) throw new ConfigError('SWITCH_PANEL_COOKIE_SECURE', 'must be auto, true or false');
  return {
    sessionSecret: secret ?? randomBytes(32).toString('base64url'),
    cookieSecure: secure === 'auto' ? 'auto' : secure === 'true',
    sessionIdleMinutes: env.int('SWITCH_PANEL_SESSION_IDLE_MIN', 30, { min: 1, max: 24 * 60 }),
    loginAttemptsPer15Min: env.int('SWITCH_PANEL_LOGIN_ATTEMPTS', 10, { min: 1, max: 1000 }),
    webhookDestinations: loadDestinationPolicy(env),
    rotationOverlapSeconds: loadRotationOverlapSeconds(env),
  };
}
