import {
  bankRequestHeaders,
  bankRequests,
  TOPICS,
  transactionEventHeaders,
  type TransactionEventMessage,
  type RouterInboxMessage,
} from '@switch/core/contracts/topics';
import type { Bus } from '@switch/platform/ports/bus';
import {
  type Effects,
  effectsOf,
  decide,
  messageKey,
  DEFAULT_CORE_POLICY,
  releasesReversal,
  reversible,
  startsOperation,
  type CorePolicy,
  type Refusal,
  type Decision,
} from '@switch/core/transaction-core';
import { idempotencyScope } from '@switch/core/contracts/operaciones';
import { type Transaction, newTransaction, settledForReply } from '@switch/core/operation';
import { bankOrderId, type OrderJournal } from '@switch/platform/ports/order-journal';
import type { Claims } from '@switch/platform/ports/claims';
import type { Counters } from '@switch/platform/ports/counters';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import type { TransactionReads } from '@switch/platform/ports/transaction-reads';
import {
  blocklistHit,
  dailyLimitKey,
  subjectOf,
  velocityKey,
  reservesLiveBudget,
  velocityKeptUntil,
  dailyLimitKeptUntil,
  type RiskPolicy,
} from '@switch/core/risk';
import { isFinal } from '@switch/core/estados';
import { metrics } from '@switch/platform/telemetry/metrics';
import type { BancoId, Mode } from '@switch/core/contracts/bancos';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { RoutingTable } from '@switch/core/routing';
import { type DeliveryMarks, type LoggedTransaction, type TransactionLog, withReplyAddress } from '@switch/platform/ports/transaction-log';

type ExecuteMessage = Extract<RouterInboxMessage, { type: 'execute' }>;

/** The ports the actor uses: its transaction log, and what it reads or claims beside it. */
export interface RouterStore extends Pick<MerchantDirectory, 'accounts'>, Pick<Claims, 'reversals'>, Counters, OrderJournal {
  transactionLog: TransactionLog;
  transactions: Pick<TransactionReads, 'get'>;
}

export interface ActorDeps {
  bus: Bus;
  store: RouterStore;
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
 * The newest states this actor committed, each with the assignment epoch it was committed under, so the
 * next message of a transaction in the same epoch needs no read: the actor held the partition
 * throughout and is the only writer (a stale one could only be refused by the compare-and-set).
 * Bounded: the oldest entries go first.
 */
export class WrittenStates {
  private readonly states = new Map<string, { logged: LoggedTransaction; epoch: number }>();
  constructor(private readonly capacity = 20_000) {}

  get(id: string, epoch: number): LoggedTransaction | undefined {
    const entry = this.states.get(id);
    return entry?.epoch === epoch ? entry.logged : undefined;
  }

  remember(logged: LoggedTransaction, epoch: number): void {
    this.states.delete(logged.tx.id);
    this.states.set(logged.tx.id, { logged, epoch });
    if (this.states.size > this.capacity) this.states.delete(this.states.keys().next().value as string);
  }

  forget(id: string): void {
    this.states.delete(id);
  }
}

/** A message's transaction as loaded: the record, its delivery marks, and whether it is stored yet. */
interface Loaded extends LoggedTransaction {
  /** False for a new operation: its first commit is the insert. */
  stored: boolean;
  /** A new operation assumed without reading: its insert fails if the transaction exists after all. */
  assumedNew: boolean;
  /** The transaction `relatedId` names (a cobrar's token, a reverso's original), if any. */
  related: Transaction | null;
}

/** The gateway waiting for this message's answer: a command (execute, query) carries its reply address. */
function replyAddressOf(message: RouterInboxMessage): string | undefined {
  return message.type === 'execute' || message.type === 'query' ? message.replyTo : undefined;
}

/**
 * The transaction actor: the only writer of a transaction's state. For each message it loads the
 * transaction from its log, asks the transaction core (`decide`, in @switch/core/transaction-core) what the message
 * means, commits the answer (a compare-and-set on the version) and announces it. Messages of one
 * transaction reach it one at a time (one key, one partition); the conditional commit means even a
 * misrouted concurrent handler cannot win twice.
 */
export class TransactionActor {
  private readonly now: () => Date;
  private readonly policy: CorePolicy;
  /** Exposed for tests: what the actor remembers of its own commits. */
  readonly written = new WrittenStates();
  constructor(private readonly deps: ActorDeps) {
    this.now = deps.now ?? (() => new Date());
    this.policy = { ...DEFAULT_CORE_POLICY, ...deps.policy };
  }

  /**
   * `epoch` is the inbox subscription's assignment epoch (Delivered.epoch): a state this actor committed
   * under the same epoch is still the newest, so it is used without reading the log.
   */
  handle(message: RouterInboxMessage, epoch?: number): Promise<void> {
    return this.run(message, epoch, true);
  }

