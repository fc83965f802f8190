import { BankWorkerSettings } from '@switch/platform/config/bank-worker';
import { ConfigError, readVariables, setting, settings, type EnvSource } from '@switch/platform/config/env';
import { DEFAULT_BREAKER, type BreakerOptions } from '@switch/connector-kit/send';
import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import { MODES, type Mode } from '@switch/core/contracts/bancos';
import { replicaId } from '@switch/connector-kit/references';

/** What one connector needs to reach Banco Plaza in one mode. */
export interface PlazaConnectorConfig {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The merchant's own RIF (`J123456789`): the `{rif}` of the bank's paths and the creditor/debtor id. */
  rif: string;
  /** The merchant's 20-digit Banco Plaza account: collections land in it, payouts leave from it. */
  account: string;
  /** The merchant's affiliated phone (P2P `telefonoAfiliado`), 11 digits; optional. */
  phone?: string;
  /** `direccion_ip` / `ipCliente` the bank asks of the merchant's server. */
  clientIp: string;
  /** Time allowed for an answer once a request is sent; past it the order is unknown. */
  timeoutMs: number;
  connectTimeoutMs: number;
  breaker: BreakerOptions;
  /** This replica's id 0-999 among those sharing the API key: the nonce's suffix (PLAZA_REPLICA_ID, else from HOSTNAME). */
  replica?: number;
}

export type PlazaConfig = Partial<Record<Mode, PlazaConnectorConfig>>;

const modeSettings = (mode: Mode) => {
  const p = `PLAZA_${mode.toUpperCase()}_`;
  const v = (name: string, description: string) => ({ [`${p}${name}`]: setting.optionalString(`${p}${name}`, description) });
  return {
    ...v('URL', `Banco Plaza's API in ${mode} mode; unset: no connector for this mode`),
    ...v('API_KEY', 'API key; required with the URL'),
    ...v('API_SECRET', 'API secret (secret); required with the URL'),
    ...v('RIF', "the merchant's RIF, e.g. J123456789; required with the URL"),
    ...v('ACCOUNT', "the merchant's 20-digit Banco Plaza account; required with the URL"),
    ...v('PHONE', "the merchant's affiliated phone (P2P), 11 digits"),
    [`${p}CLIENT_IP`]: setting.optionalString(`${p}CLIENT_IP`, "`direccion_ip` / `ipCliente` the bank asks of the merchant's server", {
      defaultText: '`127.0.0.1`',
    }),
  };
};

/**
 * `PLAZA_<MODE>_URL` switches a mode on; its credentials and merchant data are then required. Timeouts,
 * breaker and replica id are shared by both modes. Values are never echoed in errors (secrets), only
 * the variable's name and the rule broken.
 */
export const PlazaSettings = settings(
  {
    ...modeSettings('test'),
    ...modeSettings('live'),
    PLAZA_TIMEOUT_MS: setting.int('PLAZA_TIMEOUT_MS', 30_000, 'answer timeout', { min: 100, max: 300_000 }),
    PLAZA_CONNECT_TIMEOUT_MS: setting.int('PLAZA_CONNECT_TIMEOUT_MS', 3_000, 'connect timeout', { min: 100, max: 60_000 }),
    PLAZA_BREAKER_ERROR_PERCENT: setting.int(
      'PLAZA_BREAKER_ERROR_PERCENT',
      DEFAULT_BREAKER.errorThresholdPercentage,
      'breaker: failure percentage that opens it',
      { min: 1, max: 100 },
    ),
    PLAZA_BREAKER_VOLUME: setting.int(
      'PLAZA_BREAKER_VOLUME',
      DEFAULT_BREAKER.volumeThreshold,
      'breaker: calls in the window before it may open',
      { min: 1, max: 10_000 },
    ),
    PLAZA_BREAKER_RESET_MS: setting.int(
      'PLAZA_BREAKER_RESET_MS',
      DEFAULT_BREAKER.resetTimeoutMs,
      'breaker: how long it stays open before a trial',
      { min: 100, max: 3_600_000 },
    ),
    PLAZA_BREAKER_WINDOW_MS: setting.int('PLAZA_BREAKER_WINDOW_MS', DEFAULT_BREAKER.rollingCountTimeoutMs, 'breaker: the rolling window', {
      min: 100,
      max: 3_600_000,
    }),
    PLAZA_REPLICA_ID: setting.optionalString(
      'PLAZA_REPLICA_ID',
      "this replica's id 0–999 among those sharing the API key (the nonce's suffix), unique per replica",
      { defaultText: 'from `HOSTNAME`' },
    ),
    HOSTNAME: setting.optionalString('HOSTNAME', 'the host name (a StatefulSet pod ends in its ordinal): the default replica id'),
  },
  'Banco Plaza',
);

