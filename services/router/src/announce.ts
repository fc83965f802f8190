import { bankRequestHeaders, bankRequests, TOPICS, transactionEventHeaders } from '@switch/core/contracts/topics';
import type { Bus } from '@switch/platform/ports/bus';
import type { Effects } from '@switch/core/outbox';
import type { Transaction } from '@switch/core/operation';
import type { TransactionEventMessage } from '@switch/core/contracts/messages';

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
