import type { Claims } from '@switch/platform/ports/claims';
import type { Counters } from '@switch/platform/ports/counters';
import type { DeliveryQueue } from '@switch/platform/ports/delivery-queue';
import type { ExpectedPayments } from '@switch/platform/ports/expected-payments';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import type { PanelAccess } from '@switch/platform/ports/panel-access';
import type { TransactionReads } from '@switch/platform/ports/transaction-reads';

/**
 * The ports the panel is handed: its own access records (users, invitations, sessions, audit), the
 * merchant directory (keys, endpoints, accounts), the delivery queue (webhook deliveries), the
 * transactions it lists with their reverso claims, the expected payments it lists, and the counters of
 * its sign-in throttle.
 */
export type PanelStore = PanelAccess &
  MerchantDirectory &
  DeliveryQueue &
  Pick<Counters, 'counters'> &
  Pick<Claims, 'reversals'> &
  Pick<ExpectedPayments, 'expectedPayments'> & { transactions: TransactionReads };
