import type { BankRequestMessage, TransactionEventMessage, RouterInboxMessage } from './contracts/topics';
import type { BancoId } from './contracts/bancos';
import { tokenMismatch } from './contracts/operaciones';
import { settledForReply, type Transaction, type Attempt, type BankOutcome, type Rail, inFlight, toResultado } from './operation';
import { canTransition, isFinal, type EstadoTransaccion, type TransitionCause, type MotivoRechazo, type EstadoOrigen } from './estados';
import { type RoutingTable, candidateBanks, railFor } from './routing';
import { ForbiddenTransition } from './contracts/errors';

/** The bank-side duplicate guard of one attempt: stable across redeliveries and re-announces. */
export const orderRef = (txnId: string, attempt: number): string => `${txnId}-${attempt}`;

/** What the write at `tx.version` must tell the world: an order or status query for a bank, and the event. */
export interface Effects {
  bank: { banco: BancoId; message: BankRequestMessage } | null;
  event: TransactionEventMessage;
}

/**
 * Rebuilt from the document alone, so whoever announces a write (the actor right after it, or the
 * outbox relay after a failure) publishes the same messages. A repeated order is harmless: the bank
 * worker's journal sends each attempt at most once; receivers dedupe events by id and version.
 */
export function effectsOf(tx: Transaction, related: Transaction | null): Effects {
  const last = tx.attempts[tx.attempts.length - 1];
  let bank: Effects['bank'] = null;
  if (last && last.outcome === undefined && last.dispatchVersion === tx.version) {
    bank = {
      banco: last.banco,
      message: {
        op: 'execute',
        txnId: tx.id,
        attempt: last.n,
        orderRef: orderRef(tx.id, last.n),
        mode: tx.mode,
        rail: last.rail,
        idempotencyKey: tx.idempotencyKey,
        request: tx.request,
        related: related ? { id: related.id, referencia: related.referenciaBanco, rail: related.rail } : null,
        merchantId: tx.merchantId,
      },
    };
    const account = tx.merchantAccounts?.find((a) => a.banco === last.banco);
    if (account && bank.message.op === 'execute') bank.message.account = { cuenta: account.cuenta, telefono: account.telefono };
  } else if (tx.statusQuery && tx.statusQuery.requestedVersion === tx.version && last) {
    bank = {
      banco: last.banco,
      message: {
        op: 'status',
        txnId: tx.id,
        attempt: tx.statusQuery.seq,
        orderRef: orderRef(tx.id, last.n),
        mode: tx.mode,
        rail: last.rail,
        kind: tx.kind,
        referencia: tx.referenciaBanco,
        endtoend: tx.endtoend,
      },
    };
  }
  const entry = tx.history[tx.history.length - 1];
  const body = tx.request.body;
  // A reverso moves back the original's amount: its event (and webhook) says how much, and of which operation.
  const reversed = tx.kind === 'reverso' && related?.id === tx.relatedId ? related.request.body : null;
  const monto = 'monto' in body ? body.monto : reversed && 'monto' in reversed ? reversed.monto : null;
  const event: TransactionEventMessage = {
    txnId: tx.id,
    merchantId: tx.merchantId,
    mode: tx.mode,
    kind: tx.kind,
    version: tx.version,
    settledForReply: settledForReply(tx),
    transition: entry && entry.version === tx.version ? { from: entry.from, to: entry.to, at: entry.at } : null,
    resultado: tx.estado === null ? null : toResultado(tx),
    monto: monto?.valor ?? 0,
    moneda: monto?.moneda ?? 'VES',
    concepto: body.concepto ?? '',
    banco: tx.bancoUsado,
    ...(tx.kind === 'reverso' && tx.relatedId ? { reversoDe: tx.relatedId } : {}),
  };
  return { bank, event };
}

