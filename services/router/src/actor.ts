import {
  bankOrderId,
  blocklistHit,
  dailyLimitKey,
  decide,
  effectsOf,
  idempotencyScope,
  isFinal,
  messageKey,
  DEFAULT_CORE_POLICY,
  metrics,
  newTransaction,
  releasesReversal,
  reversible,
  settledForReply,
  startsOperation,
  subjectOf,
  velocityKey,
  replyAddressOf,
  reservesLiveBudget,
  velocityKeptUntil,
  dailyLimitKeptUntil,
  type BancoId,
  type Bus,
  type CorePolicy,
  type Logger,
  type Mode,
  type Refusal,
  type RiskPolicy,
  type RouterInboxMessage,
  type RoutingTable,
  type Store,
  type Transaction,
} from '@switch/shared';
import { announce, answer } from './announce';

type ExecuteMessage = Extract<RouterInboxMessage, { type: 'execute' }>;

export interface ActorDeps {
  bus: Bus;
  store: Store;
  routing: RoutingTable;
  log: Logger;
  now?: () => Date;
  /** Banks to skip (open breakers), asked at routing time. */
  unavailableBanks?: (mode: Mode) => ReadonlySet<BancoId>;
  /** Deadlines and backoff of the transaction core; DEFAULT_CORE_POLICY where not given. */
  policy?: Partial<CorePolicy>;
  /** Live-money controls; test mode never applies them (SPEC 4.10.5). */
  risk?: RiskPolicy;
}

export class OptimisticConflict extends Error {}

/**
 * The newest states this actor wrote, each with the assignment epoch it was written under, so the next
 * message of a transaction in the same epoch needs no read. Bounded: the oldest entries go first.
 */
export class WrittenStates {
  private readonly states = new Map<string, { tx: Transaction; epoch: number }>();
  constructor(private readonly capacity = 20_000) {}

  get(id: string, epoch: number): Transaction | undefined {
    const entry = this.states.get(id);
    return entry?.epoch === epoch ? entry.tx : undefined;
  }

  remember(tx: Transaction, epoch: number): void {
    this.states.delete(tx.id);
    this.states.set(tx.id, { tx, epoch });
    if (this.states.size > this.capacity) this.states.delete(this.states.keys().next().value as string);
  }

  forget(id: string): void {
    this.states.delete(id);
  }
}

/**
 * The transaction actor: the only writer of a transaction's state. It loads, asks the transaction
 * core (`decide`, in @switch/shared) what the message means, persists the answer with a
 * compare-and-set and announces it. Messages of one transaction reach it one at a time (one key, one
 * partition); the conditional write means even a misrouted concurrent handler cannot win twice.
 */
export class TransactionActor {
  private readonly now: () => Date;
  private readonly policy: CorePolicy;
  /** Exposed for tests: what the actor remembers of its own writes. */
  readonly written: WrittenStates;
  constructor(private readonly deps: ActorDeps) {
    this.written = new WrittenStates();
    this.now = deps.now ?? (() => new Date());
    this.policy = { ...DEFAULT_CORE_POLICY, ...deps.policy };
  }

  /**
   * `epoch` is the inbox subscription's assignment epoch (Delivered.epoch): a state this actor wrote under
   * the same epoch is still the newest (it held the partition throughout and is the only writer), so it
   * is used without reading the store. A stale one could only be refused by the compare-and-set.
   */
  async handle(message: RouterInboxMessage, epoch?: number): Promise<void> {
    const known = epoch === undefined ? undefined : this.written.get(message.txnId, epoch);
    if (known) return void (await this.apply(message, known, epoch, false));
    // A new operation's first message reads nothing: its insert fails if the transaction exists (a
    // redelivery), and only then is it read. Not when live controls apply: their counters would count a
    // redelivery twice.
    const fresh = message.type === 'execute' && !(message.mode === 'live' && this.deps.risk);
    if (fresh && (await this.apply(message, null, epoch, true))) return;
    await this.apply(message, await this.deps.store.transactions.get(message.txnId), epoch, false);
  }

