import type { Transaction } from '@switch/core/operation';

/**
 * What the log keeps beside a transaction about its delivery, apart from the money record: which
 * version the world has heard of, which message wrote the stored one, and who waits for the answer.
 */
export interface DeliveryMarks {
  /**
   * Highest version known to be announced (the outbox mark). It rides on the next commit: a message
   * is committed only after its write was announced, so whoever writes the next version knows the
   * stored one was. A final state takes no next write, so it is committed with its own mark.
   */
  announcedVersion: number;
  /**
   * The inbox message that made the stored version (`messageKey`): its redelivery announces the
   * version again (the inbox is the outbox); any other message that changes nothing stays silent.
   */
  writtenBy: string | null;
  /**
   * The instance ids of the gateways whose commands came while an answer was to come, newest last,
   * at most `MAX_REPLY_ADDRESSES`: each announced version a waiting caller can be answered from goes
   * to these gateways and to no other (docs/decisions/0016-answers-to-the-asking-gateway.md).
   */
  replyTo: string[];
}

/** A transaction as the log holds it: the record and its delivery marks. */
export interface LoggedTransaction {
  tx: Transaction;
  marks: DeliveryMarks;
}

/**
 * The router's transaction log: the only way a transaction is written. It owns versioning (every
 * commit is a compare-and-set on the version, and the first one an atomic insert), the outbox marks
 * and the reply addresses, each stored in the same atomic write as the record it belongs to.
 */
export interface TransactionLog {
  load(id: string): Promise<LoggedTransaction | null>;
  /**
   * Writes `next` with `marks` if the stored version is still `expectedVersion`; `expectedVersion`
   * null is the first write, which succeeds only if no transaction with that id exists. False when
   * another writer came first.
   */
  commit(next: Transaction, expectedVersion: number | null, marks: DeliveryMarks): Promise<boolean>;
  /**
   * Replaces the delivery marks, if the stored version is still `version`: the record itself does not
   * change (who waits for an answer is a fact about delivery, not about the money). False when the
   * version moved on.
   */
  updateMarks(id: string, version: number, marks: DeliveryMarks): Promise<boolean>;
  /**
   * Records that `version` was announced, if it is still the stored version: a mark, not a new
   * version (one plain update, no compare-and-set of the whole record).
   */
  markAnnounced(id: string, version: number): Promise<void>;
  /** Transactions whose stored version is not marked announced, written at or before `before`, least recently written first (the outbox relay). */
  listUnannounced(before: string, limit: number): Promise<LoggedTransaction[]>;
}

/** A few: a command's address is kept only while its caller may still wait (seconds), newer ones push older out. */
export const MAX_REPLY_ADDRESSES = 8;

/** The reply addresses with `address` added (moved last when present), bounded. */
export function withReplyAddress(current: readonly string[], address: string): string[] {
  return [...current.filter((a) => a !== address), address].slice(-MAX_REPLY_ADDRESSES);
}
