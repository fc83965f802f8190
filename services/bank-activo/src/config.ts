import { BankWorkerSettings } from '@switch/platform/config/bank-worker';
import { ConfigError, readVariables, setting, settings, type EnvSource } from '@switch/platform/config/env';
import { DEFAULT_BREAKER, type BreakerOptions } from '@switch/connector-kit/send';
import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import { MODES, type Mode } from '@switch/core/contracts/bancos';

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

type Read = ReturnType<typeof readVariables>;

const modeSettings = (mode: Mode) => {
  const p = `${PREFIX}_${mode.toUpperCase()}`;
  return {
    [`${p}_URL`]: setting.optionalString(`${p}_URL`, `Banco Activo's API in ${mode} mode; unset: no connector for this mode`),
    [`${p}_API_KEY`]: setting.optionalString(`${p}_API_KEY`, 'WSO2 subscription key (secret); required with the URL'),
    [`${p}_RIF`]: setting.optionalString(`${p}_RIF`, "the merchant's RIF as affiliated at the bank; required with the URL"),
    [`${p}_ACCOUNT`]: setting.optionalString(`${p}_ACCOUNT`, "the merchant's 20-digit account, when the order names none"),
    [`${p}_PHONE`]: setting.optionalString(`${p}_PHONE`, "the merchant's pago-móvil phone, when the order names none"),
    [`${p}_USUARIO`]: setting.optionalString(`${p}_USUARIO`, '`usuario` of the C2P/P2P services', { defaultText: 'the RIF' }),
    [`${p}_IP`]: setting.optionalString(`${p}_IP`, '`ip` of the C2P/P2P services: the origin address registered at the bank'),
  };
};

/** `ACTIVO_TEST_*` and `ACTIVO_LIVE_*`; timeouts and breaker settings are shared by both modes. */
export const ActivoSettings = settings(
  {
    ...modeSettings('test'),
    ...modeSettings('live'),
    ACTIVO_TIMEOUT_MS: setting.int('ACTIVO_TIMEOUT_MS', 30_000, 'answer timeout', { min: 100, max: 300_000 }),
    ACTIVO_CONNECT_TIMEOUT_MS: setting.int('ACTIVO_CONNECT_TIMEOUT_MS', 3_000, 'connect timeout', { min: 50, max: 60_000 }),
    ACTIVO_BREAKER_ERROR_PCT: setting.int(
      'ACTIVO_BREAKER_ERROR_PCT',
      DEFAULT_BREAKER.errorThresholdPercentage,
      'breaker: failure percentage that opens it',
      {
        min: 1,
        max: 100,
      },
    ),
    ACTIVO_BREAKER_VOLUME: setting.int(
      'ACTIVO_BREAKER_VOLUME',
      DEFAULT_BREAKER.volumeThreshold,
      'breaker: calls in the window before it may open',
      {
        min: 1,
        max: 10_000,
      },
    ),
    ACTIVO_BREAKER_RESET_MS: setting.int(
      'ACTIVO_BREAKER_RESET_MS',
      DEFAULT_BREAKER.resetTimeoutMs,
      'breaker: how long it stays open before a trial',
      {
        min: 10,
        max: 3_600_000,
      },
    ),
    ACTIVO_BREAKER_WINDOW_MS: setting.int(
      'ACTIVO_BREAKER_WINDOW_MS',
      DEFAULT_BREAKER.rollingCountTimeoutMs,
      'breaker: the rolling window',
      {
        min: 100,
        max: 3_600_000,
      },
    ),
  },
  'Banco Activo',
);

/** A mode without `_URL` has no connector. */
export function loadActivoConfig(source?: EnvSource): ActivoConfig {
  const env = readVariables(ActivoSettings, source);
  const timeoutMs = env<number>(`${PREFIX}_TIMEOUT_MS`);
  const connectTimeoutMs = env<number>(`${PREFIX}_CONNECT_TIMEOUT_MS`);
  const breaker: BreakerOptions = {
    errorThresholdPercentage: env<number>(`${PREFIX}_BREAKER_ERROR_PCT`),
    volumeThreshold: env<number>(`${PREFIX}_BREAKER_VOLUME`),
    resetTimeoutMs: env<number>(`${PREFIX}_BREAKER_RESET_MS`),
    rollingCountTimeoutMs: env<number>(`${PREFIX}_BREAKER_WINDOW_MS`),
  };
  const config: ActivoConfig = {};
  for (const mode of MODES) {
    const m = loadMode(env, `${PREFIX}_${mode.toUpperCase()}`);
    if (m) config[mode] = { ...m, timeoutMs, connectTimeoutMs, breaker };
  }
  return config;
}

function loadMode(env: Read, p: string): Omit<ActivoConnectorConfig, 'timeoutMs'> | undefined {
  const baseUrl = env(`${p}_URL`);
  if (baseUrl === undefined) return undefined;
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new ConfigError(`${p}_URL`, `"${baseUrl}" is not an http(s) URL`);
  const apiKey = env(`${p}_API_KEY`);
  // The value is a secret: the message names the variable only.
  if (apiKey === undefined) throw new ConfigError(`${p}_API_KEY`, `is required when ${p}_URL is set`);
  const rifRaw = env(`${p}_RIF`);
  if (rifRaw === undefined) throw new ConfigError(`${p}_RIF`, `is required when ${p}_URL is set`);
  const rif = rifRaw.replace(/-/g, '').toUpperCase();
  if (!/^[VEJGP][0-9]{1,9}$/.test(rif)) throw new ConfigError(`${p}_RIF`, `"${rifRaw}" is not a RIF such as J080066227`);
  const cuenta = env(`${p}_ACCOUNT`);
  if (cuenta !== undefined && !/^[0-9]{20}$/.test(cuenta)) throw new ConfigError(`${p}_ACCOUNT`, 'must be a 20-digit account number');
  const telefono = env(`${p}_PHONE`);
  if (telefono !== undefined && !/^0[0-9]{10}$/.test(telefono))
    throw new ConfigError(`${p}_PHONE`, `"${telefono}" must be an 11-digit phone with a leading 0`);
  const out: Omit<ActivoConnectorConfig, 'timeoutMs'> = { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, rif };
  if (cuenta) out.cuenta = cuenta;
  if (telefono) out.telefono = telefono;
  const usuario = env(`${p}_USUARIO`);
  if (usuario) out.usuario = usuario;
  const ip = env(`${p}_IP`);
  if (ip) out.ip = ip;
  return out;
}

/** Everything the process reads besides the bank's own settings (`loadActivoConfig`). */
export const ActivoProcessSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  health: healthSettings('bank-activo'),
  faults: BankWorkerSettings,
});
