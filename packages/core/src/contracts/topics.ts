import type { Static, TSchema } from '@sinclair/typebox';
import {
  BankHealthMessage,
  BankRequestMessage,
  GatewayAnswerMessage,
  GatewayReplyMessage,
  MerchantChangeMessage,
  RouterInboxMessage,
  TransactionEventMessage,
} from './messages';
import { BANCOS, type BancoId } from '../bancos';
import { webhookEventOf } from './webhook';
import type { TopicKind } from './topic-kinds';

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