export function loadPlazaConfig(source?: EnvSource): PlazaConfig {
  const env = readVariables(PlazaSettings, source);
  const replica = replicaId(env('PLAZA_REPLICA_ID'), env('HOSTNAME'));
  const timeoutMs = env<number>('PLAZA_TIMEOUT_MS');
  const connectTimeoutMs = env<number>('PLAZA_CONNECT_TIMEOUT_MS');
  const breaker: BreakerOptions = {
    errorThresholdPercentage: env<number>('PLAZA_BREAKER_ERROR_PERCENT'),
    volumeThreshold: env<number>('PLAZA_BREAKER_VOLUME'),
    resetTimeoutMs: env<number>('PLAZA_BREAKER_RESET_MS'),
    rollingCountTimeoutMs: env<number>('PLAZA_BREAKER_WINDOW_MS'),
  };
  const config: PlazaConfig = {};
  for (const mode of MODES) {
    const prefix = `PLAZA_${mode.toUpperCase()}_`;
    const url = env(`${prefix}URL`);
    if (url === undefined) continue;
    const required = (name: string, rule: RegExp, what: string): string => {
      const v = env(prefix + name);
      if (v === undefined) throw new ConfigError(prefix + name, `is required when ${prefix}URL is set`);
      if (!rule.test(v)) throw new ConfigError(prefix + name, `must be ${what}`);
      return v;
    };
    const optional = (name: string, rule: RegExp, what: string): string | undefined => {
      const v = env(prefix + name);
      if (v !== undefined && !rule.test(v)) throw new ConfigError(prefix + name, `must be ${what}`);
      return v;
    };
    const phone = optional('PHONE', /^0[0-9]{10}$/, '11 digits with a leading 0');
    config[mode] = {
      baseUrl: baseUrl(`${prefix}URL`, url),
      apiKey: required('API_KEY', /^\S+$/, 'a key without spaces'),
      apiSecret: required('API_SECRET', /^\S+$/, 'a secret without spaces'),
      rif: required('RIF', /^[JGVEP][0-9]{1,9}$/i, 'a RIF like J123456789').toUpperCase(),
      account: required('ACCOUNT', /^[0-9]{20}$/, 'a 20-digit account number'),
      ...(phone ? { phone } : {}),
      clientIp: optional('CLIENT_IP', /^[0-9a-fA-F:.]+$/, 'an IP address') ?? '127.0.0.1',
      timeoutMs,
      connectTimeoutMs,
      breaker,
      ...(replica !== undefined ? { replica } : {}),
    };
  }
  return config;
}

function baseUrl(variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(variable, 'is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(variable, 'must be an http(s) URL');
  if (url.username || url.password) throw new ConfigError(variable, 'must not carry credentials');
  return url.toString().replace(/\/+$/, '');
}

/** Everything the process reads besides the bank's own settings (`loadPlazaConfig`). */
export const PlazaProcessSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  health: healthSettings('bank-plaza'),
  faults: BankWorkerSettings,
});
