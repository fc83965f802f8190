import type { Static, TSchema } from '@sinclair/typebox';
import {
  BankHealthMessage,
  BankRequestMessage,
  GatewayReplyMessage,
  MerchantChangeMessage,
  RouterInboxMessage,
  TransactionEventMessage,
} from './messages';
import { BANCOS, type BancoId } from '../domain/bancos';

/** A topic: its name (purpose and version), payload schema and partition count. */
export interface Topic<S extends TSchema = TSchema> {
  readonly name: string;
  readonly schema: S;
  readonly partitions: number;
}
export type Payload<T extends Topic> = Static<T['schema']>;

/**
 * `SWITCH_KAFKA_NAMESPACE` prefixes every topic name, so several environments (test and live overlays,
 * or test runs) can share one Kafka cluster without reading each other's messages.
 */
const NAMESPACE = process.env.SWITCH_KAFKA_NAMESPACE ? `${process.env.SWITCH_KAFKA_NAMESPACE}.` : '';
const topic = <S extends TSchema>(name: string, schema: S, partitions: number): Topic<S> => ({
  name: `${NAMESPACE}${name}`,
  schema,
  partitions,
});

export const TOPICS = {
  routerInbox: topic('switch.router.inbox.v1', RouterInboxMessage, 12),
  transactions: topic('switch.transactions.events.v1', TransactionEventMessage, 12),
  gatewayReplies: topic('switch.gateway.replies.v1', GatewayReplyMessage, 4),
  bankHealth: topic('switch.bank.health.v1', BankHealthMessage, 1),
  merchantChanges: topic('switch.merchants.changes.v1', MerchantChangeMessage, 1),
} as const;

const bankTopics = new Map<BancoId, Topic<typeof BankRequestMessage>>();
/** Orders for one bank's connector. */
export function bankRequests(banco: BancoId): Topic<typeof BankRequestMessage> {
  let t = bankTopics.get(banco);
  if (!t) {
    t = topic(`switch.bank.${banco}.requests.v1`, BankRequestMessage, 6);
    bankTopics.set(banco, t);
  }
  return t;
}

/** Where a poison message goes, with the reason (never blocks a partition, never vanishes). */
export const deadLetterTopicName = (name: string): string => `${name}.dlq`;

/** Every topic the switch uses (each bank's order topic included): what the operator tools look through. */
export function switchTopics(): Topic[] {
  return [...Object.values(TOPICS), ...BANCOS.map((b) => bankRequests(b))];
}
