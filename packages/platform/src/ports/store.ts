import type { Claims } from './claims';
import type { Counters } from './counters';
import type { DeliveryQueue } from './delivery-queue';
import type { ExpectedPayments } from './expected-payments';
import type { Leases } from './leases';
import type { OverviewSummaries } from './overview-summaries';
import type { MerchantDirectory } from './merchant-directory';
import type { MovementClaims } from './movement-claims';
import type { Verifications } from './verifications';
import type { OrderJournal } from './order-journal';
import type { PanelAccess } from './panel-access';
import type { SimulatedLedger } from '@switch/connector-kit/simulated-ledger';
import type { TransactionLog } from './transaction-log';
import type { TransactionReads } from './transaction-reads';

export class DuplicateRecord extends Error {
  constructor(
    readonly collection: string,
    readonly id: string,
  ) {
    super(`${collection} ${id} already exists`);
  }
}

/**
 * Durable state: every port, as one adapter (memory or Mongo) implements them. Only wiring (a
 * service's `main`, the embedded switch) holds it whole; each service is handed the ports it uses.
 * Guarantees every adapter keeps (packages/platform/test/*-contract.ts): reads return copies; claims are atomic
 * (exactly one of concurrent claims wins); `transactionLog.commit` writes only when the stored version
 * is the expected one, so two writers can never both win.
 */
export interface Store
  extends MerchantDirectory,
    Claims,
    MovementClaims,
    Verifications,
    ExpectedPayments,
    Counters,
    OrderJournal,
    DeliveryQueue,
    PanelAccess,
    OverviewSummaries,
    Leases {
  /** Test mode's simulated bank's ledger (bank-sim), shared by its replicas. */
  simulatedBank: SimulatedLedger;
  transactions: TransactionReads;
  transactionLog: TransactionLog;
  ping(): Promise<void>;
  close(): Promise<void>;
}
