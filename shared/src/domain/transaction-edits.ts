import type { BancoId } from './bancos';
import { clonePlain } from './clone';
import { canTransition, ForbiddenTransition, isFinal, type EstadoTransaccion, type TransitionCause } from './estados';
import type { MotivoRechazo } from './motivos';
import type { BankOutcome, Rail, Transaction } from './operation';

/**
 * Pure edits of a transaction document, the building blocks of `decide` (./transaction-core.ts);
 * each returns the next version and never mutates its input.
 */

export interface TransitionFacts {
  motivo?: MotivoRechazo | null;
  raw?: Record<string, unknown> | null;
  referencia?: string | null;
  endtoend?: string | null;
}

export function nextVersion(tx: Transaction, now: string): Transaction {
  const next = clonePlain(tx);
  next.version = tx.version + 1;
  next.updatedAt = now;
  return next;
}

/** Moves the state, checked against the one transition table; finals never change. */
export function transition(
  tx: Transaction,
  to: EstadoTransaccion,
  cause: TransitionCause,
  facts: TransitionFacts,
  now: string,
): Transaction {
  if (isFinal(tx.estado) || !canTransition(tx.estado, to, cause)) throw new ForbiddenTransition(tx.estado, to, cause);
  const next = nextVersion(tx, now);
  next.estado = to;
  next.motivoRechazo = to === 'RECHAZADA' ? (facts.motivo ?? 'DESCONOCIDO') : null;
  if (facts.raw !== undefined) next.raw = facts.raw;
  if (facts.referencia !== undefined && facts.referencia !== null) next.referenciaBanco = facts.referencia;
  if (facts.endtoend !== undefined && facts.endtoend !== null) next.endtoend = facts.endtoend;
  next.history.push({
    from: tx.estado,
    to,
    at: now,
    cause,
    version: next.version,
    motivo: next.motivoRechazo,
    raw: facts.raw ?? null,
  });
  return next;
}

/** Records a new order to a bank; the write that carries it also publishes it. */
export function dispatch(tx: Transaction, banco: BancoId, rail: Rail, now: string): Transaction {
  const next = nextVersion(tx, now);
  next.attempts.push({ n: tx.attempts.length + 1, banco, rail, dispatchedAt: now, dispatchVersion: next.version });
  next.bancoUsado = banco;
  next.rail = rail;
  return next;
}

export function resolveAttempt(
  tx: Transaction,
  n: number,
  outcome: NonNullable<Transaction['attempts'][number]['outcome']>,
  now: string,
): Transaction {
  const next = nextVersion(tx, now);
  const attempt = next.attempts.find((a) => a.n === n);
  if (!attempt) throw new Error(`transaction ${tx.id} has no attempt ${n}`);
  attempt.outcome = outcome;
  attempt.resolvedAt = now;
  return next;
}

export function requestStatus(tx: Transaction, now: string): Transaction {
  const next = nextVersion(tx, now);
  next.statusChecks = tx.statusChecks + 1;
  next.lastStatusAt = now;
  next.statusQuery = { seq: next.statusChecks, requestedVersion: next.version };
  return next;
}

/** Closes the outstanding status query, keeping what the bank said as evidence. */
export function clearStatus(tx: Transaction, outcome: BankOutcome, now: string): Transaction {
  const next = nextVersion(tx, now);
  next.evidence = [
    ...(tx.evidence ?? []),
    { at: now, source: 'status_query', seq: tx.statusQuery?.seq ?? 0, outcome: outcome.type, raw: outcome.raw },
  ];
  next.statusQuery = null;
  return next;
}

export function flagForReview(tx: Transaction, reason: string, now: string): Transaction {
  const next = nextVersion(tx, now);
  next.review = { since: now, reason };
  return next;
}

/** Applies several edits as one write (one version step), keeping the history's versions right. */
export function asOneWrite(before: Transaction, after: Transaction): Transaction {
  const steps = after.version - before.version;
  if (steps <= 1) return after;
  const merged = clonePlain(after);
  merged.version = before.version + 1;
  for (const h of merged.history) if (h.version > before.version) h.version = merged.version;
  for (const a of merged.attempts) if (a.dispatchVersion > before.version) a.dispatchVersion = merged.version;
  if (merged.statusQuery && merged.statusQuery.requestedVersion > before.version) merged.statusQuery.requestedVersion = merged.version;
  return merged;
}
