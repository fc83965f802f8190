import { DEFAULT_CORE_POLICY, type CorePolicy } from '../domain/transaction-core';
import type { EnvReader } from './env';

const DAY_MS = 24 * 3_600_000;

/**
 * The transaction core's deadlines and backoff (the router computes every due time with them):
 * `SWITCH_ORDER_DEADLINE_MS`, `SWITCH_STATUS_DEADLINE_MS`, `SWITCH_RECONCILER_BACKOFF_MS` (a list),
 * `SWITCH_NOT_FOUND_SETTLE_MS`.
 */
export function loadCorePolicy(env: EnvReader): CorePolicy {
  return {
    orderDeadlineMs: env.int('SWITCH_ORDER_DEADLINE_MS', DEFAULT_CORE_POLICY.orderDeadlineMs, { min: 1_000, max: DAY_MS }),
    statusDeadlineMs: env.int('SWITCH_STATUS_DEADLINE_MS', DEFAULT_CORE_POLICY.statusDeadlineMs, { min: 1_000, max: DAY_MS }),
    backoffMs: env.durations('SWITCH_RECONCILER_BACKOFF_MS', DEFAULT_CORE_POLICY.backoffMs),
    notFoundSettleMs: env.int('SWITCH_NOT_FOUND_SETTLE_MS', DEFAULT_CORE_POLICY.notFoundSettleMs, { min: 0, max: 7 * DAY_MS }),
  };
}
