import type { Document } from 'mongodb';
import { decodeDocument, encodeDocument, encodeKey } from './keys';

export interface RecordOptions<T> {
  /** The record's own key, stored as `_id`. */
  key: keyof T & string;
  /** Extra fields to store for queries and indexes; their names must start with `_`. */
  derived?: (record: T) => Document;
  /**
   * Fields stored as JSON text instead of nested documents: object or array fields (or null) that no
   * query looks into. See `RecordCodec`.
   */
  asText?: readonly (keyof T & string)[];
}

/** The stored form of a record: its fields (keys escaped), `_id`, `_rev`, and derived `_` fields. */
export interface StoredRecord extends Document {
  _id: string;
  /** Number of the write that produced this state: 1 for the insert, +1 for each later write. */
  _rev: number;
}

/** A whole-read value in its stored form (`RecordCodec`): its JSON text; null and undefined stay as they are. */
export const asText = (value: unknown): unknown => (value === null || value === undefined ? value : JSON.stringify(value));

/** A whole-read value from its stored form (its JSON text); null and undefined stay as they are. */
export const fromText = (stored: unknown): unknown => (typeof stored === 'string' ? JSON.parse(stored) : stored);

/**
 * A record to and from its stored form, the same for both compare-and-set schemes: the key becomes
 * `_id`, fields go through the key codec (./keys), derived `_` fields are added on write and every
 * top-level field starting with `_` is stripped on read.
 *
 * Fields named in `asText` are stored as their JSON text (a string), the rest as documents. A
 * transaction's request, attempts, history and bank answers are read and written whole and never
 * queried into, and as nested documents they were most of what the store parsed at every write:
 * FerretDB 1.24 keeps a type schema beside every stored value (for a settled payout 3.1 of its
 * 4.8 KB), decodes the whole document for every update and find, and PostgreSQL moved the row out of
 * line (TOAST) past 2 KB. As text they are one string each for the server, and JSON.stringify/parse
 * for the process instead of a walk through the key codec and BSON's nested documents
 * (adapters/mongo/README.md). A bank's keys need no escaping in text.
 */
export class RecordCodec<T extends object> {
  /** `options.asText`: the fields kept as JSON text. */
  private readonly textFields: readonly string[];

  constructor(private readonly options: RecordOptions<T>) {
    this.textFields = options.asText ?? [];
  }

  idOf(record: T): string {
    return (record as Record<string, unknown>)[this.options.key] as string;
  }

  toBody(record: T): Document {
    const { [this.options.key]: _id, ...fields } = record as Record<string, unknown>;
    return { ...this.fieldsOf(fields), ...this.options.derived?.(record) };
  }

  /** Record fields (all or some) in their stored form: for a plain `$set` of some of them. */
  fieldsOf(fields: Partial<T> | Record<string, unknown>): Document {
    return Object.fromEntries(
      Object.entries(fields).map(([name, value]) => [
        encodeKey(name),
        this.textFields.includes(name) ? asText(value) : encodeDocument(value),
      ]),
    );
  }

  /** The stored form of a record: `_id`, its body, `_rev`. */
  stored(record: T, rev: number): StoredRecord {
    return { _id: this.idOf(record), ...this.toBody(record), _rev: rev };
  }

  fromStored(stored: StoredRecord): T {
    const fields: Record<string, unknown> = {};
    for (const name in stored) if (!name.startsWith('_') && !this.textFields.includes(name)) fields[name] = stored[name];
    const record = decodeDocument(fields) as Record<string, unknown>;
    for (const name of this.textFields) {
      if (!(name in stored)) continue;
      record[name] = fromText(stored[name]);
    }
    return { [this.options.key]: stored._id, ...record } as T;
  }
}

/** Records whose newest state each process remembers. */
const KNOWN_RECORDS = 10_000;

/**
 * The newest stored state this process has seen of recently used records (bounded, least recently
 * used out first). A write computed from a remembered state is conditional on it, so an outdated
 * one only costs a lost condition and a read.
 */
export class KnownStates {
  private readonly states = new Map<string, StoredRecord>();

  get(id: string): StoredRecord | undefined {
    return this.states.get(id);
  }

  forget(id: string): void {
    this.states.delete(id);
  }

  remember(stored: StoredRecord): void {
    this.states.delete(stored._id);
    this.states.set(stored._id, stored);
    if (this.states.size > KNOWN_RECORDS) this.states.delete(this.states.keys().next().value!);
  }
}
