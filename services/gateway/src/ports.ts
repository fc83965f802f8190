import type { Claims } from '@switch/platform/ports/claims';
import type { Counters } from '@switch/platform/ports/counters';
import type { DeliveryQueue } from '@switch/platform/ports/delivery-queue';
import type { ExpectedPayments } from '@switch/platform/ports/expected-payments';
import type { Leases } from '@switch/platform/ports/leases';
import type { MovementClaims } from '@switch/platform/ports/movement-claims';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import type { OverviewSummaries } from '@switch/platform/ports/overview-summaries';
import type { PanelAccess } from '@switch/platform/ports/panel-access';
import type { TransactionReads } from '@switch/platform/ports/transaction-reads';
import type { Verifications } from '@switch/platform/ports/verifications';

/**
 * The ports the gateway is handed: the merchant directory (keys, endpoints, accounts), the claims that
 * make a request run once, the counters of its throttling, the movement claims and kept answers of
 * payment verifications, the expected payments with the cursors and the lease their matcher keeps, the delivery queue (listing and
 * redelivering webhooks), the transactions it reads, and the panel's users and audit log (the admin
 * API's owner invitations), and the overview's hour summaries (read by the panel it serves embedded). No transaction log and no order journal: only the router writes a
 * transaction, only bank workers call banks.
 */
export type GatewayStore = MerchantDirectory &
  Claims &
  MovementClaims &
  Verifications &
  Counters &
  DeliveryQueue &
  PanelAccess &
  ExpectedPayments &
  OverviewSummaries &
  Leases & {
    transactions: TransactionReads;
    ping(): Promise<void>;
  };