  /** False only for `optimistic` when the transaction turned out to exist (the caller reads it and comes back). */
  private async apply(
    message: RouterInboxMessage,
    stored: Transaction | null,
    epoch: number | undefined,
    optimistic: boolean,
  ): Promise<boolean> {
    const { store, log } = this.deps;
    if (!stored && message.type !== 'execute') {
      log.warn({ txnId: message.txnId, type: message.type }, 'message for an unknown transaction');
      return true;
    }
    // A new operation is decided before it is stored: its first write already holds the route and the
    // order (one insert, not an insert and then a dispatch write).
    const tx = stored ?? (await this.create(message as ExecuteMessage));
    const related = tx.relatedId ? await store.transactions.get(tx.relatedId) : null;
    const refusal = tx.mode === 'live' && startsOperation(tx, message) ? await this.liveControls(tx) : null;
    const reversedBy = tx.kind === 'reverso' && startsOperation(tx, message) ? await this.claimOriginal(tx, related) : null;
    const decision = decide(tx, message, {
      now: this.now().toISOString(),
      policy: this.policy,
      routing: this.deps.routing,
      unavailable: this.unavailable(tx.mode),
      related,
      refusal,
      reversedBy,
    });
    if (!decision.next) {
      if (message.type === 'bank_result') log.debug({ txnId: tx.id, why: decision.why }, 'bank result changes nothing');
      // Nothing new. If this message made the stored version, this is its redelivery after a failed
      // announcement or a crash: the inbox is the outbox (the offset of the message that made a write
      // is committed only after its announcement), so announcing the stored state again is what
      // repairs a lost one (DESIGN rule 1: re-announce, never re-execute). Receivers dedupe.
      // A final state carries its own mark (written with it, below), so for it the mark says nothing.
      if (stored && stored.writtenBy === messageKey(message) && (isFinal(stored.estado) || stored.announcedVersion < stored.version)) {
        await this.releaseOriginal(stored);
        await announce(this.deps.bus, stored, effectsOf(stored, related));
        if (!isFinal(stored.estado)) await store.transactions.markAnnounced(stored.id, stored.version);
        this.written.forget(stored.id);
      }
      // A gateway asking about an operation whose answer was already given (its command came after the
      // outcome, behind the gateway's own read of the store): it is answered from the stored state.
      const address = replyAddressOf(message);
      if (stored && address && settledForReply(stored)) await answer(this.deps.bus, address, effectsOf(stored, related).event);
      return true;
    }
    decision.next.writtenBy = messageKey(message);
    // The outbox mark rides on the write: this message is handled only after every earlier message of
    // the transaction was committed, and each was committed only after its write was announced. A final
    // state takes no next write to carry its mark, so it carries its own: its announcement's only
    // keeper is this message, which is committed only after announcing it and, if the announcement
    // fails or the process dies first, comes back and announces it again (above). No relay needed.
    decision.next.announcedVersion = isFinal(decision.next.estado) ? decision.next.version : tx.version;
    if (decision.fence) {
      // Lost to the worker (it claimed first): the order was sent, and the status query will tell.
      const { txnId, attempt } = decision.fence;
      await store.bankOrders.claim({
        ...decision.fence,
        id: bankOrderId(txnId, attempt),
        claimedBy: 'router:order-deadline',
        claimedAt: decision.next.updatedAt,
        outcome: null,
        recordedAt: null,
      });
    }
    if (stored) {
      if (!(await store.transactions.replace(decision.next, stored.version))) {
        this.written.forget(tx.id);
        throw new OptimisticConflict(`transaction ${tx.id} changed since version ${stored.version}`);
      }
    } else {
      if (!(await store.transactions.insert(decision.next))) {
        if (optimistic) return false;
        throw new OptimisticConflict(`transaction ${tx.id} created concurrently`);
      }
      metrics.operationsStarted.inc({ kind: decision.next.kind, mode: decision.next.mode });
    }
    // A final state takes no more writes: nothing to keep.
    if (epoch !== undefined && !isFinal(decision.next.estado)) this.written.remember(decision.next, epoch);
    else this.written.forget(tx.id);
    if (decision.rerouted) metrics.reroutes.inc({ from_bank: decision.rerouted.from, to_bank: decision.rerouted.to });
    countTransition(decision.next);
    // Before the answer goes out: a caller told "refused" may send a new reverso at once.
    await this.releaseOriginal(decision.next);
    await announce(this.deps.bus, decision.next, decision.effects);
    return true;
  }

  /**
   * The outbox relay: announces again writes left unmarked for longer than `graceMs` (written at or
   * before `before`): a state waiting for a bank's answer whose announcement may have been lost with a
   * crash, or one a dead-lettered or redriven message wrote. Receivers dedupe; the bank worker's
   * journal sends an order once. Marks each after announcing it.
   */
  async relay(before: string, limit = 100): Promise<number> {
    const { store } = this.deps;
    const pending = await store.transactions.listUnannounced(before, limit);
    for (const tx of pending) {
      const related = tx.relatedId ? await store.transactions.get(tx.relatedId) : null;
      await announce(this.deps.bus, tx, effectsOf(tx, related));
      await store.transactions.markAnnounced(tx.id, tx.version);
    }
    return pending.length;
  }

  /**
   * DESIGN rule 9: a reverso about to start claims its original (atomic in the store; the gateway made
   * the same claim already, so this one usually finds its own). Returns the other reverso holding the
   * original, if any. An original that cannot be reversed is not claimed: the core refuses it anyway.
   */
  private async claimOriginal(tx: Transaction, related: Transaction | null): Promise<string | null> {
    if (!tx.relatedId || reversible(tx, related) !== null) return null;
    const claim = await this.deps.store.reversals.claim({
      originalId: tx.relatedId,
      reversoId: tx.id,
      scope: idempotencyScope(tx.merchantId, tx.mode, 'reverso', tx.idempotencyKey),
      createdAt: this.now().toISOString(),
    });
    return claim.claimed || claim.existing.reversoId === tx.id ? null : claim.existing.reversoId;
  }

