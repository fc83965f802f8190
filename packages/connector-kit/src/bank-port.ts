import type {
  BancoId,
  Capability,
  Mode,
  Movimientos,
  MovimientosQuery,
  Saldo,
  SaldoQuery,
  CreditoRecibido,
  CreditosQuery,
} from '@switch/core/contracts/bancos';
import type { BankOutcome, OperationRequest, Rail } from '@switch/core/operation';
import type { MotivoRechazo } from '@switch/core/estados';

export interface ExecuteOrder {
  txnId: string;
  attempt: number;
  /** Unique per attempt and stable across redeliveries: the bank-side duplicate guard. */
  orderRef: string;
  mode: Mode;
  rail: Rail;
  idempotencyKey: string;
  request: OperationRequest;
  related: { id: string; referencia: string | null; rail: Rail | null } | null;
  /** The merchant the order is for. */
  merchantId?: string;
  /** The merchant's registered account at this bank (live): prefer it over a connector-wide configured account. */
  account?: OrderAccount;
}

/**
 * The merchant's registered account an order is made with (live mode), as the bank must see it: the
 * account debited or credited, its pago móvil phone, and the RIF of its holder (the merchant's
 * identity at banks that serve sub-merchants under one credential, e.g. BNC's `ChildClientID`).
 */
export interface OrderAccount {
  cuenta: string;
  telefono: string | null;
  /** Absent when the account was registered without one. */
  rif?: string;
}

/** Who is reading (the simulated bank keeps one ledger per merchant), and the registered account read (live). */
export interface ReadContext {
  merchantId?: string;
  account?: OrderAccount;
}

export interface StatusQuery {
  txnId: string;
  attempt: number;
  orderRef: string;
  mode: Mode;
  rail: Rail;
  kind: OperationRequest['kind'];
  referencia: string | null;
  endtoend: string | null;
  /** The merchant the order was for. */
  merchantId?: string;
  /** The registered account the order was made with (live): a status query asks about that account, never the connector's configured one. */
  account?: OrderAccount;
}

/** What a bank answered (or why nothing was), kept with an outcome for the operator. */
export type Raw = Record<string, unknown>;

export type ReadOutcome<T> = { ok: true; value: T } | { ok: false; motivo: MotivoRechazo; raw: Raw };

/**
 * One bank as the switch sees it. Every method answers with a value; a connector never throws
 * through the actor (an exception is treated by the bank worker as `unknown` for orders).
 */
export interface BankConnector {
  readonly banco: BancoId;
  readonly capabilities: readonly Capability[];
  execute(order: ExecuteOrder): Promise<BankOutcome>;
  status(query: StatusQuery): Promise<BankOutcome>;
  saldo(mode: Mode, query: SaldoQuery, context?: ReadContext): Promise<ReadOutcome<Saldo>>;
  movimientos(mode: Mode, query: MovimientosQuery, context?: ReadContext): Promise<ReadOutcome<Movimientos>>;
  /**
   * The credits of one account on one day (Caracas time), with the payer's details where the bank
   * gives them; with `query.referencia`, a bank that searches by reference may answer just that one.
   * A connector without it cannot verify payments (`NO_SOPORTADO`).
   */
  creditos?(mode: Mode, query: CreditosQuery, context?: ReadContext): Promise<ReadOutcome<CreditoRecibido[]>>;
}