/**
 * Pure edits of a transaction document, the building blocks of `decide` (below);
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

/**
 * The transaction core: from a transaction and one message, the next state of the document and
 * what that write must tell the world. Pure: the actor (services/router) loads, asks `decide`,
 * persists `next` with a compare-and-set and publishes `effects`; the reconciler walks `dueAt`.
 * Every money rule of a transaction's life is here or in the one transition table (./estados.ts).
 */

/** States in which an operation still waits on its bank (SPEC 3: not final, and ERROR is never entered). */
export const OPEN_STATES: readonly EstadoTransaccion[] = ['ACEPTADA', 'PENDIENTE', 'DESCONOCIDA'];

export function isOpen(estado: EstadoOrigen): boolean {
  return estado !== null && OPEN_STATES.includes(estado);
}

/**
 * Whether the bank can still change this operation's outcome, so it is asked (by `/consultar` and
 * the reconciler). Token operations move no money: their ACEPTADA ("OTP sent") is never reconciled.
 */
export function isReconcilable(tx: Pick<Transaction, 'kind' | 'estado'>): boolean {
  return tx.kind !== 'token' && isOpen(tx.estado);
}

export interface CorePolicy {
  /** How long a bank's "no such order" must hold before a DESCONOCIDA is rejected (a bank may record an order late). */
  notFoundSettleMs: number;
  /** Waits between settlement checks of one operation, by how many were asked already (the last repeats). */
  backoffMs: readonly number[];
  /** An order with no answer after this long is DESCONOCIDA and goes the status-query way (never resent). */
  orderDeadlineMs: number;
  /** A status query with no answer after this long is asked again. */
  statusDeadlineMs: number;
}

export const DEFAULT_CORE_POLICY: CorePolicy = {
  notFoundSettleMs: 600_000,
  backoffMs: [5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000],
  orderDeadlineMs: 120_000,
  statusDeadlineMs: 60_000,
};

/**
 * When the reconciler owes this transaction a look; null when nothing is owed. The one place that
 * says which operations are reconciled: tokens are not (once answered), finals never are.
 */
export function dueAt(tx: Transaction, policy: CorePolicy): string | null {
  if (isFinal(tx.estado)) return null;
  const last = tx.attempts[tx.attempts.length - 1];
  const after = (from: string, ms: number) => new Date(Date.parse(from) + ms).toISOString();
  if (last && last.outcome === undefined) return after(last.dispatchedAt, policy.orderDeadlineMs);
  if (tx.estado === null) return after(tx.updatedAt, policy.orderDeadlineMs); // written but never dispatched
  if (!isReconcilable(tx)) return null;
  if (tx.statusQuery) return after(tx.lastStatusAt ?? tx.updatedAt, policy.statusDeadlineMs);
  const wait = policy.backoffMs[Math.min(tx.statusChecks, policy.backoffMs.length - 1)] ?? 0;
  return after(tx.lastStatusAt ?? tx.updatedAt, wait);
}

/** An open operation nobody resolved within the configured age: a person must look (once). */
export function needsReview(tx: Transaction, now: string, reviewAfterMs: number): boolean {
  if (tx.review || isFinal(tx.estado) || tx.kind === 'token') return false;
  return Date.parse(now) - Date.parse(tx.createdAt) >= reviewAfterMs;
}

/** Live-money controls' answer (risk engine, daily limit), asked by the actor before a start. */
export interface Refusal {
  motivo: 'BLOQUEO_RIESGO' | 'EXCEDE_LIMITE';
  raw: Record<string, unknown>;
}

export interface DecisionContext {
  now: string;
  policy: CorePolicy;
  routing: RoutingTable;
  /** Banks to route around (open breakers). */
  unavailable: ReadonlySet<BancoId>;
  /** The transaction `relatedId` names (a cobrar's token, a reverso's original), if any. */
  related: Transaction | null;
  /** Only consulted when the message starts the operation (see `startsOperation`). */
  refusal: Refusal | null;
  /**
   * A reverso's claim on its original, made by the actor before the start (`store.reversals`): the id
   * of another reverso that holds the original, null or absent when this one holds it.
   */
  reversedBy?: string | null;
}

