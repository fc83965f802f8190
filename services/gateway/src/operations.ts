import { randomUUID } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import {
  fingerprint,
  idempotencyScope,
  tokenMismatch,
  CobrarBody,
  PagarBody,
  ReversoBody,
  TokenBody,
  type CobrarBody as CobrarRequest,
  type Resultado,
} from '@switch/core/contracts/operaciones';
import { settledForReply, type OperationRequest, type Transaction, toResultado } from '@switch/core/operation';
import { isReconcilable } from '@switch/core/transaction-core';
import type { Bus } from '@switch/platform/ports/bus';
import { TOPICS, type RouterInboxMessage, type TransactionEventMessage } from '@switch/core/contracts/topics';
import type { SecretBox } from '@switch/platform/runtime/secret-box';
import type { Claims, ReversalClaim } from '@switch/platform/ports/claims';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import type { TransactionReads } from '@switch/platform/ports/transaction-reads';
import type { Caller } from './key-cache';
import { DependencyDown, HttpProblem, SchemaViolation } from '@switch/core/contracts/errors';
import type { Replies } from './reply';

const BODY_SCHEMAS = { token: TokenBody, cobrar: CobrarBody, pagar: PagarBody, reverso: ReversoBody } as const;

export interface OperationsDeps {
  /** The claims that make a request run once, the merchant's registered accounts, and the transactions it answers from. */
  store: Pick<Claims, 'idempotency' | 'reversals'> & Pick<MerchantDirectory, 'accounts'> & { transactions: Pick<TransactionReads, 'get'> };
  bus: Bus;
  replies: Replies;
  /** How long a caller waits for the bank's answer before being told DESCONOCIDA (SPEC 7.4). */
  answerTimeoutMs: number;
  /** How long /consultar waits for a fresh bank status before answering the stored state. */
  queryTimeoutMs: number;
  /** Seals a cobrar's OTP before the command leaves the gateway (DESIGN rule 7). */
  secrets: SecretBox;
}

export const newTransactionId = (): string => `txn_${randomUUID().replace(/-/g, '')}`;

/** A money operation's answer, and whether it is a replay (its key had been used already). */
export interface Answer {
  resultado: Resultado;
  /** The idempotency_key was claimed by an earlier request with the same body: this is that operation. */
  replayed: boolean;
}

/** What the routes of the money operations call: the operations, or them behind test mode's example answers (./sandbox.ts). */
export type MoneyOperations = Pick<Operations, 'run' | 'query'>;

/**
 * The gateway's side of a money operation: claim the idempotency key, hand the operation to the
 * transaction actor, wait for its answer. A repeat of a key gets the original operation's answer,
 * waiting for it when it is still in flight; the same key with another body is refused with 409.
 */
export class Operations {
  constructor(private readonly deps: OperationsDeps) {}

  async run(caller: Caller, request: OperationRequest): Promise<Answer> {
    const { store } = this.deps;
    // Fields the contract does not know (`mode`, `test`...) take no part in the identity of a request.
    const body = Value.Clean(BODY_SCHEMAS[request.kind], structuredClone(request.body)) as typeof request.body;
    const clean = { kind: request.kind, body } as OperationRequest;
    // The key is the scope, not the identity: a repeat may spell the UUID in another case.
    const { idempotency_key: _key, ...identity } = body as typeof body & { idempotency_key: string };
    const print = fingerprint(withOtpDigest(identity, this.deps.secrets));
    if (clean.kind === 'reverso') await this.assertOwned(caller, clean.body.id);
    // Before any claim: a refused request leaves nothing behind (the cobrar's hold on its key included).
    if (caller.mode === 'live') await this.assertOwnAccounts(caller, clean);

    const scope = idempotencyScope(caller.merchantId, caller.mode, clean.kind, body.idempotency_key);
    let candidate = newTransactionId();
    // A reverso claims its original first (one original, one reverso); a repeat of its request joins it.
    const original = clean.kind === 'reverso' ? await this.claimOriginal(clean.body.id, scope, candidate) : null;
    if (original) candidate = original.reversoId;
    // A cobrar's token is resolved here, beside its claim (the gateway's own idempotency table), and
    // travels in the command: the router never reads the gateway's table.
    const tokenId = clean.kind === 'cobrar' ? await this.resolveToken(caller, clean.body, candidate) : undefined;
    const claim = await store.idempotency
      .claim({
        scope,
        merchantId: caller.merchantId,
        mode: caller.mode,
        kind: clean.kind,
        key: body.idempotency_key,
        fingerprint: print,
        txnId: candidate,
        createdAt: new Date().toISOString(),
      })
      .catch(async (error: unknown) => {
        if (original?.claimedNow) await this.releaseOriginal(original.originalId, candidate);
        return unavailable(error);
      });
    // The key belongs to another operation (or to this same reverso, whose earlier hold was released):
    // this request's hold on the original was not needed.
    if (!claim.claimed && original?.claimedNow) await this.releaseOriginal(original.originalId, candidate);
    const txnId = claim.claimed ? candidate : claim.existing.txnId;
    if (!claim.claimed && claim.existing.fingerprint !== print) {
      throw new HttpProblem('IDEMPOTENCY_CONFLICT', {
        message:
          claim.existing.fingerprint === TOKENLESS_COBRAR
            ? `idempotency_key ${body.idempotency_key} was already taken by a cobrar without token; a token goes before its cobrar, under a new key`
            : `idempotency_key ${body.idempotency_key} was already used for a different ${clean.kind} request; use a new key for a new operation`,
      });
    }
    const command = sealedOtp(clean, this.deps.secrets);
    try {
      return { resultado: await this.answer(caller, txnId, command, print, claim.claimed, tokenId), replayed: !claim.claimed };
    } catch (error) {
      // The bus refused the command (its schema) before sending anything: the operation never started,
      // so the claim goes too and a retry with the key runs it (rather than answer a replay of nothing).
      if (claim.claimed && error instanceof PublishRefused) await store.idempotency.release(scope, candidate).catch(() => undefined);
      throw error;
    }
  }

