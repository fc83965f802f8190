import {
  blocklistHit,
  candidateBanks,
  dailyLimitKey,
  idempotencyScope,
  inFlight,
  isFinal,
  metrics,
  newTransaction,
  railFor,
  subjectOf,
  velocityKey,
  type RiskPolicy,
  type BancoId,
  type BankOutcome,
  type Bus,
  type Logger,
  type Mode,
  type RouterInboxMessage,
  type RoutingTable,
  type Store,
  type Transaction,
} from '@switch/shared';
import { announce } from './announce';
import { asOneWrite, clearStatus, dispatch, flagForReview, requestStatus, resolveAttempt, transition } from './transaction';

type ExecuteMessage = Extract<RouterInboxMessage, { type: 'execute' }>;
type BankResultMessage = Extract<RouterInboxMessage, { type: 'bank_result' }>;

export interface ActorDeps {
  bus: Bus;
  store: Store;
  routing: RoutingTable;
  log: Logger;
  now?: () => Date;
  /** Banks to skip (open breakers), asked at routing time. */
  unavailableBanks?: (mode: Mode) => ReadonlySet<BancoId>;
  /**
   * How long a bank's "no such order" must hold for a DESCONOCIDA before it is rejected: a bank may
   * record an order late, so one "not found" right after a time-out is no proof. Default 10 min.
   */
  notFoundSettleMs?: number;
  /** Live-money controls; test mode never applies them (SPEC 4.10.5). */
  risk?: RiskPolicy;
}

export class OptimisticConflict extends Error {}

/**
 * The transaction actor: the only writer of a transaction's state. Messages of one transaction reach
 * it one at a time (one key, one partition); every write is conditional on the version read, so even
 * a misrouted concurrent handler cannot win twice. A state is persisted before it is announced.
 */
