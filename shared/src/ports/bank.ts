import type { BancoId, Capability, Mode } from '../domain/bancos';
import type { BankOutcome, OperationRequest, Rail } from '../domain/operation';
import type { MotivoRechazo } from '../domain/motivos';
import type { Movimientos, MovimientosQuery, Saldo, SaldoQuery } from '../contracts/bancos';

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
}

export type ReadOutcome<T> = { ok: true; value: T } | { ok: false; motivo: MotivoRechazo; raw: Record<string, unknown> };

/**
 * One bank as the switch sees it. Every method answers with a value; a connector never throws
 * through the actor (an exception is treated by the bank worker as `unknown` for orders).
 */
export interface BankConnector {
  readonly banco: BancoId;
  readonly capabilities: readonly Capability[];
  execute(order: ExecuteOrder): Promise<BankOutcome>;
  status(query: StatusQuery): Promise<BankOutcome>;
  saldo(mode: Mode, query: SaldoQuery): Promise<ReadOutcome<Saldo>>;
  movimientos(mode: Mode, query: MovimientosQuery): Promise<ReadOutcome<Movimientos>>;
}