  /**
   * DESIGN rule 9, the fast answer: the original is claimed for this reverso (atomic in the store; the
   * router holds the same claim before any bank order). Held by another request: 409 REVERSO_EXISTENTE
   * naming its reverso, nothing stored. Held by a repeat of this very request (same key): joined.
   */
  private async claimOriginal(
    originalId: string,
    scope: string,
    candidate: string,
  ): Promise<{ originalId: string; reversoId: string; claimedNow: boolean }> {
    const { store } = this.deps;
    const claim = () =>
      store.reversals.claim({ originalId, reversoId: candidate, scope, createdAt: new Date().toISOString() }).catch(unavailable);
    let held = await claim();
    // A hold whose request died before claiming its key (a gateway crash between the two writes) would
    // refuse every reverso for ever: once abandoned it is taken over. Safe even if that request wakes up:
    // the router claims the original again before any bank order, and refuses the one that lost.
    if (!held.claimed && held.existing.scope !== scope && (await this.abandoned(held.existing))) {
      await store.reversals.release(originalId, held.existing.reversoId).catch(unavailable);
      held = await claim();
    }
    if (held.claimed) return { originalId, reversoId: candidate, claimedNow: true };
    if (held.existing.scope === scope) return { originalId, reversoId: held.existing.reversoId, claimedNow: false };
    const reverso = held.existing.reversoId;
    throw new HttpProblem('REVERSO_EXISTENTE', {
      message: `operation ${originalId} already has its reverso ${reverso} (one reverso per operation); query it with /switch/v1/consultar`,
      reverso,
    });
  }

  /** A hold older than a request's life whose request never claimed its key, nor created its reverso. */
  private async abandoned(hold: ReversalClaim): Promise<boolean> {
    if (Date.now() - Date.parse(hold.createdAt) < ABANDONED_HOLD_MS) return false;
    const { store } = this.deps;
    const key = await store.idempotency.get(hold.scope).catch(unavailable);
    if (key?.txnId === hold.reversoId) return false;
    return (await store.transactions.get(hold.reversoId).catch(unavailable)) === null;
  }

  private async releaseOriginal(originalId: string, reversoId: string): Promise<void> {
    // Best effort: a hold left by a failure here names a reverso that never runs (see docs/decisions/0014-one-reverso-per-original.md).
    await this.deps.store.reversals.release(originalId, reversoId).catch(() => false);
  }

  /** Current state of a transaction, asking its bank first when the outcome is still open (SPEC 4.4). */
  async query(caller: Caller, id: string): Promise<Resultado> {
    const tx = await this.assertOwned(caller, id);
    if (tx.estado === null)
      return this.awaitEvent(
        tx.id,
        (e) => e.settledForReply,
        () => this.republish(tx),
      );
    if (!isReconcilable(tx)) return toResultado(tx);
    const waiting = this.deps.replies.waitForEvent(tx.id, (e) => e.version > tx.version && e.settledForReply, this.deps.queryTimeoutMs);
    await this.deps.bus
      .publish(TOPICS.routerInbox, tx.id, { type: 'query', txnId: tx.id, replyTo: this.deps.replies.gatewayId })
      .catch(unavailable);
    const event = await waiting.result;
    if (event?.resultado) return event.resultado;
    const fresh = await this.deps.store.transactions.get(tx.id);
    return toResultado(fresh ?? tx);
  }

