import { BankWorkerSettings } from '@switch/platform/config/bank-worker';
import { ConfigError, readVariables, setting, settings, type EnvSource } from '@switch/platform/config/env';
import { DEFAULT_BREAKER } from '@switch/connector-kit/send';
import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import type { BncConnectorConfig } from './connector';

/**
 * BNC's live configuration (`BNC_LIVE_*`). Test mode `bnc` is the simulated bank (services/bank-sim),
 * so only live exists here; without `BNC_LIVE_URL` there is no connector at all.
 *
 *   BNC_LIVE_URL                 base of the API, e.g. https://servicios.bncenlinea.com:16000/api
 *   BNC_LIVE_CLIENT_GUID         36-char ClientGUID issued by BNC
 *   BNC_LIVE_MASTER_KEY          MasterKey (secret; used for Auth/LogOn only)
 *   BNC_LIVE_CLIENT_ID           merchant RIF as BNC knows it (ClientID), e.g. J123456789
 *   BNC_LIVE_ACCOUNT             merchant's 20-digit BNC account
 *   BNC_LIVE_TERMINAL            C2P terminal id
 *   BNC_LIVE_CHILD_CLIENT_ID     optional sub-merchant RIF; BNC_LIVE_BRANCH_ID optional branch
 *   BNC_LIVE_TIMEOUT_MS          answer timeout (default 30000); BNC_LIVE_CONNECT_TIMEOUT_MS (3000)
 *   BNC_LIVE_LOOKBACK_DAYS       statement days searched for P2P/C2P status and reversal (default 3)
 *   BNC_LIVE_BREAKER_THRESHOLD_PCT, _VOLUME, _RESET_MS, _WINDOW_MS   circuit breaker
 */
export interface BncConfig {
  live?: BncConnectorConfig;
}

const PREFIX = 'BNC_LIVE_';

const v = (name: string, description: string) => ({ [`${PREFIX}${name}`]: setting.optionalString(`${PREFIX}${name}`, description) });
const n = (name: string, fallback: number, description: string, min: number, max: number) => ({
  [`${PREFIX}${name}`]: setting.int(`${PREFIX}${name}`, fallback, description, { min, max }),
});

/** BNC's live settings (`BNC_LIVE_*`). */
export const BncSettings = settings(
  {
    ...v('URL', "BNC's API, e.g. `https://servicios.bncenlinea.com:16000/api`; unset: no live connector"),
    ...v('CLIENT_GUID', '36-character ClientGUID issued by BNC; required with the URL'),
    ...v('MASTER_KEY', 'MasterKey (secret; used for Auth/LogOn only); required with the URL'),
    ...v('CLIENT_ID', 'the merchant RIF as BNC knows it (ClientID), e.g. J123456789; required with the URL'),
    ...v('ACCOUNT', "the merchant's 20-digit BNC account; required with the URL"),
    ...v('TERMINAL', 'C2P terminal id; required with the URL'),
    ...v('CHILD_CLIENT_ID', 'sub-merchant RIF'),
    ...v('BRANCH_ID', 'branch id'),
    ...n('TIMEOUT_MS', 30_000, 'answer timeout', 100, 300_000),
    ...n('CONNECT_TIMEOUT_MS', 3_000, 'connect timeout', 50, 60_000),
    ...n('LOOKBACK_DAYS', 3, 'statement days searched for P2P/C2P status and reversal', 1, 31),
    ...n('BREAKER_THRESHOLD_PCT', DEFAULT_BREAKER.errorThresholdPercentage, 'breaker: failure percentage that opens it', 1, 100),
    ...n('BREAKER_VOLUME', DEFAULT_BREAKER.volumeThreshold, 'breaker: calls in the window before it may open', 1, 10_000),
    ...n('BREAKER_RESET_MS', DEFAULT_BREAKER.resetTimeoutMs, 'breaker: how long it stays open before a trial', 10, 3_600_000),
    ...n('BREAKER_WINDOW_MS', DEFAULT_BREAKER.rollingCountTimeoutMs, 'breaker: the rolling window', 100, 3_600_000),
  },
  'BNC (live)',
);

export function loadBncConfig(source?: EnvSource): BncConfig {
  const env = readVariables(BncSettings, source);
  const url = env(`${PREFIX}URL`);
  if (!url) return {};
  if (!/^https?:\/\/[^\s/]+/.test(url)) throw new ConfigError(`${PREFIX}URL`, `"${url}" is not an http(s) URL`);

  const required = (name: string, pattern?: RegExp, shape?: string): string => {
    const v = env(`${PREFIX}${name}`);
    if (!v) throw new ConfigError(`${PREFIX}${name}`, `is required when ${PREFIX}URL is set`);
    // The value itself is not echoed: some of these are secrets.
    if (pattern && !pattern.test(v)) throw new ConfigError(`${PREFIX}${name}`, `is not ${shape}`);
    return v;
  };
  const optional = (name: string, pattern: RegExp, shape: string): string | undefined => {
    const v = env(`${PREFIX}${name}`);
    if (v !== undefined && !pattern.test(v)) throw new ConfigError(`${PREFIX}${name}`, `is not ${shape}`);
    return v;
  };
  const int = (name: string) => env<number>(`${PREFIX}${name}`);

  return {
    live: {
      baseUrl: url.replace(/\/+$/, ''),
      clientGuid: required(
        'CLIENT_GUID',
        /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/,
        'a 36-character GUID',
      ),
      masterKey: required('MASTER_KEY'),
      clientId: required('CLIENT_ID', /^[VEJGP][0-9]{1,9}$/, 'a letter V, E, J, G or P and 1 to 9 digits'),
      account: required('ACCOUNT', /^[0-9]{20}$/, 'a 20-digit account number'),
      terminal: required('TERMINAL', /^[A-Za-z0-9]{1,20}$/, 'an alphanumeric terminal id'),
      childClientId: optional('CHILD_CLIENT_ID', /^[VEJGP][0-9]{1,9}$/, 'a letter V, E, J, G or P and 1 to 9 digits'),
      branchId: optional('BRANCH_ID', /^[A-Za-z0-9]{1,20}$/, 'an alphanumeric branch id'),
      timeoutMs: int('TIMEOUT_MS'),
      connectTimeoutMs: int('CONNECT_TIMEOUT_MS'),
      lookbackDays: int('LOOKBACK_DAYS'),
      breaker: {
        errorThresholdPercentage: int('BREAKER_THRESHOLD_PCT'),
        volumeThreshold: int('BREAKER_VOLUME'),
        resetTimeoutMs: int('BREAKER_RESET_MS'),
        rollingCountTimeoutMs: int('BREAKER_WINDOW_MS'),
      },
    },
  };
}

/** The configuration as it may be logged: the MasterKey never leaves the process. */
export function describeBncConfig(config: BncConfig): Record<string, unknown> {
  if (!config.live) return { live: null };
  const { masterKey: _secret, ...rest } = config.live;
  return { live: { ...rest, masterKey: '[redacted]' } };
}

/** Everything the process reads besides the bank's own settings (`loadBncConfig`). */
export const BncProcessSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  health: healthSettings('bank-bnc'),
  faults: BankWorkerSettings,
});
