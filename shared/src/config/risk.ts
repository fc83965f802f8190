import { parseList, type RiskPolicy } from '../domain/risk';
import { ConfigError, type EnvReader } from './env';

/**
 * Live-money controls from the environment: `SWITCH_LIVE_DAILY_LIMIT_VES` (per merchant and day),
 * `SWITCH_RISK_BLOCKED_IDS`, `SWITCH_RISK_BLOCKED_PHONES`, `SWITCH_RISK_BLOCKED_ACCOUNTS` (comma lists),
 * `SWITCH_RISK_MAX_OPS_PER_HOUR` (per subject). Unset means no such rule.
 */
export function loadRiskPolicy(env: EnvReader): RiskPolicy {
  const limit = env.optionalString('SWITCH_LIVE_DAILY_LIMIT_VES');
  if (limit !== undefined && !/^[0-9]+(\.[0-9]{1,2})?$/.test(limit))
    throw new ConfigError('SWITCH_LIVE_DAILY_LIMIT_VES', `"${limit}" is not an amount`);
  const velocity = env.optionalString('SWITCH_RISK_MAX_OPS_PER_HOUR');
  const list = (name: string, pattern: RegExp) => {
    const values = parseList(env.optionalString(name));
    for (const v of values) if (!pattern.test(v)) throw new ConfigError(name, `"${v}" is not a valid entry`);
    return values;
  };
  return {
    dailyLimitVes: limit === undefined ? null : Number(limit),
    blockedIds: list('SWITCH_RISK_BLOCKED_IDS', /^[VEJGP][0-9]{1,9}$/),
    blockedPhones: list('SWITCH_RISK_BLOCKED_PHONES', /^0[0-9]{10}$/),
    blockedAccounts: list('SWITCH_RISK_BLOCKED_ACCOUNTS', /^[0-9]{20}$/),
    maxOperationsPerSubjectPerHour: velocity === undefined ? null : env.int('SWITCH_RISK_MAX_OPS_PER_HOUR', 0, { min: 1 }),
  };
}
