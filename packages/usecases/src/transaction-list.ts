import {
  TRANSACTION_PAGE_DEFAULT,
  type TransaccionDetalle,
  type TransaccionesPage,
  type TransaccionesQuery,
  type TransaccionResumen,
} from '@switch/core/contracts/transacciones';
import type { Claims } from '@switch/platform/ports/claims';
import { decodeCursor, encodeCursor } from './page-cursor';
import type { PageCursor, TransactionFilter, TransactionReads } from '@switch/platform/ports/transaction-reads';
import type { Mode } from '@switch/core/contracts/bancos';
import { type Transaction, toResultado } from '@switch/core/operation';

/** What a merchant's transaction list reads: the transactions, and the reverso claims (which reverso holds an original). */
type ListStore = Pick<Claims, 'reversals'> & { transactions: TransactionReads };

/**
 * A merchant's transactions, one mode at a time: the list of GET /switch/v1/transacciones and of the
 * panel, with the same filters, cursor and views for both (one source of truth).
 */

export type ListProblem = { field: string; message: string };

/** A Venezuelan calendar day (UTC-4) starts at 04:00 UTC. */
const dayStart = (day: string, plusDays = 0) => new Date(Date.parse(`${day}T04:00:00.000Z`) + plusDays * 86_400_000).toISOString();

/** The store filter of a query; a problem names the field (400 VALIDATION at the edge). */
export function transactionFilter(
  caller: { merchantId: string; mode: Mode },
  q: TransaccionesQuery,
): { filter: TransactionFilter; limit: number; after?: PageCursor } | ListProblem {
  if (q.desde && q.hasta && q.hasta < q.desde) return { field: 'hasta', message: 'is before desde' };
  let after: PageCursor | undefined;
  if (q.cursor !== undefined) {
    const c = decodeCursor(q.cursor);
    if (!c) return { field: 'cursor', message: 'is not a cursor given by this list' };
    after = c;
  }
  const filter: TransactionFilter = { merchantId: caller.merchantId, mode: caller.mode };
  if (q.operacion) filter.kind = q.operacion;
  if (q.estado) filter.estado = q.estado;
  if (q.banco) filter.banco = q.banco;
  if (q.desde) filter.desde = dayStart(q.desde);
  if (q.hasta) filter.hasta = dayStart(q.hasta, 1);
  if (q.id) filter.id = q.id;
  if (q.idempotency_key) filter.idempotencyKey = q.idempotency_key;
  return { filter, limit: q.limite ? Number(q.limite) : TRANSACTION_PAGE_DEFAULT, ...(after ? { after } : {}) };
}

export function isListProblem(v: unknown): v is ListProblem {
  return typeof v === 'object' && v !== null && 'field' in v;
}

const montoOf = (tx: Transaction): { valor: number; moneda: string; concepto: string | null } => {
  const body: { monto?: { valor: number; moneda?: string }; concepto?: string } = tx.request.body;
  return { valor: body.monto?.valor ?? 0, moneda: body.monto?.moneda ?? 'VES', concepto: body.concepto ?? null };
};

/** The other side of an operation, as a person names it: its `nombre`, else its account or phone. */
function contraparteOf(tx: Transaction): string | null {
  const body = tx.request.body;
  const pagador = 'pagador' in body ? body.pagador : undefined;
  const beneficiario = 'beneficiario' in body ? body.beneficiario : undefined;
  const other: { nombre?: string; valor?: string } | undefined = tx.kind === 'pagar' ? beneficiario : (pagador ?? beneficiario);
  return other?.nombre ?? other?.valor ?? null;
}

export function toResumen(tx: Transaction): TransaccionResumen {
  const m = montoOf(tx);
  return {
    id: tx.id,
    operacion: tx.kind,
    estado: tx.estado!,
    banco_usado: tx.bancoUsado,
    monto: m.valor,
    moneda: m.moneda,
    concepto: m.concepto,
    contraparte: contraparteOf(tx),
    idempotency_key: tx.idempotencyKey,
    referencia_banco: tx.referenciaBanco,
    motivo_rechazo: tx.estado === 'RECHAZADA' ? tx.motivoRechazo : null,
    creada: tx.createdAt,
    actualizada: tx.updatedAt,
  };
}

/**
 * The request as shown (API detail, panel, MCP): everything the merchant sent but a cobrar's OTP,
 * which is never shown, not even sealed (DESIGN rule 7).
 */
function requestAsShown(tx: Transaction): Record<string, unknown> {
  return Object.fromEntries(Object.entries(tx.request.body).filter(([field]) => field !== 'otp'));
}

/** `reverso`: the reverso holding this operation (store.reversals), when it has one. */
export function toDetalle(tx: Transaction, reverso: string | null = null): TransaccionDetalle {
  return {
    resultado: toResultado(tx),
    operacion: tx.kind,
    idempotency_key: tx.idempotencyKey,
    solicitud: requestAsShown(tx),
    historial: tx.history.map((h) => ({ desde: h.from, hacia: h.to, en: h.at, causa: h.cause, motivo: h.motivo, raw: h.raw })),
    intentos: tx.attempts.map((a) => ({ n: a.n, banco: a.banco, via: a.rail, enviado: a.dispatchedAt, resultado: a.outcome ?? null })),
    evidencia: (tx.evidence ?? []).map((e) => ({ en: e.at, resultado: e.outcome, raw: e.raw })),
    creada: tx.createdAt,
    actualizada: tx.updatedAt,
    ...(reverso ? { reverso } : {}),
    ...(tx.kind === 'reverso' && tx.relatedId ? { reverso_de: tx.relatedId } : {}),
  };
}

/** The reverso an operation has, if any: what its detail links (only money-moving operations can have one). */
export async function reversoOf(store: ListStore, tx: Transaction): Promise<string | null> {
  if (tx.kind !== 'pagar' && tx.kind !== 'cobrar') return null;
  return (await store.reversals.get(tx.id))?.reversoId ?? null;
}

/** One page of the caller's transactions, newest first. */
export async function listTransactions(
  store: ListStore,
  caller: { merchantId: string; mode: Mode },
  q: TransaccionesQuery,
): Promise<TransaccionesPage | ListProblem> {
  const parsed = transactionFilter(caller, q);
  if (isListProblem(parsed)) return parsed;
  // One more than asked tells whether a next page exists without a second query.
  const rows = await store.transactions.listForMerchant(parsed.filter, parsed.limit + 1, parsed.after);
  const page = rows.slice(0, parsed.limit);
  const last = page[page.length - 1];
  return {
    transacciones: page.map(toResumen),
    siguiente: rows.length > parsed.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}

/**
 * The caller's transaction by id, or null: another merchant's or mode's, or one without an outcome
 * yet, is not found (DESIGN rule 6: 404, not 403).
 */
export async function findOwnTransaction(
  store: { transactions: TransactionReads },
  caller: { merchantId: string; mode: Mode },
  id: string,
): Promise<Transaction | null> {
  const tx = await store.transactions.get(id);
  return tx && tx.merchantId === caller.merchantId && tx.mode === caller.mode && tx.estado !== null ? tx : null;
}
