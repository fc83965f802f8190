import type { Collection, Db, Document, Filter, IndexDescription, Sort } from 'mongodb';
import { decodeDocument, encodeDocument } from './keys';
import { createIndexesOneByOne, insertNew, type RecordCollection, type VersionedOptions } from './versioned';

interface Row extends Document {
  _id: string;
  /** Number of the write that produced this state: 1 for the insert, +1 for each later write. */
  _rev: number;
}

/** Records whose newest state each process remembers (see `known`). */
const KNOWN_RECORDS = 10_000;

/**
 * Compare-and-set the way MongoDB does it: one document per record, and a write is
 * `replaceOne({_id, _rev: n}, state n+1)`, atomic on a single document. One command per write, one
 * per read; no revisions, nothing to repair. Used on servers whose conditional updates are atomic
 * (MongoDB); `VersionedCollection` is the fallback for FerretDB (see `detectConsistency`).
 */
export class ConditionalCollection<T extends object> implements RecordCollection<T> {
  private readonly rows: Collection<Row>;

  constructor(
    db: Db,
    name: string,
    private readonly options: VersionedOptions<T>,
  ) {
    this.rows = db.collection(name);
  }

  async ensureIndexes(indexes: IndexDescription[]): Promise<void> {
    await createIndexesOneByOne(this.rows, indexes);
  }

  async insert(record: T): Promise<boolean> {
    const row: Row = { ...this.toBody(record), _id: this.idOf(record), _rev: 1 };
    const inserted = await insertNew(this.rows, row);
    if (inserted) this.remember(row);
    return inserted;
  }

  async get(id: string): Promise<T | null> {
    const row = await this.rows.findOne({ _id: id });
    if (!row) return null;
    this.remember(row);
    return this.fromRow(row);
  }

  /**
   * `change` sees the current record and returns its next state, or null to leave it alone. The
   * state this process last read or wrote is tried first (no read before a write of a record the
   * process keeps writing); a lost condition means another writer came first: read, decide again.
   */
  async update(id: string, change: (current: T) => T | null): Promise<T | null> {
    for (;;) {
      const cached = this.known.get(id);
      const row = cached ?? (await this.rows.findOne({ _id: id }));
      if (!row) return null;
      const next = change(this.fromRow(row));
      if (next === null) {
        if (!cached) return null;
        this.known.delete(id); // declined on what may be an old state: decide again on the current one
        continue;
      }
      if (this.idOf(next) !== id) throw new Error(`update of ${id} cannot change its id`);
      const written: Row = { ...this.toBody(next), _id: id, _rev: row._rev + 1 };
      const { _id, ...body } = written;
      const result = await this.rows.replaceOne({ _id: id, _rev: row._rev }, body);
      if (result.matchedCount === 1) {
        this.remember(written);
        return next;
      }
      this.known.delete(id);
      if (!cached) {
      }
    }
  }

  async find(filter: Filter<Document>, sort: Sort, limit?: number): Promise<T[]> {
    if (limit !== undefined && limit <= 0) return [];
    const cursor = this.rows.find(filter as Filter<Row>).sort(sort);
    return (await (limit === undefined ? cursor : cursor.limit(limit)).toArray()).map((r) => this.fromRow(r));
  }

  count(filter: Filter<Document>): Promise<number> {
    return this.rows.countDocuments(filter as Filter<Row>);
  }

  private idOf(record: T): string {
    return (record as Record<string, unknown>)[this.options.key] as string;
  }

  private toBody(record: T): Document {
    const { [this.options.key]: _id, ...fields } = record as Record<string, unknown>;
    return { ...(encodeDocument(fields) as Document), ...this.options.derived?.(record) };
  }

  private fromRow(row: Row): T {
    const fields = Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('_')));
    return { [this.options.key]: row._id, ...(decodeDocument(fields) as Document) } as T;
  }

  private readonly known = new Map<string, Row>();

  private remember(row: Row): void {
    this.known.delete(row._id);
    this.known.set(row._id, row);
    if (this.known.size > KNOWN_RECORDS) this.known.delete(this.known.keys().next().value!);
  }
}
