import type { BancoId, Mode } from '@switch/core/contracts/bancos';
import type { EstadoTransaccion } from '@switch/core/estados';
import type { OperationKind } from '@switch/core/contracts/operaciones';
import type { Transaction } from '@switch/core/operation';
import type { HourOverview } from '@switch/core/overview-hours';

/**
 * The filters of a merchant's transaction list (GET /switch/v1/transacciones, the panel): always one
 * merchant and one mode; each other field narrows when given. `desde`/`hasta` bound `createdAt`
 * (ISO 8601 instants, `hasta` exclusive).
 */
export interface TransactionFilter {
  merchantId: string;
  mode: Mode;
  kind?: OperationKind;
  estado?: EstadoTransaccion;
  banco?: BancoId;
  desde?: string;
  hasta?: string;
  id?: string;
  idempotencyKey?: string;
}

/** Where a newest-first page stopped: the last item's creation time and id. */
export interface PageCursor {
  createdAt: string;
  id: string;
}

/** Where a walk of due transactions stopped: the last one's due time and id. */
export interface DueCursor {
  at: string;
  id: string;
}

/**
 * Reading transactions (the gateway's answers and lists, the panel, the reconciler's walk, the
 * router's related operation). Only the router writes them, through its transaction log.
 */
export interface TransactionReads {
  get(id: string): Promise<Transaction | null>;
  /** Oldest first. */
  listByEstado(estados: EstadoTransaccion[], limit: number): Promise<Transaction[]>;
  /**
   * Transactions whose `nextCheckAt` is at or before `now`, earliest first (ties by id), starting
   * after `after` when given: the reconciler's walk, by an index.
   */
  listDue(now: string, limit: number, after?: DueCursor): Promise<Transaction[]>;
  /** One merchant's transactions of one mode matching `filter`, newest first (ties by id), after `after` when given. */
  listForMerchant(filter: TransactionFilter, limit: number, after?: PageCursor): Promise<Transaction[]>;
  /**
   * The merchant's operations of the mode created in one Venezuelan hour (`YYYY-MM-DDTHH`), read for
   * the panel's overview (`hourFold`): one equality on the hour's key (`merchantHourKey`), served by
   * an index; the final ones are held as groups, only the open ones as operations.
   */
  overviewOfHour(merchantId: string, mode: Mode, hour: string): Promise<HourOverview>;
  /**
   * Every transaction matching `filter`, newest first (ties by id), as the store streams them: an
   * export's walk (one batch in memory at a time, whatever the number of rows).
   */
  streamForMerchant(filter: TransactionFilter): AsyncIterable<Transaction>;
}
