import { literals } from './fields';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CobrarBody, PagarBody, ReversoBody, TokenBody, EstadoSchema, MotivoSchema, Resultado } from './operaciones';
import { Movimientos, MovimientosQuery, Saldo, SaldoQuery, CreditoRecibido, CreditosQuery, BANCOS, type BancoId } from './bancos';
import { webhookEventOf } from './webhook';
import type { TopicKind } from './topic-kinds';

/**
 * Payloads that travel on the bus. Each topic has one schema here; producers are refused a payload
 * that does not match it, and the same schemas are registered with the schema registry.
 */
const Raw = Type.Record(Type.String(), Type.Unknown());
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Mode = literals(['test', 'live'] as const);
const Banco = literals(BANCOS);
const Rail = literals(['credito_inmediato', 'pago_movil', 'c2p', 'debito_inmediato', 'reverso'] as const);

/**
 * A cobrar as it travels: its `otp` sealed by the gateway (packages/platform/src/runtime/secret-box.ts), never
 * the payer's digits (DESIGN rule 7). Only the pattern is gone from the field as registered, which
 * the registry's BACKWARD check accepts (a schema that accepts more reads every earlier message).
 */
const CobrarAsSent = Type.Object({
  ...CobrarBody.properties,
  otp: Type.String({ description: 'The OTP sealed under the secrets key (sb1.<key id>.…); opened only by the bank worker' }),
});

export const OperationRequestSchema = Type.Union([
  Type.Object({ kind: Type.Literal('token'), body: TokenBody }),
  Type.Object({ kind: Type.Literal('cobrar'), body: CobrarAsSent }),
  Type.Object({ kind: Type.Literal('pagar'), body: PagarBody }),
  Type.Object({ kind: Type.Literal('reverso'), body: ReversoBody }),
]);

export const BankOutcomeSchema = Type.Union([
  Type.Object({ type: Type.Literal('settled'), referencia: Nullable(Type.String()), endtoend: Nullable(Type.String()), raw: Raw }),
  Type.Object({
    type: Type.Literal('accepted'),
    pending: Type.Boolean(),
    referencia: Nullable(Type.String()),
    endtoend: Nullable(Type.String()),
    raw: Raw,
  }),
  Type.Object({ type: Type.Literal('rejected'), motivo: MotivoSchema, referencia: Nullable(Type.String()), raw: Raw }),
  Type.Object({ type: Type.Literal('not_processed'), raw: Raw }),
  Type.Object({ type: Type.Literal('unknown'), raw: Raw }),
]);

/**
 * Everything the transaction actor acts on, on one topic keyed by transaction id, so it is one actor
 * per id. Version 2 of the inbox: an `execute` or `query` carries the asking gateway's reply address
 * (`replyTo`, its instance id), and a cobrar's `execute` the token operation the gateway resolved when
 * it claimed the key (`tokenId`), so the router never reads the gateway's idempotency table.
 */
const ReplyTo = Type.Optional(Type.String({ minLength: 1, description: "The asking gateway's instance id: where answers go" }));
export const RouterInboxMessage = Type.Union([
  Type.Object({
    type: Type.Literal('execute'),
    txnId: Type.String(),
    merchantId: Type.String(),
    mode: Mode,
    idempotencyKey: Type.String(),
    fingerprint: Type.String(),
    request: OperationRequestSchema,
    replyTo: ReplyTo,
    /** A cobrar only: the token operation claimed under the same key (null: a cobrar without a token). */
    tokenId: Type.Optional(Nullable(Type.String())),
  }),
  Type.Object({ type: Type.Literal('query'), txnId: Type.String(), replyTo: ReplyTo }),
  Type.Object({ type: Type.Literal('review'), txnId: Type.String(), reason: Type.String() }),
  Type.Object({
    type: Type.Literal('bank_result'),
    txnId: Type.String(),
    attempt: Type.Integer(),
    op: literals(['execute', 'status'] as const),
    outcome: BankOutcomeSchema,
  }),
]);
export type RouterInboxMessage = Static<typeof RouterInboxMessage>;