  /** A reverso refused before any bank saw it lets go of its original (only if it holds it): a later reverso may run. */
  private async releaseOriginal(tx: Transaction): Promise<void> {
    if (tx.relatedId && releasesReversal(tx)) await this.deps.store.reversals.release(tx.relatedId, tx.id);
  }

  private async create(msg: ExecuteMessage): Promise<Transaction> {
    const now = this.now().toISOString();
    let relatedId: string | null = null;
    if (msg.request.kind === 'cobrar') {
      // The gateway resolved the token when it claimed the cobrar's key (its own idempotency table):
      // the router reads no table of the gateway's. Absent (a command of the previous inbox): none.
      relatedId = msg.tokenId ?? null;
    } else if (msg.request.kind === 'reverso') {
      relatedId = msg.request.body.id;
    }
    const tx = newTransaction({
      id: msg.txnId,
      merchantId: msg.merchantId,
      mode: msg.mode,
      idempotencyKey: msg.idempotencyKey,
      fingerprint: msg.fingerprint,
      request: msg.request,
      relatedId,
      now,
    });
    // Live money moves only through the merchant's own registered accounts (gateway-checked too).
    if (msg.mode === 'live') {
      tx.merchantAccounts = (await this.deps.store.accounts.list(msg.merchantId, 'live')).map((a) => ({
        banco: a.banco,
        cuenta: a.cuenta,
        telefono: a.telefono,
        ...(a.rif ? { rif: a.rif } : {}),
      }));
    }
    return tx;
  }

  /**
   * Risk engine then daily limit, before any bank is asked. Both explain themselves in `raw`. The daily
   * amount is reserved when the operation is let through (a later bank rejection does not give it back:
   * the limit errs on the side of less live money). Only money-moving operations reserve the velocity
   * and daily budgets (`reservesLiveBudget`): a token never does, so a collection counts once, by its cobrar.
   */
  private async liveControls(tx: Transaction): Promise<Refusal | null> {
    const policy = this.deps.risk;
    if (!policy) return null;
    const at = this.now();
    const subject = subjectOf(tx.request);
    if (subject) {
      const hit = blocklistHit(policy, subject);
      if (hit) return { motivo: 'BLOQUEO_RIESGO', raw: { switch: 'risk_engine', rule: hit.rule, subject: hit.value } };
      if (policy.maxOperationsPerSubjectPerHour !== null && reservesLiveBudget(tx.request)) {
        const { count } = await this.deps.store.counters.add(velocityKey(subject, at), 0, 1, velocityKeptUntil(at));
        if (count > policy.maxOperationsPerSubjectPerHour) {
          return {
            motivo: 'BLOQUEO_RIESGO',
            raw: {
              switch: 'risk_engine',
              rule: 'velocity',
              subject: subject.identificacion,
              operationsThisHour: count,
              max: policy.maxOperationsPerSubjectPerHour,
            },
          };
        }
      }
    }
    const body = tx.request.body;
    if (policy.dailyLimitVes !== null && reservesLiveBudget(tx.request) && 'monto' in body) {
      const key = dailyLimitKey(tx.merchantId, at);
      const used = await this.deps.store.counters.add(key, body.monto.valor, 1, dailyLimitKeptUntil(at));
      if (used.amount > policy.dailyLimitVes) {
        await this.deps.store.counters.add(key, -body.monto.valor, -1, dailyLimitKeptUntil(at));
        return {
          motivo: 'EXCEDE_LIMITE',
          raw: {
            switch: 'daily_limit',
            limitVes: policy.dailyLimitVes,
            usedVes: Math.round((used.amount - body.monto.valor) * 100) / 100,
            requestedVes: body.monto.valor,
          },
        };
      }
    }
    return null;
  }

  private unavailable(mode: Mode): ReadonlySet<BancoId> {
    return this.deps.unavailableBanks?.(mode) ?? new Set();
  }
}

/** Metrics of the transition a write made, if it made one. */
function countTransition(tx: Transaction): void {
  const entry = tx.history[tx.history.length - 1];
  if (!entry || entry.version !== tx.version) return;
  metrics.operationsFinished.inc({
    kind: tx.kind,
    bank: tx.bancoUsado ?? 'none',
    rail: tx.rail ?? 'none',
    mode: tx.mode,
    estado: entry.to,
    motivo_rechazo: entry.motivo ?? '',
  });
  if (entry.cause === 'status_query') metrics.reconcilerResolutions.inc({ from_estado: entry.from ?? 'new', to_estado: entry.to });
}