export type Decision = Write | { next: null; effects: null; why: string; rerouted?: undefined; fence?: undefined };

/** A decision to write. */
export interface Write {
  /** The document to persist (one version step). */
  next: Transaction;
  /** What persisting `next` must announce (`effectsOf` the document: the outbox rebuilds the same). */
  effects: Effects;
  /** Why, in a few words (logs, tests). */
  why: string;
  /** A payout moved to another bank because the first provably never got the order. */
  rerouted?: { from: BancoId; to: BancoId };
  /**
   * An order given up on (past its deadline, unanswered): its journal entry is claimed before the
   * write, so a copy still queued for the bank worker is never sent late (the worker finds the claim).
   */
  fence?: { txnId: string; attempt: number; banco: BancoId; orderRef: string };
}

/**
 * What identifies a router message for re-announcement: a redelivery of the message that made the
 * stored version has the same key. Queries are alike on purpose: any query after a write a query
 * made repeats that write's announcement (a status query is safe to ask twice).
 */
export function messageKey(message: RouterInboxMessage): string {
  switch (message.type) {
    case 'bank_result':
      return `bank_result:${message.op}:${message.attempt}`;
    default:
      return message.type;
  }
}

const unchanged = (why: string): Decision => ({ next: null, effects: null, why });

/** Whether `decide` would start the operation (route it and send its first order), so live controls apply. */
export function startsOperation(tx: Transaction, message: RouterInboxMessage): boolean {
  return (message.type === 'execute' || message.type === 'query') && tx.estado === null && !inFlight(tx);
}

export function decide(tx: Transaction, message: RouterInboxMessage, ctx: DecisionContext): Decision {
  // DESIGN rule 2: a final state never changes, whatever arrives late.
  if (isFinal(tx.estado)) return unchanged(`${tx.estado} is final`);
  switch (message.type) {
    case 'execute':
      // A repeat of an operation that has an outcome or an order in flight changes nothing.
      return startsOperation(tx, message) ? start(tx, ctx) : unchanged('already started');
    case 'query':
      return check(tx, ctx);
    case 'review':
      return tx.review ? unchanged('already flagged') : written(flagForReview(tx, message.reason, ctx.now), ctx);
    case 'bank_result':
      return message.op === 'execute'
        ? orderAnswered(tx, message.attempt, message.outcome, ctx)
        : statusAnswered(tx, message.attempt, message.outcome, ctx);
  }
}

/** Persisting `next` one version after `before`, with its due time and what it announces. */
function written(next: Transaction, ctx: DecisionContext, before?: Transaction, extra: Pick<Write, 'rerouted' | 'fence'> = {}): Decision {
  const one = before ? asOneWrite(before, next) : next;
  one.nextCheckAt = dueAt(one, ctx.policy);
  const last = one.history[one.history.length - 1];
  const why = last && last.version === one.version ? `${last.from ?? '(new)'} -> ${last.to} by ${last.cause}` : 'bookkeeping';
  return { next: one, effects: effectsOf(one, ctx.related), why, ...extra };
}

/** First dispatch: live controls, then the bank and the rail, or a rejection by routing. */
function start(tx: Transaction, ctx: DecisionContext): Decision {
  if (ctx.refusal) return written(transition(tx, 'RECHAZADA', 'risk', ctx.refusal, ctx.now), ctx);
  const plan = planRoute(tx, ctx);
  if ('motivo' in plan) {
    return written(transition(tx, 'RECHAZADA', 'routing', { motivo: plan.motivo, raw: { switch: plan.reason } }, ctx.now), ctx);
  }
  return written(dispatch(tx, plan.banco, plan.rail, ctx.now), ctx);
}