/** An order for one bank connector. Money orders answer to the router, reads to the asking gateway. */
export const BankRequestMessage = Type.Union([
  Type.Object({
    op: Type.Literal('execute'),
    txnId: Type.String(),
    attempt: Type.Integer({ minimum: 1 }),
    /** Stable per attempt: the bank-side idempotency reference of this order. */
    orderRef: Type.String(),
    mode: Mode,
    rail: Rail,
    idempotencyKey: Type.String(),
    request: OperationRequestSchema,
    /** For reverso and cobrar: the bank references of the related operation. */
    related: Nullable(Type.Object({ id: Type.String(), referencia: Nullable(Type.String()), rail: Nullable(Rail) })),
    /** The merchant the order is for (the simulated bank keeps one ledger per merchant). */
    merchantId: Type.Optional(Type.String()),
    /**
     * The merchant's registered account at this bank (live mode): the connector debits (pagar) or
     * credits (cobrar) it instead of an account configured for the whole connector.
     */
    account: Type.Optional(Type.Object({ cuenta: Type.String(), telefono: Nullable(Type.String()) })),
  }),
  Type.Object({
    op: Type.Literal('status'),
    txnId: Type.String(),
    attempt: Type.Integer({ minimum: 1 }),
    orderRef: Type.String(),
    mode: Mode,
    rail: Rail,
    kind: literals(['token', 'cobrar', 'pagar', 'reverso'] as const),
    referencia: Nullable(Type.String()),
    endtoend: Nullable(Type.String()),
  }),
  Type.Object({
    op: Type.Literal('saldo'),
    correlationId: Type.String(),
    gatewayId: Type.String(),
    mode: Mode,
    query: SaldoQuery,
    merchantId: Type.Optional(Type.String()),
  }),
  Type.Object({
    op: Type.Literal('movimientos'),
    correlationId: Type.String(),
    gatewayId: Type.String(),
    mode: Mode,
    query: MovimientosQuery,
    /** The merchant asking (its own account only; the simulated bank keeps one ledger per merchant). */
    merchantId: Type.Optional(Type.String()),
  }),
  Type.Object({
    op: Type.Literal('creditos'),
    correlationId: Type.String(),
    gatewayId: Type.String(),
    mode: Mode,
    query: CreditosQuery,
    /** The merchant asking: its own registered account in live mode; the simulated bank keeps one ledger per merchant. */
    merchantId: Type.Optional(Type.String()),
  }),
]);
export type BankRequestMessage = Static<typeof BankRequestMessage>;

/** Answers to a gateway's read requests (balance, statement). */
export const GatewayReplyMessage = Type.Object({
  correlationId: Type.String(),
  gatewayId: Type.String(),
  result: Type.Union([
    Type.Object({ ok: Type.Literal(true), saldo: Saldo }),
    Type.Object({ ok: Type.Literal(true), movimientos: Movimientos }),
    Type.Object({ ok: Type.Literal(true), creditos: Type.Array(CreditoRecibido) }),
    Type.Object({ ok: Type.Literal(false), motivo: MotivoSchema, raw: Raw }),
  ]),
});
export type GatewayReplyMessage = Static<typeof GatewayReplyMessage>;

/**
 * Announced after every persisted write of a transaction. `transition` is present when the state
 * changed (what webhooks follow); a write without it is a status check or a dispatch.
 */
export const TransactionEventMessage = Type.Object({
  txnId: Type.String(),
  merchantId: Type.String(),
  mode: Mode,
  kind: literals(['token', 'cobrar', 'pagar', 'reverso'] as const),
  version: Type.Integer(),
  settledForReply: Type.Boolean({ description: 'No order or status query is outstanding: a waiting caller can be answered' }),
  transition: Nullable(Type.Object({ from: Nullable(EstadoSchema), to: EstadoSchema, at: Type.String() })),
  resultado: Nullable(Resultado),
  monto: Type.Number(),
  moneda: Type.String(),
  concepto: Type.String(),
  banco: Nullable(Banco),
  /** A reverso's original (its `monto` is the amount reversed); absent on other operations. */
  reversoDe: Type.Optional(Type.String()),
});
export type TransactionEventMessage = Static<typeof TransactionEventMessage>;

/**
 * A transaction's answer for the gateway that asked (`gatewayId`, the reply address of its command):
 * the announced event of a write after which a waiting caller can be answered.
 */
export const GatewayAnswerMessage = Type.Object({
  gatewayId: Type.String(),
  event: TransactionEventMessage,
});
export type GatewayAnswerMessage = Static<typeof GatewayAnswerMessage>;

/** A bank connector's breaker states, published on every change and periodically (routing, metrics). */
export const BankHealthMessage = Type.Object({
  banco: Banco,
  /** Test and live connectors of a bank reach different environments: their health is apart. */
  mode: Mode,
  /** Operations whose breaker is open: the router routes around the bank meanwhile. */
  openOperations: Type.Array(Type.String()),
  at: Type.String(),
  /** The reporting connector replica's instance id: replicas' breakers disagree, the router keeps each apart. */
  replica: Type.Optional(Type.String()),
});
export type BankHealthMessage = Static<typeof BankHealthMessage>;

/**
 * A merchant's configuration changed: `keys` (a key revoked, the merchant deactivated) or `webhooks`
 * (an endpoint added, changed or removed). Services that cache it (gateways, notifiers) forget it.
 */
export const MerchantChangeMessage = Type.Object({
  merchantId: Type.String(),
  change: literals(['keys', 'webhooks'] as const),
  at: Type.String(),
});
export type MerchantChangeMessage = Static<typeof MerchantChangeMessage>;

