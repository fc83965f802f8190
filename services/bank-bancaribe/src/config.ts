import { BankWorkerSettings } from '@switch/platform/config/bank-worker';
import { ConfigError, readVariables, setting, settings, type EnvSource } from '@switch/platform/config/env';
import { DEFAULT_BREAKER, type BreakerOptions } from '@switch/connector-kit/send';
import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import { MODES, type Mode } from '@switch/core/contracts/bancos';
import type { BancaribeConnectorConfig } from './connector';

/**
 * Bancaribe's settings per mode, from the environment:
 *
 * | variable (MODE = TEST or LIVE)        | meaning                                                  |
 * |---------------------------------------|----------------------------------------------------------|
 * | BANCARIBE_MODE_URL                    | API gateway; absent → no connector for that mode         |
 * | BANCARIBE_MODE_TOKEN_URL              | token endpoint (default URL + /oauth2/token)              |
 * | BANCARIBE_MODE_CONSUMER_KEY / _SECRET | OAuth2 client credentials of the merchant's application   |
 * | BANCARIBE_MODE_MERCHANT_RIF           | merchant RIF, e.g. J123456789                             |
 * | BANCARIBE_MODE_MERCHANT_PHONE         | affiliated phone, 11 digits                               |
 * | BANCARIBE_MODE_MERCHANT_ACCOUNT       | the merchant's 20-digit Bancaribe account                 |
 * | BANCARIBE_MODE_MERCHANT_NAME          | nombreComercio (default "Comercio")                       |
 * | BANCARIBE_MODE_CLIENT_HASH            | clienteHash / hash issued by the bank                     |
 * | BANCARIBE_MODE_IP                     | direccionInternet / requestIP (default 127.0.0.1)         |
 * | BANCARIBE_MODE_TERMINAL               | cajaTerminal / terminal (default SWITCH01)                |
 * | BANCARIBE_MODE_TIMEOUT_MS             | answer timeout (default 30000)                            |
 * | BANCARIBE_BREAKER_THRESHOLD_PCT, _VOLUME, _RESET_MS, _WINDOW_MS | circuit breaker          |
 *
 * Secrets are read here and never logged (`describe` prints a safe summary).
 */
export type BancaribeConfig = Partial<Record<Mode, BancaribeConnectorConfig>>;

const MODE_PREFIX: Record<Mode, string> = { test: 'BANCARIBE_TEST_', live: 'BANCARIBE_LIVE_' };

type Read = ReturnType<typeof readVariables>;

const modeSettings = (mode: Mode) => {
  const p = MODE_PREFIX[mode];
  const v = (name: string, description: string, doc = {}) => ({ [`${p}${name}`]: setting.optionalString(`${p}${name}`, description, doc) });
  return {
    ...v('URL', `Bancaribe's API gateway in ${mode} mode; unset: no connector for this mode`),
    ...v('TOKEN_URL', 'token endpoint', { defaultText: 'URL + `/oauth2/token`' }),
    ...v('CONSUMER_KEY', "OAuth2 client id of the merchant's application; required with the URL"),
    ...v('CONSUMER_SECRET', 'OAuth2 client secret (secret); required with the URL'),
    ...v('MERCHANT_RIF', 'merchant RIF, e.g. J123456789; required with the URL'),
    ...v('MERCHANT_PHONE', 'affiliated phone, 11 digits; required with the URL'),
    ...v('MERCHANT_ACCOUNT', "the merchant's 20-digit Bancaribe account; required with the URL"),
    [`${p}MERCHANT_NAME`]: setting.string(`${p}MERCHANT_NAME`, 'Comercio', '`nombreComercio`'),
    ...v('CLIENT_HASH', '`clienteHash` issued by the bank; required with the URL'),
    [`${p}IP`]: setting.string(`${p}IP`, '127.0.0.1', '`direccionInternet` / `requestIP`'),
    [`${p}TERMINAL`]: setting.string(`${p}TERMINAL`, 'SWITCH01', '`cajaTerminal` / `terminal`'),
    [`${p}TIMEOUT_MS`]: setting.int(`${p}TIMEOUT_MS`, 30_000, 'answer timeout', { min: 100, max: 300_000 }),
  };
};

