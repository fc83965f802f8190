import type { BancoId } from './bancos';
import { canTransition, ForbiddenTransition, isFinal, type EstadoTransaccion, type TransitionCause } from './estados';
import type { MotivoRechazo } from './motivos';
import type { Attempt, BankOutcome, Rail, Transaction } from './operation';

/**
 * Pure edits of a transaction document, the building blocks of `decide` (./transaction-core.ts);
 * each returns the next version and never mutates its input. The next version shares what it does
 * not change with its input (the request, the bank's raw answers, the entries of its lists): an edit
 * replaces what it changes, never writes into a shared part, so a version is a value. Copying the
 * whole document at every step cost a tenth of the embedded switch's CPU per payout.
 */

export interface TransitionFacts {
  motivo?: MotivoRechazo | null;
  raw?: Record<string, unknown> | null;
  referencia?: string | null;
  endtoend?: string | null;
}

/** A new top level and new lists (edits append to them); every entry and nested record is shared. */
export function nextVersion(tx: Transaction, now: string): Transaction {
  const next = { ...tx };
  next.version = tx.version + 1;
  next.updatedAt = now;
  next.history = tx.history.slice();
  next.attempts = tx.attempts.slice();
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
  const i = next.attempts.findIndex((a) => a.n === n);
  const attempt = next.attempts[i];
  if (!attempt) throw new Error(`transaction ${tx.id} has no attempt ${n}`);
  // Written out, not `{ ...attempt, outcome }`: a spread that adds keys gives each object a hidden
  // class of its own. `Required` makes a
  // field added to `Attempt` a compile error here rather than a field this edit drops.
  next.attempts[i] = {
    n: attempt.n,
    banco: attempt.banco,
    rail: attempt.rail,
    dispatchedAt: attempt.dispatchedAt,
    dispatchVersion: attempt.dispatchVersion,
    outcome,
    resolvedAt: now,
  } satisfies Required<Attempt>;
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
  const merged = { ...after };
  const version = before.version + 1;
  merged.version = version;
  // Entries made by these edits are renumbered as copies: `after` is an input too.
  merged.history = after.history.map((h) => (h.version > before.version ? { ...h, version } : h));
  merged.attempts = after.attempts.map((a) => (a.dispatchVersion > before.version ? { ...a, dispatchVersion: version } : a));
  if (merged.statusQuery && merged.statusQuery.requestedVersion > before.version) {
    merged.statusQuery = { ...merged.statusQuery, requestedVersion: version };
  }
  return merged;
}