  /** `fresh`: this request made the claim, so no transaction exists yet and none is read. */
  private async answer(
    caller: Caller,
    txnId: string,
    request: OperationRequest,
    print: string,
    fresh: boolean,
    tokenId: string | null | undefined,
  ): Promise<Resultado> {
    const execute = () =>
      this.execute({
        txnId,
        merchantId: caller.merchantId,
        mode: caller.mode,
        idempotencyKey: request.body.idempotency_key,
        fingerprint: print,
        request,
        ...(tokenId === undefined ? {} : { tokenId }),
      });
    if (!fresh) {
      const tx = await this.deps.store.transactions.get(txnId).catch(unavailable);
      if (tx && tx.estado !== null) return toResultado(tx);
    }
    // New, or still in flight: (re)hand it to the actor, which runs it once, and wait for its answer.
    // The command carries this gateway's address: a repeat of a key in flight on another gateway is
    // answered here too (the router records the address, docs/decisions/0016-answers-to-the-asking-gateway.md).
    return this.awaitEvent(txnId, (e) => e.settledForReply, execute, !fresh);
  }

  /** `recheck`: the operation may exist already (a repeat, a query), so its state is read after the wait is registered. */
  private async awaitEvent(
    txnId: string,
    predicate: (e: TransactionEventMessage) => boolean,
    send: () => Promise<void>,
    recheck = true,
  ): Promise<Resultado> {
    const waiting = this.deps.replies.waitForEvent(txnId, predicate, this.deps.answerTimeoutMs);
    // The outcome may have been written between the caller's read and the registration above.
    const current = recheck ? await this.deps.store.transactions.get(txnId).catch(unavailable) : null;
    if (current && settledForReply(current)) {
      waiting.cancel();
      return toResultado(current);
    }
    try {
      await send();
    } catch (error) {
      waiting.cancel();
      if (error instanceof SchemaViolation) throw new PublishRefused(error.message);
      unavailable(error);
    }
    const event = await waiting.result;
    if (event?.resultado) return event.resultado;
    return this.unknownOutcome(txnId);
  }

  /** The wait ran out: the caller must query, never resend with a new key (SPEC 3 rule 1, 7.4). */
  private async unknownOutcome(txnId: string): Promise<Resultado> {
    const tx = await this.deps.store.transactions.get(txnId).catch(() => null);
    if (tx && settledForReply(tx)) return toResultado(tx);
    return {
      id: txnId,
      estado: 'DESCONOCIDA',
      banco_usado: tx?.bancoUsado ?? null,
      referencia_banco: tx?.referenciaBanco ?? null,
      endtoend: tx?.endtoend ?? null,
      motivo_rechazo: null,
      intentos: tx?.attempts.length ?? 0,
      raw: { switch: 'the outcome did not arrive in time; query /switch/v1/consultar with this id before any retry' },
    };
  }

  private republish(tx: Transaction): Promise<void> {
    const { id: txnId, merchantId, mode, idempotencyKey, fingerprint, request } = tx;
    const tokenId = tx.kind === 'cobrar' ? { tokenId: tx.relatedId } : {};
    return this.execute({ txnId, merchantId, mode, idempotencyKey, fingerprint, request, ...tokenId });
  }

  /**
   * Hands an operation to the transaction actor; a repeat is harmless (the actor runs it once). The
   * command carries this gateway's reply address: the answers of the writes it makes come back here.
   */
  private execute(command: Omit<Extract<RouterInboxMessage, { type: 'execute' }>, 'type' | 'replyTo'>): Promise<void> {
    return this.deps.bus.publish(TOPICS.routerInbox, command.txnId, { type: 'execute', ...command, replyTo: this.deps.replies.gatewayId });
  }