/**
 * Live: the banks where the merchant holds a registered account (snapshotted at creation), the only
 * ones that may move its money, first dispatch or reroute alike; an order elsewhere would carry no
 * account and a connector would act with the switch's own. A live transaction without a snapshot
 * holds none. Test mode: null, any able bank.
 */
export function banksHoldingAccounts(tx: Pick<Transaction, 'mode' | 'merchantAccounts'>): ReadonlySet<BancoId> | null {
  if (tx.mode !== 'live') return null;
  return new Set((tx.merchantAccounts ?? []).map((a) => a.banco));
}

type Plan = { banco: BancoId; rail: ReturnType<typeof railFor> } | { motivo: MotivoRechazo; reason: string };

function planRoute(tx: Transaction, ctx: DecisionContext): Plan {
  const { request } = tx;
  const { related } = ctx;
  const candidates = candidateBanks(ctx.routing, tx.mode, request, ctx.unavailable);
  const held = banksHoldingAccounts(tx);
  const able = held ? candidates.filter((b) => held.has(b)) : candidates;
  if (held && request.kind !== 'reverso' && able.length === 0 && candidates.length > 0) {
    return {
      motivo: 'BANCO_NO_DISPONIBLE',
      reason: `the merchant has no registered account at a bank able to run ${request.kind} in ${tx.mode} mode (${candidates.join(', ')})`,
    };
  }
  // Token and cobrar of one collection go to the same bank; a reverse goes to the bank of the original.
  const pinned = request.kind === 'reverso' || (request.kind === 'cobrar' && related) ? (related?.bancoUsado ?? null) : undefined;
  if (request.kind === 'reverso') {
    // DESIGN rule 9: one original, at most one reverso (the claim is atomic in the store).
    if (ctx.reversedBy) return { motivo: 'DUPLICADA', reason: `operation ${tx.relatedId} already has the reverso ${ctx.reversedBy}` };
    const refused = reversible(tx, related);
    if (refused) return { motivo: 'NO_SOPORTADO', reason: refused };
  }
  if (request.kind === 'cobrar' && tx.relatedId) {
    // A cobrar under a token's key collects what the token asked for, compared here with the token's
    // recorded request whatever the gateway saw; a token not recorded yet cannot be compared.
    if (related?.request.kind !== 'token')
      return { motivo: 'NO_SOPORTADO', reason: `the token ${tx.relatedId} of this key is not recorded` };
    const differs = tokenMismatch(related.request.body, request.body);
    if (differs.length > 0)
      return { motivo: 'NO_SOPORTADO', reason: `the cobrar differs from its token ${related.id} in: ${differs.join(', ')}` };
  }
  if (request.kind === 'reverso' && pinned === null) {
    return { motivo: 'NO_SOPORTADO', reason: 'the original operation reached no bank, there is nothing to reverse' };
  }
  const chosen = pinned === undefined ? able[0] : able.find((b) => b === pinned);
  if (!chosen) {
    return {
      motivo: 'BANCO_NO_DISPONIBLE',
      reason:
        pinned === undefined
          ? `no enabled bank can run ${request.kind} in ${tx.mode} mode`
          : `bank ${pinned} of the related operation is not available for ${request.kind} in ${tx.mode} mode`,
    };
  }
  return { banco: chosen, rail: railFor(request, request.kind === 'cobrar' && related !== null) };
}

/**
 * Only a settled money-moving operation (pagar or cobrar in LIQUIDADA) of the same merchant and mode
 * can be reversed; a token moves no money, a reverso is not reversed, and an operation not settled
 * has nothing a bank could cancel. Anything else is refused here, before any bank sees it.
 */
export function reversible(tx: Pick<Transaction, 'merchantId' | 'mode'>, related: Transaction | null): string | null {
  if (!related || related.merchantId !== tx.merchantId || related.mode !== tx.mode)
    return 'the operation to reverse does not exist for this merchant and mode';
  if (related.kind !== 'pagar' && related.kind !== 'cobrar') return `a ${related.kind} moves no money of its own and cannot be reversed`;
  if (related.estado !== 'LIQUIDADA')
    return `only a settled (LIQUIDADA) operation can be reversed; this one is ${related.estado ?? 'not started'}`;
  return null;
}

