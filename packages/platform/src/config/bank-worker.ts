import { setting, settings } from './env';

/** Fault injection in a bank worker (drills only): unset or 0 in production. */
export const BankWorkerSettings = settings(
  {
    publishAfterBankCall: setting.number(
      'SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL',
      0,
      "drills only: probability that publishing an order's outcome fails right after the bank call",
      { min: 0, max: 1 },
    ),
  },
  'Bank worker faults',
);
