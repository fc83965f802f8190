import type { Static } from '@sinclair/typebox';
import { DEFAULT_CORE_POLICY, type CorePolicy } from '@switch/core/transaction-core';
import { setting, settings } from './env';

const DAY_MS = 24 * 3_600_000;

/** The transaction core's deadlines and backoff: the router computes every due time with them. */
export const CorePolicySettings = settings(
  {
    orderDeadlineMs: setting.int(
      'SWITCH_ORDER_DEADLINE_MS',
      DEFAULT_CORE_POLICY.orderDeadlineMs,
      'an order with no answer after this long becomes DESCONOCIDA and its status is asked (never resent)',
      { min: 1_000, max: DAY_MS },
    ),
    statusDeadlineMs: setting.int(
      'SWITCH_STATUS_DEADLINE_MS',
      DEFAULT_CORE_POLICY.statusDeadlineMs,
      'a status query with no answer after this long is asked again',
      { min: 1_000, max: DAY_MS },
    ),
    backoffMs: setting.durations(
      'SWITCH_RECONCILER_BACKOFF_MS',
      DEFAULT_CORE_POLICY.backoffMs,
      "waits between settlement checks of one open operation; the router writes each operation's next due time (`nextCheckAt`) with it",
    ),
    notFoundSettleMs: setting.int(
      'SWITCH_NOT_FOUND_SETTLE_MS',
      DEFAULT_CORE_POLICY.notFoundSettleMs,
      'how long a bank\'s "no such order" must hold before a DESCONOCIDA is rejected',
      { min: 0, max: 7 * DAY_MS },
    ),
  },
  'Transaction core (router)',
);

export const corePolicy = (s: Static<typeof CorePolicySettings>): CorePolicy => ({ ...s });
