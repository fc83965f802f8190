import { parseList, type RiskPolicy } from '@switch/core/risk';
import type { Static } from '@sinclair/typebox';
import { ConfigError, setting, settings } from './env';

/** Live-money controls (the router's). Unset means no such rule. */
export const RiskSettings = settings(
  {
    dailyLimitVes: setting.optionalString(
      'SWITCH_LIVE_DAILY_LIMIT_VES',
      'live VES per merchant per Venezuelan day (EXCEDE_LIMITE beyond); reserved by `pagar` and `cobrar` only, once per collection, not given back on a bank rejection',
    ),
    blockedIds: setting.optionalString('SWITCH_RISK_BLOCKED_IDS', 'comma-separated ids (`V12345678`) whose operations are BLOQUEO_RIESGO'),
    blockedPhones: setting.optionalString('SWITCH_RISK_BLOCKED_PHONES', 'comma-separated phones (`04141234567`), the same'),
    blockedAccounts: setting.optionalString('SWITCH_RISK_BLOCKED_ACCOUNTS', 'comma-separated 20-digit accounts, the same'),
    maxOpsPerHour: setting.optionalInt(
      'SWITCH_RISK_MAX_OPS_PER_HOUR',
      'velocity per subject per hour → BLOQUEO_RIESGO; counts `pagar` and `cobrar` only',
      { min: 1 },
    ),
  },
  'Risk (router)',
);

export function riskPolicy(s: Static<typeof RiskSettings>): RiskPolicy {
  const limit = s.dailyLimitVes;
  if (limit !== undefined && !/^[0-9]+(\.[0-9]{1,2})?$/.test(limit))
    throw new ConfigError('SWITCH_LIVE_DAILY_LIMIT_VES', `"${limit}" is not an amount`);
  const list = (name: string, value: string | undefined, pattern: RegExp) => {
    const values = parseList(value);
    for (const v of values) if (!pattern.test(v)) throw new ConfigError(name, `"${v}" is not a valid entry`);
    return values;
  };
  return {
    dailyLimitVes: limit === undefined ? null : Number(limit),
    blockedIds: list('SWITCH_RISK_BLOCKED_IDS', s.blockedIds, /^[VEJGP][0-9]{1,9}$/),
    blockedPhones: list('SWITCH_RISK_BLOCKED_PHONES', s.blockedPhones, /^0[0-9]{10}$/),
    blockedAccounts: list('SWITCH_RISK_BLOCKED_ACCOUNTS', s.blockedAccounts, /^[0-9]{20}$/),
    maxOperationsPerSubjectPerHour: s.maxOpsPerHour ?? null,
  };
}