  private async run(message: RouterInboxMessage, epoch: number | undefined, mayAssumeNew: boolean): Promise<void> {
    const loaded = await this.load(message, epoch, mayAssumeNew);
    if (!loaded) return;
    const decision = decide(loaded.tx, message, await this.context(loaded, message));
    if (!decision.next) return this.unchanged(loaded, message, decision.why);
    const replyTo = await this.commit(loaded, message, decision, epoch);
    // A new operation assumed without reading exists after all (a redelivery): read it, decide again.
    if (!replyTo) return this.run(message, epoch, false);
    // Before the answer goes out: a caller told "refused" may send a new reverso at once.
    await this.releaseOriginal(decision.next);
    await announce(this.deps.bus, decision.next, decision.effects, replyTo);
  }

  /** The message's transaction, or (an `execute` of an unknown one) the new operation; null when there is nothing to act on. */
  private async load(message: RouterInboxMessage, epoch: number | undefined, mayAssumeNew: boolean): Promise<Loaded | null> {
    const { store, log } = this.deps;
    // A new operation's first message reads nothing: its insert fails if the transaction exists (a
    // redelivery), and only then is it read. Not when live controls apply: their counters would count
    // a redelivery twice.
    const assumedNew = mayAssumeNew && message.type === 'execute' && !(message.mode === 'live' && this.deps.risk);
    const known = epoch === undefined ? undefined : this.written.get(message.txnId, epoch);
    const logged = known ?? (assumedNew ? null : await store.transactionLog.load(message.txnId));
    if (!logged && message.type !== 'execute') {
      log.warn({ txnId: message.txnId, type: message.type }, 'message for an unknown transaction');
      return null;
    }
    // A new operation is decided before it is stored: its first write already holds the route and the
    // order (one insert, not an insert and then a dispatch write).
    const tx = logged?.tx ?? (await this.create(message as ExecuteMessage));
    const marks = logged?.marks ?? { announcedVersion: tx.version, writtenBy: null, replyTo: [] };
    const related = tx.relatedId ? await store.transactions.get(tx.relatedId) : null;
    return { tx, marks, stored: logged !== null, assumedNew: assumedNew && !logged, related };
  }

  /** What `decide` needs besides the transaction: the clock, the routing, and (for a start) live controls and the reverso's claim. */
  private async context({ tx, related }: Loaded, message: RouterInboxMessage) {
    const starts = startsOperation(tx, message);
    return {
      now: this.now().toISOString(),
      policy: this.policy,
      routing: this.deps.routing,
      unavailable: this.unavailable(tx.mode),
      related,
      refusal: starts && tx.mode === 'live' ? await this.liveControls(tx) : null,
      reversedBy: starts && tx.kind === 'reverso' ? await this.claimOriginal(tx, related) : null,
    };
  }

  /**
   * A message that changes nothing. A gateway's command while the answer is still to come (a repeat of
   * the key at another gateway while the order is in flight, a /consultar while a status query is out)
   * is a new waiter: its address is recorded in the log, so the answer reaches that gateway too and a
   * repeat gets the very answer the first caller gets (DESIGN rule 5). It is no redelivery of the
   * message that made the stored version (that one's address is recorded), and it is handled only
   * after every earlier message of the transaction was committed, each after its announcement: the
   * stored version was announced, and its mark rides on the same write.
   * Otherwise, if this message made the stored version, this is its redelivery after a failed
   * announcement or a crash: the inbox is the outbox (the offset of the message that made a write is
   * committed only after its announcement), so announcing the stored state again is what repairs a
   * lost one (DESIGN rule 1: re-announce, never re-execute). Receivers dedupe. A final state carries
   * its own mark (committed with it), so for it the mark says nothing. A gateway asking about an
   * operation whose answer was given already is answered from the stored state.
   */
  private async unchanged({ tx, marks, stored, related }: Loaded, message: RouterInboxMessage, why: string): Promise<void> {
    const { store, bus, log } = this.deps;
    if (message.type === 'bank_result') log.debug({ txnId: tx.id, why }, 'bank result changes nothing');
    if (!stored) return;
    const address = replyAddressOf(message);
    if (address && !settledForReply(tx) && !marks.replyTo.includes(address)) {
      const waiting = { ...marks, announcedVersion: tx.version, replyTo: withReplyAddress(marks.replyTo, address) };
      this.written.forget(tx.id);
      if (!(await store.transactionLog.updateMarks(tx.id, tx.version, waiting))) {
        throw new OptimisticConflict(`transaction ${tx.id} changed since version ${tx.version}`);
      }
      return;
    }
    if (marks.writtenBy === messageKey(message) && (isFinal(tx.estado) || marks.announcedVersion < tx.version)) {
      await this.releaseOriginal(tx);
      await announce(bus, tx, effectsOf(tx, related), marks.replyTo);
      if (!isFinal(tx.estado)) await store.transactionLog.markAnnounced(tx.id, tx.version);
      this.written.forget(tx.id);
    }
    if (address && settledForReply(tx)) await answer(bus, address, effectsOf(tx, related).event);
  }

