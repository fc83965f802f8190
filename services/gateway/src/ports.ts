import type { Claims, Counters, DeliveryQueue, MerchantDirectory, PanelAccess, TransactionReads } from '@switch/shared';

/**
 * The ports the gateway is handed: the merchant directory (keys, endpoints, accounts), the claims that
 * make a request run once, the counters of its throttling, the delivery queue (listing and
 * redelivering webhooks), the transactions it reads, and the panel's users and audit log (the admin
 * API's owner invitations). No transaction log and no order journal: only the router writes a
 * transaction, only bank workers call banks.
 */
export type GatewayStore = MerchantDirectory &
  Claims &
  Counters &
  DeliveryQueue &
  PanelAccess & {
    transactions: TransactionReads;
    ping(): Promise<void>;
  };