/**
 * A reverso refused before any bank saw an order of it (by the switch, or every bank answering "not
 * processed") frees its original for a later reverso; once an order may have reached a bank, the
 * original stays taken, whatever the outcome (docs/decisions/0014-one-reverso-per-original.md).
 */
export function releasesReversal(tx: Pick<Transaction, 'kind' | 'estado' | 'attempts'>): boolean {
  return tx.kind === 'reverso' && tx.estado === 'RECHAZADA' && tx.attempts.every((a) => a.outcome === 'not_processed');
}

/**
 * A status check, asked by `/consultar` or by the reconciler when the transaction is due. It also
 * owns what nobody answered: an order past its deadline becomes DESCONOCIDA and is asked about
 * (never resent: DESIGN rule 3); a status query past its deadline is asked again; an operation
 * written but never dispatched (a crash right after its creation) is started.
 */
function check(tx: Transaction, ctx: DecisionContext): Decision {
  const { now, policy } = ctx;
  const last = tx.attempts[tx.attempts.length - 1];
  if (startsOperation(tx, { type: 'query', txnId: tx.id })) return start(tx, ctx);
  if (last && last.outcome === undefined) {
    if (Date.parse(now) < Date.parse(last.dispatchedAt) + policy.orderDeadlineMs) return unchanged('order in flight, within its deadline');
    const silent = resolveAttempt(tx, last.n, 'unknown', now);
    const raw = {
      switch: `no answer to order ${last.n} at ${last.banco} within ${Math.round(policy.orderDeadlineMs / 1000)} s; it may have reached the bank: asking its status, never resending`,
    };
    const unknown = transition(silent, 'DESCONOCIDA', 'order_deadline', { raw }, now);
    const fence = { txnId: tx.id, attempt: last.n, banco: last.banco, orderRef: orderRef(tx.id, last.n) };
    return written(tx.kind === 'token' ? unknown : requestStatus(unknown, now), ctx, tx, { fence });
  }
  if (!isReconcilable(tx))
    return unchanged(tx.kind === 'token' ? 'tokens move no money and are not reconciled' : `${tx.estado} is not asked about`);
  if (tx.statusQuery && Date.parse(now) < Date.parse(tx.lastStatusAt ?? tx.updatedAt) + policy.statusDeadlineMs) {
    return unchanged('status query outstanding, within its deadline');
  }
  // A newer query supersedes one nobody answered: its late answer is stale (another seq) and ignored.
  return written(requestStatus(tx, now), ctx);
}

