import { ConfigError, DEFAULT_BREAKER, envReader, type BreakerOptions, type EnvReader, type Mode } from '@switch/shared';

/** What one connector needs: where the bank is, the merchant's key and identity there. */
export interface ActivoConnectorConfig {
  baseUrl: string;
  /** WSO2 subscription key, sent as the `apikey` header. Secret: never logged. */
  apiKey: string;
  /** Merchant RIF as affiliated at the bank (`rif_comercio`, `cedula_pagador`). */
  rif: string;
  /** Merchant account: credited by collections and debited by payouts when the order names none. */
  cuenta?: string;
  /** Merchant pago-móvil phone (`telefono_comercio`, `telefono_pagador`) when the order names none. */
  telefono?: string;
  /** `usuario` of the C2P/P2P services; defaults to the RIF. */
  usuario?: string;
  /** `ip` of the C2P/P2P services: the origin address registered at the bank. */
  ip?: string;
  timeoutMs: number;
  connectTimeoutMs?: number;
  breaker?: BreakerOptions;
}

export type ActivoConfig = Partial<Record<Mode, ActivoConnectorConfig>>;

const PREFIX = 'ACTIVO';

/**
 * `ACTIVO_TEST_*` and `ACTIVO_LIVE_*`; a mode without `_URL` has no connector. Timeouts and breaker
 * settings are shared by both modes.
 */
export function loadActivoConfig(env: EnvReader = envReader()): ActivoConfig {
  const timeoutMs = env.int(`${PREFIX}_TIMEOUT_MS`, 30_000, { min: 100, max: 300_000 });
  const connectTimeoutMs = env.int(`${PREFIX}_CONNECT_TIMEOUT_MS`, 3_000, { min: 50, max: 60_000 });
  const breaker: BreakerOptions = {
    errorThresholdPercentage: env.int(`${PREFIX}_BREAKER_ERROR_PCT`, DEFAULT_BREAKER.errorThresholdPercentage, { min: 1, max: 100 }),
    volumeThreshold: env.int(`${PREFIX}_BREAKER_VOLUME`, DEFAULT_BREAKER.volumeThreshold, { min: 1, max: 10_000 }),
    resetTimeoutMs: env.int(`${PREFIX}_BREAKER_RESET_MS`, DEFAULT_BREAKER.resetTimeoutMs, { min: 10, max: 3_600_000 }),
    rollingCountTimeoutMs: env.int(`${PREFIX}_BREAKER_WINDOW_MS`, DEFAULT_BREAKER.rollingCountTimeoutMs, { min: 100, max: 3_600_000 }),
  };
  const config: ActivoConfig = {};
  for (const mode of ['test', 'live'] as const) {
    const m = loadMode(env, `${PREFIX}_${mode.toUpperCase()}`);
    if (m) config[mode] = { ...m, timeoutMs, connectTimeoutMs, breaker };
  }
  return config;
}

function loadMode(env: EnvReader, p: string): Omit<ActivoConnectorConfig, 'timeoutMs'> | undefined {
  const baseUrl = env.optionalString(`${p}_URL`);
  if (baseUrl === undefined) return undefined;
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new ConfigError(`${p}_URL`, `"${baseUrl}" is not an http(s) URL`);
  const apiKey = env.optionalString(`${p}_API_KEY`);
  // The value is a secret: the message names the variable only.
  if (apiKey === undefined) throw new ConfigError(`${p}_API_KEY`, `is required when ${p}_URL is set`);
  const rifRaw = env.optionalString(`${p}_RIF`);
  if (rifRaw === undefined) throw new ConfigError(`${p}_RIF`, `is required when ${p}_URL is set`);
  const rif = rifRaw.replace(/-/g, '').toUpperCase();
  if (!/^[VEJGP][0-9]{1,9}$/.test(rif)) throw new ConfigError(`${p}_RIF`, `"${rifRaw}" is not a RIF such as J080066227`);
  const cuenta = env.optionalString(`${p}_ACCOUNT`);
  if (cuenta !== undefined && !/^[0-9]{20}$/.test(cuenta)) throw new ConfigError(`${p}_ACCOUNT`, 'must be a 20-digit account number');
  const telefono = env.optionalString(`${p}_PHONE`);
  if (telefono !== undefined && !/^0[0-9]{10}$/.test(telefono))
    throw new ConfigError(`${p}_PHONE`, `"${telefono}" must be an 11-digit phone with a leading 0`);
  const out: Omit<ActivoConnectorConfig, 'timeoutMs'> = { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, rif };
  if (cuenta) out.cuenta = cuenta;
  if (telefono) out.telefono = telefono;
  const usuario = env.optionalString(`${p}_USUARIO`);
  if (usuario) out.usuario = usuario;
  const ip = env.optionalString(`${p}_IP`);
  if (ip) out.ip = ip;
  return out;
}
