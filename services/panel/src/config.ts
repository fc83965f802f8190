import { randomBytes } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { ConfigError, readSettings, setting, settings, type EnvSource } from '@switch/platform/config/env';
import { DestinationSettings, destinationPolicy, RotationSettings } from '@switch/platform/config/webhooks';
import type { DestinationPolicy } from '@switch/platform/runtime/destination';
import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import { InstanceSettings } from '@switch/platform/config/instance';
import { portSetting } from '@switch/platform/config/ports';
import { RoutingSettings } from '@switch/platform/config/routing';

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

/** The panel's sessions and sign-in (also read by the embedded switch, which serves the panel at `/panel`). */
export const PanelSettings = settings(
  {
    sessionSecret: setting.optionalString(
      'SWITCH_PANEL_SESSION_SECRET',
      'signs the session cookie, at least 32 characters, the same on every replica; unset: sessions end with the process',
      { defaultText: 'random per start' },
    ),
    cookieSecure: setting.oneOf(
      'SWITCH_PANEL_COOKIE_SECURE',
      ['auto', 'true', 'false'],
      'auto',
      '`auto`: `Secure` and `SameSite=Strict` when the request came over https, else `SameSite=Lax` without `Secure`',
    ),
    sessionIdleMinutes: setting.int('SWITCH_PANEL_SESSION_IDLE_MIN', 30, 'minutes without a request after which a session ends', {
      min: 1,
      max: 24 * 60,
    }),
    loginAttempts: setting.int(
      'SWITCH_PANEL_LOGIN_ATTEMPTS',
      10,
      'passwords checked per e-mail address and per source address in 15 minutes; past it 429',
      { min: 1, max: 1000 },
    ),
    publicUrl: setting.string(
      'SWITCH_PUBLIC_URL',
      '',
      "the merchant API's public base URL, shown in the ready `curl` beside a new key; invitation and reset links are absolute under it",
    ),
  },
  'Panel',
);

export const PanelConfigSettings = settings({ panel: PanelSettings, destinations: DestinationSettings, rotation: RotationSettings });

/** The panel's own process (`services/panel/src/main.ts`). */
export const PanelProcessSettings = settings(
  {
    host: setting.string('PANEL_HOST', '127.0.0.1', "address of the panel's own process (served under `/panel`)"),
    port: portSetting('panel-web', "port of the panel's own process"),
    queryTimeoutMs: setting.int('SWITCH_QUERY_TIMEOUT_MS', 10_000, 'wait for a balance or statement read (as the gateway)', {
      min: 100,
      max: 60_000,
    }),
    trustProxy: setting.int('SWITCH_TRUST_PROXY', 0, 'proxy hops believed for the client address and https (Kubernetes: 1)', {
      min: 0,
      max: 10,
    }),
    connectionTimeoutMs: setting.int('SWITCH_HTTP_CONNECTION_TIMEOUT_MS', 30_000, 'a socket with no traffic for this long is destroyed', {
      min: 500,
      max: 600_000,
    }),
    requestTimeoutMs: setting.int('SWITCH_HTTP_REQUEST_TIMEOUT_MS', 10_000, 'the whole request must arrive within this', {
      min: 500,
      max: 300_000,
    }),
    keepAliveTimeoutMs: setting.int('SWITCH_HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 'an idle keep-alive connection closes after this', {
      min: 100,
      max: 600_000,
    }),
  },
  'Panel process',
);

export const PanelServiceSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  instance: InstanceSettings,
  routing: RoutingSettings,
  health: healthSettings('panel'),
  server: PanelProcessSettings,
  config: PanelConfigSettings,
});

/** `listening`: the ports this process listens on, never a webhook destination. */
export function panelConfig(s: Static<typeof PanelConfigSettings>, listening: readonly number[] = []): PanelConfig {
  const secret = s.panel.sessionSecret;
  if (secret !== undefined && secret.length < 32) throw new ConfigError('SWITCH_PANEL_SESSION_SECRET', 'must be at least 32 characters');
  const secure = s.panel.cookieSecure;
  return {
    sessionSecret: secret ?? randomBytes(32).toString('base64url'),
    cookieSecure: secure === 'auto' ? 'auto' : secure === 'true',
    sessionIdleMinutes: s.panel.sessionIdleMinutes,
    loginAttemptsPer15Min: s.panel.loginAttempts,
    webhookDestinations: destinationPolicy(s.destinations, listening),
    rotationOverlapSeconds: s.rotation.overlapSeconds,
  };
}

/** The panel's configuration from `source` (by default the process environment). */
export function loadPanelConfig(source?: EnvSource): PanelConfig {
  return panelConfig(readSettings(PanelConfigSettings, source));
}
