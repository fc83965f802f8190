import { ConfigError, DEFAULT_BREAKER, envReader, MODES, replicaId, type BreakerOptions, type EnvReader, type Mode } from '@switch/shared';

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

/**
 * `PLAZA_<MODE>_URL` switches a mode on; its credentials and merchant data are then required:
 * `PLAZA_<MODE>_API_KEY`, `_API_SECRET`, `_RIF`, `_ACCOUNT`, optional `_PHONE`, `_CLIENT_IP`.
 * Shared: `PLAZA_TIMEOUT_MS`, `PLAZA_CONNECT_TIMEOUT_MS`, `PLAZA_BREAKER_*`, `PLAZA_REPLICA_ID` (0-999, unique per replica; default from `HOSTNAME`). Values are never echoed
 * in errors (secrets), only the variable's name and the rule broken.
 */
export function loadPlazaConfig(env: EnvReader = envReader()): PlazaConfig {
  const replica = replicaId(env.optionalString('PLAZA_REPLICA_ID'), env.optionalString('HOSTNAME'));
  const timeoutMs = env.int('PLAZA_TIMEOUT_MS', 30_000, { min: 100, max: 300_000 });
  const connectTimeoutMs = env.int('PLAZA_CONNECT_TIMEOUT_MS', 3_000, { min: 100, max: 60_000 });
  const breaker: BreakerOptions = {
    errorThresholdPercentage: env.int('PLAZA_BREAKER_ERROR_PERCENT', DEFAULT_BREAKER.errorThresholdPercentage, { min: 1, max: 100 }),
    volumeThreshold: env.int('PLAZA_BREAKER_VOLUME', DEFAULT_BREAKER.volumeThreshold, { min: 1, max: 10_000 }),
    resetTimeoutMs: env.int('PLAZA_BREAKER_RESET_MS', DEFAULT_BREAKER.resetTimeoutMs, { min: 100, max: 3_600_000 }),
    rollingCountTimeoutMs: env.int('PLAZA_BREAKER_WINDOW_MS', DEFAULT_BREAKER.rollingCountTimeoutMs, { min: 100, max: 3_600_000 }),
  };
  const config: PlazaConfig = {};
  for (const mode of MODES) {
    const prefix = `PLAZA_${mode.toUpperCase()}_`;
    const url = env.optionalString(`${prefix}URL`);
    if (url === undefined) continue;
    const required = (name: string, rule: RegExp, what: string): string => {
      const v = env.optionalString(prefix + name);
      if (v === undefined) throw new ConfigError(prefix + name, `is required when ${prefix}URL is set`);
      if (!rule.test(v)) throw new ConfigError(prefix + name, `must be ${what}`);
      return v;
    };
    const optional = (name: string, rule: RegExp, what: string): string | undefined => {
      const v = env.optionalString(prefix + name);
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
