import type { BancoId } from './bancos';
import { canTransition, ForbiddenTransition, isFinal, type EstadoTransaccion, type TransitionCause } from './estados';
import type { MotivoRechazo } from './motivos';
import type { Attempt, BankOutcome, Rail, Transaction } from './operation';

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

/** The next version: one write later, at `now`. */
export function nextVersion(tx: Transaction, now: string): Transaction {
  return { ...tx, version: tx.version + 1, updatedAt: now };
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
  const motivo = to === 'RECHAZADA' ? (facts.motivo ?? 'DESCONOCIDO') : null;
  return {
    ...next,
    estado: to,
    motivoRechazo: motivo,
    raw: facts.raw !== undefined ? facts.raw : tx.raw,
    referenciaBanco: facts.referencia ?? tx.referenciaBanco,
    endtoend: facts.endtoend ?? tx.endtoend,
    history: [...tx.history, { from: tx.estado, to, at: now, cause, version: next.version, motivo, raw: facts.raw ?? null }],
  };
}

/** Records a new order to a bank; the write that carries it also publishes it. */
export function dispatch(tx: Transaction, banco: BancoId, rail: Rail, now: string): Transaction {
  const next = nextVersion(tx, now);
  const attempt: Attempt = { n: tx.attempts.length + 1, banco, rail, dispatchedAt: now, dispatchVersion: next.version };
  return { ...next, attempts: [...tx.attempts, attempt], bancoUsado: banco, rail };
}

export function resolveAttempt(
  tx: Transaction,
  n: number,
  outcome: NonNullable<Transaction['attempts'][number]['outcome']>,
  now: string,
): Transaction {
  if (!tx.attempts.some((a) => a.n === n)) throw new Error(`transaction ${tx.id} has no attempt ${n}`);
  return {
    ...nextVersion(tx, now),
    attempts: tx.attempts.map((a) => (a.n === n ? { ...a, outcome, resolvedAt: now } : a)),
  };
}

export function requestStatus(tx: Transaction, now: string): Transaction {
  const next = nextVersion(tx, now);
  const statusChecks = tx.statusChecks + 1;
  return { ...next, statusChecks, lastStatusAt: now, statusQuery: { seq: statusChecks, requestedVersion: next.version } };
}

/** Closes the outstanding status query, keeping what the bank said as evidence. */
export function clearStatus(tx: Transaction, outcome: BankOutcome, now: string): Transaction {
  return {
    ...nextVersion(tx, now),
    evidence: [
      ...(tx.evidence ?? []),
      { at: now, source: 'status_query', seq: tx.statusQuery?.seq ?? 0, outcome: outcome.type, raw: outcome.raw },
    ],
    statusQuery: null,
  };
}

export function flagForReview(tx: Transaction, reason: string, now: string): Transaction {
  return { ...nextVersion(tx, now), review: { since: now, reason } };
}

/** Applies several edits as one write (one version step), keeping the history's versions right. */
export function asOneWrite(before: Transaction, after: Transaction): Transaction {
  const steps = after.version - before.version;
  if (steps <= 1) return after;
  const version = before.version + 1;
  // Entries made by these edits are renumbered as copies: `after` is an input too.
  const statusQuery =
    after.statusQuery && after.statusQuery.requestedVersion > before.version
      ? { ...after.statusQuery, requestedVersion: version }
      : after.statusQuery;
  return {
    ...after,
    version,
    history: after.history.map((h) => (h.version > before.version ? { ...h, version } : h)),
    attempts: after.attempts.map((a) => (a.dispatchVersion > before.version ? { ...a, dispatchVersion: version } : a)),
    statusQuery,
  };
}
