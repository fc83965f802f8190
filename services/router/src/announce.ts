import { bankRequests, TOPICS, type Bus, type Effects, type Store, type Transaction } from '@switch/shared';

/**
 * Publishes what a persisted write implies (its order or status query, then its event: `effectsOf`
 * the written document), then marks it announced. Run again after a failure it publishes the same
 * messages: the bank worker's journal sends an attempt at most once, and receivers dedupe events.
 */
export async function announce(bus: Bus, store: Store, tx: Transaction, { bank, event }: Effects): Promise<Transaction> {
  if (bank) await bus.publish(bankRequests(bank.banco), tx.id, bank.message);
  await bus.publish(TOPICS.transactions, tx.id, event);
  if (tx.announcedVersion >= tx.version) return tx;
  const marked = { ...structuredClone(tx), announcedVersion: tx.version };
  // The mark is not a new version; if another write came first, that write announces itself.
  await store.transactions.replace(marked, tx.version);
  return marked;
}
