import {
  bankRequests,
  settledForReply,
  TOPICS,
  toResultado,
  type BankRequestMessage,
  type Bus,
  type Store,
  type Transaction,
  type TransactionEventMessage,
} from '@switch/shared';

/** The bank-side duplicate guard of one attempt: stable across redeliveries and re-announces. */
export const orderRef = (txnId: string, attempt: number): string => `${txnId}-${attempt}`;

/** What the write at `tx.version` has to tell the world, rebuilt from the document alone (outbox). */
export function outgoing(tx: Transaction, related: Transaction | null): { bank: BankRequestMessage | null; event: TransactionEventMessage } {
  const last = tx.attempts[tx.attempts.length - 1];
  let bank: BankRequestMessage | null = null;
  if (last && last.outcome === undefined && last.dispatchVersion === tx.version) {
    bank = {
      op: 'execute',
      txnId: tx.id,
      attempt: last.n,
      orderRef: orderRef(tx.id, last.n),
      mode: tx.mode,
      rail: last.rail,
      idempotencyKey: tx.idempotencyKey,
      request: tx.request,
      related: related ? { id: related.id, referencia: related.referenciaBanco, rail: related.rail } : null,
    };
  } else if (tx.statusQuery && tx.statusQuery.requestedVersion === tx.version && last) {
    bank = {
      op: 'status',
      txnId: tx.id,
      attempt: tx.statusQuery.seq,
      orderRef: orderRef(tx.id, last.n),
      mode: tx.mode,
      rail: last.rail,
      kind: tx.kind,
      referencia: tx.referenciaBanco,
      endtoend: tx.endtoend,
    };
  }
  const entry = tx.history[tx.history.length - 1];
  const body = tx.request.body;
  const monto = 'monto' in body ? body.monto : null;
  const event: TransactionEventMessage = {
    txnId: tx.id,
    merchantId: tx.merchantId,
    mode: tx.mode,
    kind: tx.kind,
    version: tx.version,
    settledForReply: settledForReply(tx),
    transition: entry && entry.version === tx.version ? { from: entry.from, to: entry.to, at: entry.at } : null,
    resultado: tx.estado === null ? null : toResultado(tx),
    monto: monto?.valor ?? 0,
    moneda: monto?.moneda ?? 'VES',
    concepto: body.concepto ?? '',
    banco: tx.bancoUsado,
  };
  return { bank, event };
}

/**
 * Publishes what a persisted write implies, then marks it announced. Run again after a crash it
 * publishes the same messages (the bank dedupes orders by orderRef, receivers dedupe events).
 */
export async function announce(bus: Bus, store: Store, tx: Transaction): Promise<Transaction> {
  const related = tx.relatedId ? await store.transactions.get(tx.relatedId) : null;
  const { bank, event } = outgoing(tx, related);
  const banco = tx.attempts[tx.attempts.length - 1]?.banco;
  if (bank && banco) await bus.publish(bankRequests(banco), tx.id, bank);
  await bus.publish(TOPICS.transactions, tx.id, event);
  if (tx.announcedVersion >= tx.version) return tx;
  const marked = { ...structuredClone(tx), announcedVersion: tx.version };
  // The mark is not a new version; if another write came first, that write announces itself.
  await store.transactions.replace(marked, tx.version);
  return marked;
}
