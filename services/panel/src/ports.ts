import type { Claims, Counters, DeliveryQueue, MerchantDirectory, PanelAccess, TransactionReads } from '@switch/shared';

/**
 * The ports the panel is handed: its own access records (users, invitations, sessions, audit), the
 * merchant directory (keys, endpoints, accounts), the delivery queue (webhook deliveries), the
 * transactions it lists with their reverso claims, and the counters of its sign-in throttle.
 */
export type PanelStore = PanelAccess &
  MerchantDirectory &
  DeliveryQueue &
  Pick<Counters, 'counters'> &
  Pick<Claims, 'reversals'> & { transactions: TransactionReads };
