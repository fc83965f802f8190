import { literals } from './fields';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CobrarBody, PagarBody, ReversoBody, TokenBody } from './requests';
import { EstadoSchema, MotivoSchema, Resultado } from './resultado';
import { Movimientos, MovimientosQuery, Saldo, SaldoQuery } from './bancos';
import { CreditoRecibido, CreditosQuery } from './creditos';
import { BANCOS } from '../bancos';

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