  /**
   * Persists the decision with its delivery marks; returns who waits for its answer, or null when a
   * new operation assumed without reading turned out to exist. The outbox mark
   * rides on the commit: this message is handled only after every earlier message of the transaction
   * was committed, and each was committed only after its write was announced. A final state takes no
   * next write to carry its mark, so it carries its own: its announcement's only keeper is this
   * message, which is committed only after announcing it and, if the announcement fails or the process
   * dies first, comes back and announces it again (`unchanged`). No relay needed.
   */
  private async commit(
    { tx, marks, stored, assumedNew }: Loaded,
    message: RouterInboxMessage,
    decision: Extract<Decision, { next: Transaction }>,
    epoch: number | undefined,
  ): Promise<string[] | null> {
    const { store } = this.deps;
    const { next } = decision;
    const address = replyAddressOf(message);
    const written: DeliveryMarks = {
      announcedVersion: isFinal(next.estado) ? next.version : tx.version,
      writtenBy: messageKey(message),
      // The asking gateway's address rides on the write its command made: this write's answer, and
      // those of later writes (the bank's outcome), go to it.
      replyTo: address ? withReplyAddress(marks.replyTo, address) : marks.replyTo,
    };
    if (decision.fence) {
      // Lost to the worker (it claimed first): the order was sent, and the status query will tell.
      const { txnId, attempt } = decision.fence;
      await store.bankOrders.claim({
        ...decision.fence,
        id: bankOrderId(txnId, attempt),
        claimedBy: 'router:order-deadline',
        claimedAt: next.updatedAt,
        outcome: null,
        recordedAt: null,
      });
    }
    if (!(await store.transactionLog.commit(next, stored ? tx.version : null, written))) {
      this.written.forget(tx.id);
      if (assumedNew) return null;
      throw new OptimisticConflict(
        stored ? `transaction ${tx.id} changed since version ${tx.version}` : `transaction ${tx.id} created concurrently`,
      );
    }
    // A final state takes no more writes: nothing to keep.
    if (epoch !== undefined && !isFinal(next.estado)) this.written.remember({ tx: next, marks: written }, epoch);
    else this.written.forget(tx.id);
    if (!stored) metrics.operationsStarted.inc({ kind: next.kind, mode: next.mode });
    if (decision.rerouted) metrics.reroutes.inc({ from_bank: decision.rerouted.from, to_bank: decision.rerouted.to });
    countTransition(next);
    return written.replyTo;
  }

  /**
   * The outbox relay: announces again writes left unmarked for longer than `graceMs` (written at or
   * before `before`): a state waiting for a bank's answer whose announcement may have been lost with a
   * crash, or one a dead-lettered or redriven message wrote. Receivers dedupe; the bank worker's
   * journal sends an order once. Marks each after announcing it.
   */
  async relay(before: string, limit = 100, fence?: { holds(): boolean }): Promise<number> {
    const { store } = this.deps;
    const pending = await store.transactionLog.listUnannounced(before, limit);
    let announced = 0;
    for (const { tx, marks } of pending) {
      // Under a lease: nothing more once it may have passed to another replica (that one relays the rest).
      if (fence && !fence.holds()) break;
      const related = tx.relatedId ? await store.transactions.get(tx.relatedId) : null;
      await announce(this.deps.bus, tx, effectsOf(tx, related), marks.replyTo);
      await store.transactionLog.markAnnounced(tx.id, tx.version);
      announced++;
    }
    return announced;
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
      // the router reads no table of the gateway's.
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

/**
 * Publishes what a persisted write implies: its order or status query, its event (`effectsOf` the
 * written document) and, when a waiting caller can be answered from it, its answer to each gateway
 * waiting for it (`replyTo`, the transaction log's reply addresses), on the answers topic keyed by that gateway's
 * instance id: only the gateway that asked reads it. They go to different topics and readers, so they
 * are published together (one produce request on Kafka) and awaited together. Run again for the same
 * write (a redelivered message finds it applied) it publishes the same messages: the bank worker's
 * journal sends an attempt at most once, and receivers dedupe events by id and version. A failure of
 * any throws, so the message that made the write is not committed and comes back.
 */
export async function announce(bus: Bus, tx: Transaction, { bank, event }: Effects, replyTo: readonly string[]): Promise<void> {
  const publishes: Promise<void>[] = [];
  if (bank) publishes.push(bus.publish(bankRequests(bank.banco), tx.id, bank.message, bankRequestHeaders(bank.message)));
  publishes.push(bus.publish(TOPICS.transactions, tx.id, event, transactionEventHeaders(event)));
  if (event.settledForReply) for (const gatewayId of replyTo) publishes.push(answer(bus, gatewayId, event));
  await Promise.all(publishes);
}

/** The answer of one announced write to one gateway, keyed by its instance id (only that gateway reads it). */
export function answer(bus: Bus, gatewayId: string, event: TransactionEventMessage): Promise<void> {
  return bus.publish(TOPICS.gatewayAnswers, gatewayId, { gatewayId, event });
}