/** The bank's answer to an order: applied once, to the attempt it answers. */
function orderAnswered(tx: Transaction, n: number, outcome: BankOutcome, ctx: DecisionContext): Decision {
  const attempt = tx.attempts.find((a) => a.n === n);
  if (!attempt) return unchanged(`no attempt ${n}`);
  if (attempt.outcome !== undefined) return unchanged(`attempt ${n} already answered`);
  const resolved = resolveAttempt(tx, n, outcome.type, ctx.now);
  switch (outcome.type) {
    case 'settled':
      return written(transition(resolved, 'LIQUIDADA', 'bank_outcome', outcome, ctx.now), ctx, tx);
    case 'accepted':
      return written(transition(resolved, 'ACEPTADA', 'bank_outcome', outcome, ctx.now), ctx, tx);
    case 'rejected':
      return written(transition(resolved, 'RECHAZADA', 'bank_outcome', outcome, ctx.now), ctx, tx);
    case 'unknown':
      // May have moved money: never resent, never rerouted; only a status query resolves it.
      return written(transition(resolved, 'DESCONOCIDA', 'bank_outcome', { raw: outcome.raw }, ctx.now), ctx, tx);
    case 'not_processed': {
      // Provably never reached the bank: a payout may go to the next able bank (SPEC 4.3, DESIGN rule 4).
      // Live: only to a bank holding one of the merchant's accounts (the order then carries it).
      let unrouted: string | null = null;
      if (tx.kind === 'pagar') {
        const tried = new Set<BancoId>([...tx.attempts.map((a) => a.banco), ...ctx.unavailable]);
        const untried = candidateBanks(ctx.routing, tx.mode, tx.request, tried);
        const held = banksHoldingAccounts(tx);
        const next = held ? untried.find((b) => held.has(b)) : untried[0];
        if (next)
          return written(dispatch(resolved, next, railFor(tx.request), ctx.now), ctx, tx, { rerouted: { from: attempt.banco, to: next } });
        if (held && untried.length > 0)
          unrouted = `not rerouted: the merchant holds no registered account at another able bank (${untried.join(', ')})`;
      }
      const raw = { banco: attempt.banco, ...outcome.raw, ...(unrouted ? { reroute: unrouted } : {}) };
      return written(transition(resolved, 'RECHAZADA', 'bank_outcome', { motivo: 'BANCO_NO_DISPONIBLE', raw }, ctx.now), ctx, tx);
    }
  }
}

/** The bank's answer to a status query: only the outstanding one counts (a stale or repeated answer is ignored). */
function statusAnswered(tx: Transaction, seq: number, outcome: BankOutcome, ctx: DecisionContext): Decision {
  if (!tx.statusQuery || tx.statusQuery.seq !== seq) return unchanged(`status answer ${seq} is not the outstanding query`);
  const cleared = clearStatus(tx, outcome, ctx.now);
  const facts =
    'motivo' in outcome
      ? outcome
      : {
          raw: outcome.raw,
          referencia: 'referencia' in outcome ? outcome.referencia : null,
          endtoend: 'endtoend' in outcome ? outcome.endtoend : null,
        };
  const move = (to: EstadoTransaccion) => written(transition(cleared, to, 'status_query', facts, ctx.now), ctx, tx);
  switch (outcome.type) {
    case 'settled':
      return move('LIQUIDADA');
    case 'rejected':
      return move('RECHAZADA');
    case 'accepted':
      if (outcome.pending && tx.estado !== 'PENDIENTE') return move('PENDIENTE');
      if (tx.estado === 'DESCONOCIDA') return move('ACEPTADA');
      return written(cleared, ctx, tx);
    case 'not_processed': {
      // The bank says it never got the order. Only when that has held for the whole settle window is
      // it proof enough to reject a DESCONOCIDA (nothing moved: BANCO_NO_DISPONIBLE).
      if (tx.estado !== 'DESCONOCIDA') return written(cleared, ctx, tx);
      const evidence = cleared.evidence ?? [];
      // The unbroken run of "not found" answers up to now; any other answer restarts the window.
      const lastOther = evidence.map((e) => e.outcome !== 'not_processed').lastIndexOf(true);
      const notFound = evidence.slice(lastOther + 1);
      const held = notFound[0] ? Date.parse(ctx.now) - Date.parse(notFound[0].at) : 0;
      if (held < ctx.policy.notFoundSettleMs) return written(cleared, ctx, tx);
      const raw = {
        switch: `the bank did not know the order for ${Math.round(held / 1000)} s`,
        evidence: notFound.map((e) => ({ at: e.at, raw: e.raw })),
        bank: outcome.raw,
      };
      return written(transition(cleared, 'RECHAZADA', 'status_query', { motivo: 'BANCO_NO_DISPONIBLE', raw }, ctx.now), ctx, tx);
    }
    case 'unknown':
      // No evidence either way: the state stays until the bank can say (the reconciler keeps asking).
      return written(cleared, ctx, tx);
  }
}
