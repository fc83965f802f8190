import type { Claims } from '@switch/platform/ports/claims';
import type { Counters } from '@switch/platform/ports/counters';
import type { DeliveryQueue } from '@switch/platform/ports/delivery-queue';
import type { ExpectedPayments } from '@switch/platform/ports/expected-payments';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import type { OverviewSummaries } from '@switch/platform/ports/overview-summaries';
import type { PanelAccess } from '@switch/platform/ports/panel-access';
import type { TransactionReads } from '@switch/platform/ports/transaction-reads';
import type { MovementClaims } from '@switch/platform/ports/movement-claims';
import type { Verifications } from '@switch/platform/ports/verifications';

/**
 * The ports the panel is handed: its own access records (users, invitations, sessions, audit), the
 * merchant directory (keys, endpoints, accounts), the delivery queue (webhook deliveries), the
 * transactions it lists with their reverso claims, the expected payments it lists, the overview's
 * hour summaries (read here, written by its fold), the counters of its sign-in throttle, and the
 * movement claims and kept answers of the cashier's payment verifications.
 */
export type PanelStore = PanelAccess &
  MerchantDirectory &
  DeliveryQueue &
  Pick<Counters, 'counters'> &
  Pick<Claims, 'reversals'> &
  MovementClaims &
  Verifications &
  OverviewSummaries &
  Pick<ExpectedPayments, 'expectedPayments'> & { transactions: TransactionReads };
