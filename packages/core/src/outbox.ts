import type { BankRequestMessage, TransactionEventMessage } from './contracts/messages';
import type { BancoId } from './bancos';
import { settledForReply, type Transaction } from './operation';
import { toResultado } from './contracts/resultado';

/** The bank-side duplicate guard of one attempt: stable across redeliveries and re-announces. */
export const orderRef = (txnId: string, attempt: number): string => `${txnId}-${attempt}`;

/** What the write at `tx.version` must tell the world: an order or status query for a bank, and the event. */
export interface Effects {
  bank: { banco: BancoId; message: BankRequestMessage } | null;
  event: TransactionEventMessage;
}

/**
 * Rebuilt from the document alone, so whoever announces a write (the actor right after it, or the
 * outbox relay after a failure) publishes the same messages. A repeated order is harmless: the bank
 * worker's journal sends each attempt at most once; receivers dedupe events by id and version.
 */
export function effectsOf(tx: Transaction, related: Transaction | null): Effects {
  const last = tx.attempts[tx.attempts.length - 1];
  let bank: Effects['bank'] = null;
  if (last && last.outcome === undefined && last.dispatchVersion === tx.version) {
    bank = {
      banco: last.banco,
      message: {
        op: 'execute',
        txnId: tx.id,
        attempt: last.n,
        orderRef: orderRef(tx.id, last.n),
        mode: tx.mode,
        rail: last.rail,
        idempotencyKey: tx.idempotencyKey,
        request: tx.request,
        related: related ? { id: related.id, referencia: related.referenciaBanco, rail: related.rail } : null,
        merchantId: tx.merchantId,
      },
    };
    const account = tx.merchantAccounts?.find((a) => a.banco === last.banco);
    if (account && bank.message.op === 'execute') bank.message.account = { cuenta: account.cuenta, telefono: account.telefono };
  } else if (tx.statusQuery && tx.statusQuery.requestedVersion === tx.version && last) {
    bank = {
      banco: last.banco,
      message: {
        op: 'status',
        txnId: tx.id,
        attempt: tx.statusQuery.seq,
        orderRef: orderRef(tx.id, last.n),
        mode: tx.mode,
        rail: last.rail,
        kind: tx.kind,
        referencia: tx.referenciaBanco,
        endtoend: tx.endtoend,
      },
    };
  }
  const entry = tx.history[tx.history.length - 1];
  const body = tx.request.body;
  // A reverso moves back the original's amount: its event (and webhook) says how much, and of which operation.
  const reversed = tx.kind === 'reverso' && related?.id === tx.relatedId ? related.request.body : null;
  const monto = 'monto' in body ? body.monto : reversed && 'monto' in reversed ? reversed.monto : null;
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
    ...(tx.kind === 'reverso' && tx.relatedId ? { reversoDe: tx.relatedId } : {}),
  };
  return { bank, event };
}