/** A topic: its name (purpose and version), payload schema and partition count. */
export interface Topic<S extends TSchema = TSchema> {
  readonly name: string;
  readonly schema: S;
  readonly partitions: number;
  /**
   * Messages are addressed by key: each is placed on partition `partitionOf(key)` (the switch's own
   * hash, the same in every adapter), so a subscriber that asks for one key (`SubscribeOptions.key`)
   * reads that one partition only. For reply topics, keyed by the asking instance's id.
   */
  readonly addressed?: boolean;
  /**
   * One message per operation (router inbox, events, each bank's orders): the Kafka adapter creates
   * it with the deployment's partition count (`SWITCH_KAFKA_PARTITIONS`), `partitions` being the default.
   */
  readonly perOperation?: boolean;
  /** What it holds, which decides its retention (`topic-kinds.ts`); default work, or reply when addressed. */
  readonly kind?: TopicKind;
  /**
   * The headers every message of this topic carries, from its payload: what a subscription's header
   * filter (`SubscribeOptions.only`) selects by. The bus adds them at every publish.
   */
  headersOf?(value: Static<S>): Record<string, string>;
}
export type Payload<T extends Topic> = Static<T['schema']>;

/**
 * Names are the switch's own; the Kafka adapter prefixes them with the deployment's namespace
 * (`SWITCH_KAFKA_NAMESPACE`), so several environments can share one cluster.
 */
const topic = <S extends TSchema>(
  name: string,
  schema: S,
  partitions: number,
  addressed = false,
  headersOf?: (value: Static<S>) => Record<string, string>,
): Topic<S> => ({
  name,
  schema,
  partitions,
  ...(addressed ? { addressed } : {}),
  ...(headersOf ? { headersOf } : {}),
});

/**
 * Partitions of the reply topics (answers and read replies, addressed by instance id). Fixed, not
 * configurable: publisher and subscriber compute a key's partition from this count, so it
 * must be the topic's real one. Instances whose ids share a partition each skip the other's replies.
 */
const REPLY_PARTITIONS = 8;

/**
 * Partitions of the per-operation topics (router inbox, events, each bank's orders) when the switch
 * creates them: the most replicas of one consumer that share the work. Fewer is faster for the same
 * replicas: one consumer serving many partitions waits on each (measured with kafkajs: p99 29 ms with
 * 1 partition, 83 ms with 6, 393 ms with 12 at 300 messages/s). `SWITCH_KAFKA_PARTITIONS` raises it
 * for a larger deployment; a topic that exists keeps its count.
 */
export const DEFAULT_WORK_PARTITIONS = 6;
const work = <S extends TSchema>(name: string, schema: S, headersOf?: (value: Static<S>) => Record<string, string>): Topic<S> => ({
  ...topic(name, schema, DEFAULT_WORK_PARTITIONS, false, headersOf),
  perOperation: true,
});

export const TOPICS = {
  routerInbox: work('switch.router.inbox.v2', RouterInboxMessage),
  transactions: work('switch.transactions.events.v1', TransactionEventMessage, transactionEventHeaders),
  /** Read replies (balance, statement) to the asking instance, keyed by its id. */
  gatewayReplies: topic('switch.gateway.replies.v2', GatewayReplyMessage, REPLY_PARTITIONS, true),
  /** Operation answers to the gateway that asked, keyed by its instance id (docs/decisions/0016-answers-to-the-asking-gateway.md). */
  gatewayAnswers: topic('switch.gateway.answers.v1', GatewayAnswerMessage, REPLY_PARTITIONS, true),
  bankHealth: { ...topic('switch.bank.health.v1', BankHealthMessage, 1), kind: 'state' },
  merchantChanges: { ...topic('switch.merchants.changes.v1', MerchantChangeMessage, 1), kind: 'notice' },
} as const;

const bankTopics = new Map<BancoId, Topic<typeof BankRequestMessage>>();
/** Orders for one bank's connector. */
export function bankRequests(banco: BancoId): Topic<typeof BankRequestMessage> {
  let t = bankTopics.get(banco);
  if (!t) {
    t = work(`switch.bank.${banco}.requests.v1`, BankRequestMessage, bankRequestHeaders);
    bankTopics.set(banco, t);
  }
  return t;
}

/**
 * The header carrying a bank request's mode (`live`, `test`): a bank's connector process serves one
 * mode's requests and skips the other's without decoding them (`SubscribeOptions.only`).
 */
export const BANK_REQUEST_MODE_HEADER = 'switch-mode';

/** The headers a bank request is published with. */
export function bankRequestHeaders(request: Static<typeof BankRequestMessage>): Record<string, string> {
  return { [BANK_REQUEST_MODE_HEADER]: request.mode };
}

/**
 * The header carrying the webhook a transaction event calls for (`transaccion.liquidada`, …) or
 * `none`: the notifier skips the events that call for none without decoding them (`SubscribeOptions.only`).
 */
export const TRANSACTION_WEBHOOK_HEADER = 'switch-webhook';

/** The headers a transaction event is published with. */
export function transactionEventHeaders(event: Static<typeof TransactionEventMessage>): Record<string, string> {
  return { [TRANSACTION_WEBHOOK_HEADER]: webhookEventOf(event) ?? 'none' };
}

/** Where a poison message goes, with the reason (never blocks a partition, never vanishes). */
export const deadLetterTopicName = (name: string): string => `${name}.dlq`;

/** Every topic the switch uses (each bank's order topic included): what the operator tools look through. */
export function switchTopics(): Topic[] {
  return [...Object.values(TOPICS), ...BANCOS.map((b) => bankRequests(b))];
}