  /**
   * A cobrar under the key of a token collects what the token asked for: the same amount, from the
   * same payer, into the same account. Anything else is refused (422) before any claim, so nothing
   * is stored and nothing reaches a bank. A cobrar without a token (an OTP captured by the caller) is free.
   * Token and cobrar of one key are serialized by the token's claim: the cobrar takes the token's
   * scope itself when it is free (a later token under that key is refused 409), and a token claimed
   * but not yet recorded cannot be compared, so the cobrar is refused 409 TOKEN_EN_CURSO (retry it).
   * Returns the token operation's id (the one claimed under the key), null when there is none.
   */
  private async resolveToken(caller: Caller, body: CobrarRequest, candidate: string): Promise<string | null> {
    const taken = await this.deps.store.idempotency
      .claim({
        scope: idempotencyScope(caller.merchantId, caller.mode, 'token', body.idempotency_key),
        merchantId: caller.merchantId,
        mode: caller.mode,
        kind: 'token',
        key: body.idempotency_key,
        fingerprint: TOKENLESS_COBRAR,
        txnId: candidate,
        createdAt: new Date().toISOString(),
      })
      .catch(unavailable);
    // The key was free of tokens, or taken by a cobrar without token before (this one or another body:
    // the cobrar's own claim tells which).
    if (taken.claimed || taken.existing.fingerprint === TOKENLESS_COBRAR) return null;
    const claim = taken.existing;
    const token = await this.deps.store.transactions.get(claim.txnId).catch(unavailable);
    if (token?.request.kind !== 'token') {
      throw new HttpProblem('TOKEN_EN_CURSO', {
        message: `the token of idempotency_key ${body.idempotency_key} is not recorded yet; retry the cobrar with the same key once the token has its answer`,
      });
    }
    const fields = tokenMismatch(token.request.body, body);
    if (fields.length === 0) return claim.txnId;
    throw new HttpProblem('TOKEN_MISMATCH', {
      message: `the cobrar does not match the token ${token.id} of idempotency_key ${body.idempotency_key} in: ${fields.join(', ')}`,
      detail: Object.fromEntries(fields.map((f) => [f, 'differs from the token request'])),
    });
  }

  /**
   * Live money moves only through the caller's own registered accounts: `ordenante` of a pagar,
   * `cobrador` of a cobrar or token (422 ACCOUNT_NOT_REGISTERED naming the field; nothing stored,
   * nothing sent). A `cuenta` instrument must be registered to the caller; a `telefono` one must be
   * the phone of one of its registered accounts. Test mode checks no register (SPEC 4.10.4).
   */
  private async assertOwnAccounts(caller: Caller, request: OperationRequest): Promise<void> {
    if (request.kind === 'reverso') return;
    const [field, instrument] = request.kind === 'pagar' ? ['ordenante', request.body.ordenante] : ['cobrador', request.body.cobrador];
    const { accounts } = this.deps.store;
    const own =
      instrument.tipo === 'cuenta'
        ? (await accounts.find('live', instrument.valor).catch(unavailable))?.merchantId === caller.merchantId
        : (await accounts.list(caller.merchantId, 'live').catch(unavailable)).some((a) => a.telefono === instrument.valor);
    if (!own) {
      throw new HttpProblem('ACCOUNT_NOT_REGISTERED', {
        message: `${field} is not one of your registered accounts in live mode (register it with the operator: account add)`,
        detail: { [field]: 'is not one of your registered accounts' },
      });
    }
  }

  /** Another merchant's or the other mode's transaction is indistinguishable from none (404, not 403). */
  private async assertOwned(caller: Caller, id: string): Promise<Transaction> {
    const tx = await this.deps.store.transactions.get(id).catch(unavailable);
    if (!tx || tx.merchantId !== caller.merchantId || tx.mode !== caller.mode) {
      throw new HttpProblem('NOT_FOUND', { message: `no transaction ${id}` });
    }
    return tx;
  }
}

/**
 * The fingerprint of the hold a cobrar without token puts on its key's token scope: no request body
 * hashes to it, so a token arriving later under that key is refused as a conflict.
 */
const TOKENLESS_COBRAR = 'cobrar-sin-token';

/**
 * A reverso's hold on its original is followed by its key's claim within the same request (two store
 * writes, milliseconds apart); one older than this without that claim was left by a crash.
 */
const ABANDONED_HOLD_MS = 60_000;

/** The bus refused a command by its schema: nothing was sent (503, as any dependency failure). */
class PublishRefused extends DependencyDown {}

/**
 * The payer's OTP never leaves the gateway in clear (DESIGN rule 7): the command, and so the bus, the
 * transaction record and the bank order, carry it sealed under the secrets key; the bank worker opens
 * it just before calling the bank. Views leave it out entirely (`toDetalle`).
 */
function sealedOtp(request: OperationRequest, secrets: SecretBox): OperationRequest {
  if (request.kind !== 'cobrar') return request;
  return { kind: 'cobrar', body: { ...request.body, otp: secrets.seal(request.body.otp) } };
}

/**
 * A request's identity with the OTP as a keyed digest: a repeat with another OTP is still another
 * request (409), yet the stored fingerprint cannot be reversed by hashing every 6-8 digit OTP with the
 * request's other, readable, fields. Keyed by the current secrets key: a repeat sent across a key
 * rotation is refused as different (docs/decisions/0027-payer-otp.md).
 */
function withOtpDigest(identity: Record<string, unknown>, secrets: SecretBox): Record<string, unknown> {
  return typeof identity.otp === 'string' ? { ...identity, otp: secrets.digest('otp', identity.otp) } : identity;
}

function unavailable(error: unknown): never {
  throw new DependencyDown(error instanceof Error ? error.message : String(error));
}
