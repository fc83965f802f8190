import {
  bankRequestHeaders,
  bankRequests,
  TOPICS,
  type Bus,
  type Effects,
  type Transaction,
  type TransactionEventMessage,
} from '@switch/shared';

/**
 * Publishes what a persisted write implies: its order or status query, then its event (`effectsOf`
 * the written document), then, when a waiting caller can be answered from it, its answer to each
 * gateway whose command is on the transaction (`replyTo`), on the answers topic keyed by that
 * gateway's instance id: only the gateway that asked reads it. Run again for the same write (a
 * redelivered message finds it applied) it publishes the same messages: the bank worker's journal
 * sends an attempt at most once, and receivers dedupe events by id and version. A failure throws,
 * so the message that made the write is not committed and comes back.
 */
export async function announce(bus: Bus, tx: Transaction, { bank, event }: Effects): Promise<void> {
  if (bank) await bus.publish(bankRequests(bank.banco), tx.id, bank.message, bankRequestHeaders(bank.message));
  await bus.publish(TOPICS.transactions, tx.id, event);
  if (!event.settledForReply) return;
  for (const gatewayId of tx.replyTo ?? []) await answer(bus, gatewayId, event);
}

/** The answer of one announced write to one gateway, keyed by its instance id (only that gateway reads it). */
export function answer(bus: Bus, gatewayId: string, event: TransactionEventMessage): Promise<void> {
  return bus.publish(TOPICS.gatewayAnswers, gatewayId, { gatewayId, event });
}