export class TransactionActor {
  private readonly now: () => Date;
  constructor(private readonly deps: ActorDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async handle(message: RouterInboxMessage): Promise<void> {
    switch (message.type) {
      case 'execute':
        return this.execute(message);
      case 'query':
        return this.query(message.txnId);
      case 'review':
        return this.review(message.txnId, message.reason);
      case 'bank_result':
        return this.bankResult(message);
    }
  }

  /** Re-announces every write a crash left unannounced (run at start). */
  async repair(limit = 1000): Promise<number> {
    const pending = await this.deps.store.transactions.listUnannounced(limit);
    for (const tx of pending) await announce(this.deps.bus, this.deps.store, tx);
    return pending.length;
  }

  private async execute(msg: ExecuteMessage): Promise<void> {
    const { store } = this.deps;
    let tx = await store.transactions.get(msg.txnId);
    if (!tx) {
      const created = await this.create(msg);
      if (!(await store.transactions.insert(created))) throw new OptimisticConflict(`transaction ${msg.txnId} created concurrently`);
      metrics.operationsStarted.inc({ kind: created.kind, mode: created.mode });
      tx = created;
    }
    // A crash between a write and its announcement is repaired by announcing, never by re-executing.
    if (tx.announcedVersion < tx.version) tx = await announce(this.deps.bus, store, tx);
    // A repeat of an operation that already has an outcome or an order in flight changes nothing;
    // only ERROR (nothing reached a bank) runs again (DESIGN rule 5).
    if (inFlight(tx) || (tx.estado !== null && tx.estado !== 'ERROR')) return;
    await this.start(tx);
  }

  private async create(msg: ExecuteMessage): Promise<Transaction> {
    const now = this.now().toISOString();
    let relatedId: string | null = null;
    if (msg.request.kind === 'cobrar') {
      const claim = await this.deps.store.idempotency.get(idempotencyScope(msg.merchantId, msg.mode, 'token', msg.idempotencyKey));
      relatedId = claim?.txnId ?? null;
    } else if (msg.request.kind === 'reverso') {
      relatedId = msg.request.body.id;
    }
    return newTransaction({
      id: msg.txnId,
      merchantId: msg.merchantId,
      mode: msg.mode,
      idempotencyKey: msg.idempotencyKey,
      fingerprint: msg.fingerprint,
      request: msg.request,
      relatedId,
      now,
    });
  }

  /** First dispatch (or the retry after ERROR): pick the bank and the rail, or reject by routing. */
  private async start(tx: Transaction): Promise<void> {
    const now = this.now().toISOString();
    const related = tx.relatedId ? await this.deps.store.transactions.get(tx.relatedId) : null;
    const refused = tx.mode === 'live' ? await this.liveControls(tx) : null;
    if (refused) {
      await this.write(tx, transition(tx, 'RECHAZADA', 'risk', refused, now));
      return;
    }
    const plan = this.plan(tx, related);
    const next =
      'banco' in plan
        ? dispatch(tx, plan.banco, plan.rail, now)
        : transition(tx, 'RECHAZADA', 'routing', { motivo: plan.motivo, raw: { switch: plan.reason } }, now);
    await this.write(tx, next);
  }

  private plan(
    tx: Transaction,
    related: Transaction | null,
  ): { banco: BancoId; rail: ReturnType<typeof railFor> } | { motivo: 'BANCO_NO_DISPONIBLE' | 'NO_SOPORTADO'; reason: string } {
    const { routing } = this.deps;
    const request = tx.request;
    const able = candidateBanks(routing, tx.mode, request, this.unavailable(tx.mode));
    // Token and cobrar of one collection go to the same bank; a reverse goes to the bank of the original.
    const pinned = request.kind === 'reverso' || (request.kind === 'cobrar' && related) ? related?.bancoUsado ?? null : undefined;
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
   * Risk engine then daily limit, before any bank is asked. Both explain themselves in `raw`. The daily
   * amount is reserved when the operation is let through (a later bank rejection does not give it back:
   * the limit errs on the side of less live money).
   */
  private async liveControls(tx: Transaction): Promise<{ motivo: 'BLOQUEO_RIESGO' | 'EXCEDE_LIMITE'; raw: Record<string, unknown> } | null> {
    const policy = this.deps.risk;
    if (!policy) return null;
    const at = this.now();
    const subject = subjectOf(tx.request);
    if (subject) {
      const hit = blocklistHit(policy, subject);
      if (hit) return { motivo: 'BLOQUEO_RIESGO', raw: { switch: 'risk_engine', rule: hit.rule, subject: hit.value } };
      if (policy.maxOperationsPerSubjectPerHour !== null) {
        const { count } = await this.deps.store.counters.add(velocityKey(subject, at), 0, 1);
        if (count > policy.maxOperationsPerSubjectPerHour) {
          return { motivo: 'BLOQUEO_RIESGO', raw: { switch: 'risk_engine', rule: 'velocity', subject: subject.identificacion, operationsThisHour: count, max: policy.maxOperationsPerSubjectPerHour } };
        }
      }
    }
    const body = tx.request.body;
    if (policy.dailyLimitVes !== null && 'monto' in body) {
      const key = dailyLimitKey(tx.merchantId, at);
      const used = await this.deps.store.counters.add(key, body.monto.valor, 1);
      if (used.amount > policy.dailyLimitVes) {
        await this.deps.store.counters.add(key, -body.monto.valor, -1);
        return { motivo: 'EXCEDE_LIMITE', raw: { switch: 'daily_limit', limitVes: policy.dailyLimitVes, usedVes: Math.round((used.amount - body.monto.valor) * 100) / 100, requestedVes: body.monto.valor } };
      }
    }
    return null;
  }

  private unavailable(mode: Mode): ReadonlySet<BancoId> {
    return this.deps.unavailableBanks?.(mode) ?? new Set();
  }

  private async query(txnId: string): Promise<void> {
    const tx = await this.deps.store.transactions.get(txnId);
    if (!tx) return;
    if (tx.announcedVersion < tx.version) {
      await announce(this.deps.bus, this.deps.store, tx);
      return;
    }
    // Only operations waiting on a bank are asked; token operations move no money and are not reconciled.
    const askable = tx.estado === 'ACEPTADA' || tx.estado === 'PENDIENTE' || tx.estado === 'DESCONOCIDA';
    if (!askable || tx.kind === 'token' || inFlight(tx) || tx.statusQuery) return;
    await this.write(tx, requestStatus(tx, this.now().toISOString()));
  }

  private async bankResult(msg: BankResultMessage): Promise<void> {
    const tx = await this.deps.store.transactions.get(msg.txnId);
    if (!tx) {
      this.deps.log.warn({ txnId: msg.txnId }, 'bank result for an unknown transaction');
      return;
    }
    const now = this.now().toISOString();
    if (msg.op === 'execute') {
      const attempt = tx.attempts.find((a) => a.n === msg.attempt);
      if (!attempt || attempt.outcome !== undefined) return; // redelivered: already applied
      const resolved = resolveAttempt(tx, msg.attempt, msg.outcome.type, now);
      await this.write(tx, asOneWrite(tx, this.applyOrderOutcome(resolved, attempt.banco, msg.outcome, now)));
      return;
    }
    if (!tx.statusQuery || tx.statusQuery.seq !== msg.attempt) return; // stale or redelivered answer
    const cleared = clearStatus(tx, msg.outcome, now);
    await this.write(tx, asOneWrite(tx, this.applyStatusOutcome(cleared, msg.outcome, now)));
  }

  private applyOrderOutcome(tx: Transaction, banco: BancoId, outcome: BankOutcome, now: string): Transaction {
    switch (outcome.type) {
      case 'settled':
        return transition(tx, 'LIQUIDADA', 'bank_outcome', outcome, now);
      case 'accepted':
        return transition(tx, 'ACEPTADA', 'bank_outcome', outcome, now);
      case 'rejected':
        return transition(tx, 'RECHAZADA', 'bank_outcome', outcome, now);
      case 'unknown':
        // May have moved money: never resent, never rerouted; only a status query resolves it.
        return transition(tx, 'DESCONOCIDA', 'bank_outcome', { raw: outcome.raw }, now);
      case 'not_processed': {
        // Provably never reached the bank: a payout may go to the next able bank (SPEC 4.3).
        if (tx.kind === 'pagar') {
          const tried = new Set<BancoId>([...tx.attempts.map((a) => a.banco), ...this.unavailable(tx.mode)]);
          const next = candidateBanks(this.deps.routing, tx.mode, tx.request, tried)[0];
          if (next) {
            metrics.reroutes.inc({ from_bank: banco, to_bank: next });
            return dispatch(tx, next, railFor(tx.request), now);
          }
        }
        return transition(tx, 'RECHAZADA', 'bank_outcome', { motivo: 'BANCO_NO_DISPONIBLE', raw: { banco, ...outcome.raw } }, now);
      }
    }
  }

  private async review(txnId: string, reason: string): Promise<void> {
    const tx = await this.deps.store.transactions.get(txnId);
    if (!tx || isFinal(tx.estado) || tx.review) return;
    await this.write(tx, flagForReview(tx, reason, this.now().toISOString()));
  }

  private applyStatusOutcome(tx: Transaction, outcome: BankOutcome, now: string): Transaction {
    const move = (to: 'LIQUIDADA' | 'RECHAZADA' | 'PENDIENTE' | 'ACEPTADA') =>
      transition(tx, to, 'status_query', 'motivo' in outcome ? outcome : { raw: outcome.raw, ...refs(outcome) }, now);
    switch (outcome.type) {
      case 'settled':
        return move('LIQUIDADA');
      case 'rejected':
        return move('RECHAZADA');
      case 'accepted':
        if (outcome.pending && tx.estado !== 'PENDIENTE') return move('PENDIENTE');
        if (tx.estado === 'DESCONOCIDA') return move('ACEPTADA');
        return tx;
      case 'not_processed': {
        // The bank says it never got the order. Only when that has held for the whole settle window
        // is it proof enough to reject a DESCONOCIDA (nothing moved: BANCO_NO_DISPONIBLE).
        if (tx.estado !== 'DESCONOCIDA') return tx;
        // The unbroken run of "not found" answers up to now; any other answer restarts the window.
        const evidence = tx.evidence ?? [];
        const lastOther = evidence.map((e) => e.outcome !== 'not_processed').lastIndexOf(true);
        const notFound = evidence.slice(lastOther + 1);
        const first = notFound[0];
        const held = first ? Date.parse(now) - Date.parse(first.at) : 0;
        if (held < (this.deps.notFoundSettleMs ?? 600_000)) return tx;
        return transition(tx, 'RECHAZADA', 'status_query', { motivo: 'BANCO_NO_DISPONIBLE', raw: { switch: `the bank did not know the order for ${Math.round(held / 1000)} s`, evidence: notFound.map((e) => ({ at: e.at, raw: e.raw })), bank: outcome.raw } }, now);
      }
      case 'unknown':
        // No evidence either way: the state stays until the bank can say (reconciler keeps asking).
        return tx;
    }
  }

  /** Persist, then announce. A lost race means another write came first: the message is retried. */
  private async write(before: Transaction, next: Transaction): Promise<void> {
    if (isFinal(before.estado) && next.estado !== before.estado) throw new Error(`final transaction ${before.id} cannot change`);
    if (!(await this.deps.store.transactions.replace(next, before.version))) {
      throw new OptimisticConflict(`transaction ${before.id} changed since version ${before.version}`);
    }
    countTransition(next);
    await announce(this.deps.bus, this.deps.store, next);
  }
}

/** Metrics of the transition a write made, if it made one. */
function countTransition(tx: Transaction): void {
  const entry = tx.history[tx.history.length - 1];
  if (!entry || entry.version !== tx.version) return;
  metrics.operationsFinished.inc({ kind: tx.kind, bank: tx.bancoUsado ?? 'none', rail: tx.rail ?? 'none', mode: tx.mode, estado: entry.to, motivo_rechazo: entry.motivo ?? '' });
  if (entry.cause === 'status_query') metrics.reconcilerResolutions.inc({ from_estado: entry.from ?? 'new', to_estado: entry.to });
}

function refs(outcome: BankOutcome): { referencia?: string | null; endtoend?: string | null } {
  return {
    referencia: 'referencia' in outcome ? outcome.referencia : null,
    endtoend: 'endtoend' in outcome ? outcome.endtoend : null,
  };
}
