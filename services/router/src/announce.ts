import { bankRequests, TOPICS, type Bus, type Effects, type Transaction } from '@switch/shared';

/**
 * Publishes what a persisted write implies: its order or status query, then its event (`effectsOf`
 * the written document). Run again for the same write (a redelivered message finds it applied) it
 * publishes the same messages: the bank worker's journal sends an attempt at most once, and
 * receivers dedupe events by id and version. A failure throws, so the message that made the write is
 * not committed and comes back.
 */
export async function announce(bus: Bus, tx: Transaction, { bank, event }: Effects): Promise<void> {
  if (bank) await bus.publish(bankRequests(bank.banco), tx.id, bank.message);
  await bus.publish(TOPICS.transactions, tx.id, event);
}