/** Bancaribe's settings: per mode, and the circuit breaker shared by both. */
export const BancaribeSettings = settings(
  {
    ...modeSettings('test'),
    ...modeSettings('live'),
    BANCARIBE_BREAKER_THRESHOLD_PCT: setting.int(
      'BANCARIBE_BREAKER_THRESHOLD_PCT',
      DEFAULT_BREAKER.errorThresholdPercentage,
      'breaker: failure percentage that opens it',
      { min: 1, max: 100 },
    ),
    BANCARIBE_BREAKER_VOLUME: setting.int(
      'BANCARIBE_BREAKER_VOLUME',
      DEFAULT_BREAKER.volumeThreshold,
      'breaker: calls in the window before it may open',
      { min: 1 },
    ),
    BANCARIBE_BREAKER_RESET_MS: setting.int(
      'BANCARIBE_BREAKER_RESET_MS',
      DEFAULT_BREAKER.resetTimeoutMs,
      'breaker: how long it stays open before a trial',
      { min: 100 },
    ),
    BANCARIBE_BREAKER_WINDOW_MS: setting.int(
      'BANCARIBE_BREAKER_WINDOW_MS',
      DEFAULT_BREAKER.rollingCountTimeoutMs,
      'breaker: the rolling window',
      { min: 100 },
    ),
  },
  'Bancaribe',
);

export function loadBancaribeConfig(source?: EnvSource): BancaribeConfig {
  const env = readVariables(BancaribeSettings, source);
  const breaker: BreakerOptions = {
    errorThresholdPercentage: env<number>('BANCARIBE_BREAKER_THRESHOLD_PCT'),
    volumeThreshold: env<number>('BANCARIBE_BREAKER_VOLUME'),
    resetTimeoutMs: env<number>('BANCARIBE_BREAKER_RESET_MS'),
    rollingCountTimeoutMs: env<number>('BANCARIBE_BREAKER_WINDOW_MS'),
  };
  const config: BancaribeConfig = {};
  for (const mode of MODES) {
    const mc = loadMode(env, MODE_PREFIX[mode], breaker);
    if (mc) config[mode] = mc;
  }
  return config;
}

function loadMode(env: Read, p: string, breaker: BreakerOptions): BancaribeConnectorConfig | undefined {
  const baseUrl = env(`${p}URL`);
  if (baseUrl === undefined) return undefined;
  const required = (name: string) => {
    const v = env(`${p}${name}`);
    if (v === undefined) throw new ConfigError(`${p}${name}`, `is required when ${p}URL is set`);
    return v;
  };
  const matching = (name: string, pattern: RegExp, what: string, value = required(name)) => {
    if (!pattern.test(value)) throw new ConfigError(`${p}${name}`, `"${value}" is not ${what}`);
    return value;
  };
  const tokenUrl = env(`${p}TOKEN_URL`);
  return {
    baseUrl: url(`${p}URL`, baseUrl),
    ...(tokenUrl !== undefined ? { tokenUrl: url(`${p}TOKEN_URL`, tokenUrl) } : {}),
    consumerKey: required('CONSUMER_KEY'),
    consumerSecret: required('CONSUMER_SECRET'),
    comercio: {
      rif: matching('MERCHANT_RIF', /^[JG][0-9]{1,9}$/, 'a RIF (J or G followed by up to 9 digits)'),
      telefono: matching('MERCHANT_PHONE', /^0[0-9]{10}$/, 'an 11-digit phone with a leading 0'),
      cuenta: matching('MERCHANT_ACCOUNT', /^0114[0-9]{16}$/, 'a 20-digit Bancaribe account (0114…)'),
      nombre: env<string>(`${p}MERCHANT_NAME`),
      hash: required('CLIENT_HASH'),
      ip: env<string>(`${p}IP`),
      terminal: env<string>(`${p}TERMINAL`),
    },
    timeoutMs: env<number>(`${p}TIMEOUT_MS`),
    breaker,
  };
}

function url(variable: string, value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(variable, `"${value}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(variable, `"${value}" is not an http(s) URL`);
  return value.replace(/\/+$/, '');
}

/** What may be logged of a configuration: no secrets. */
export function describeBancaribeConfig(config: BancaribeConfig): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(config).map(([mode, c]) => [
      mode,
      { baseUrl: c.baseUrl, tokenUrl: c.tokenUrl ?? null, rif: c.comercio.rif, timeoutMs: c.timeoutMs },
    ]),
  );
}

/** Everything the process reads besides the bank's own settings (`loadBancaribeConfig`). */
export const BancaribeProcessSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  health: healthSettings('bank-bancaribe'),
  faults: BankWorkerSettings,
});
