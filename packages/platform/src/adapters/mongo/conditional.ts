import type { Collection, Db, Document, Filter, IndexDescription, Sort } from 'mongodb';
import { KnownStates, RecordCodec, type RecordOptions, type StoredRecord } from './records';
import { insertNew } from './inserts';

type Row = StoredRecord;

/**
 * Creating an index that exists with the same keys and name is a no-op on both servers, so this is
 * idempotent. One index per command, one after the other: FerretDB 1.24 panics (connection closed)
 * on a createIndexes naming two or more indexes that already exist (`validateIndexesForCreation`
 * deletes from a slice at a stale position), and the first createIndexes also creates the collection.
 * No TTL, partial or sparse indexes: FerretDB 1.24 refuses or ignores them.
 */
export async function createIndexesOneByOne<T extends Document>(collection: Collection<T>, indexes: IndexDescription[]): Promise<void> {
  for (const index of indexes) await collection.createIndexes([index]);
}

/**
 * Compare-and-set the way MongoDB does it: one document per record, and a write is
 * `replaceOne({_id, _rev: n}, state n+1)`, atomic on a single document. One command per write, one
 * per read. It needs a server whose conditional updates are atomic: MongoDB, and FerretDB as
 * infra/fetch.sh builds it on PostgreSQL (infra/ferretdb/01-pg-atomic-update.patch; stock FerretDB 1.24
 * is not, and is not supported). `server.test.ts` and the store's race tests check it on the real server.
 *
 * Records go through the record codec (./records) and read back equal to what was written; top-level
 * fields starting with `_` belong to this class and are stripped on read.
 */
export class ConditionalCollection<T extends object> {
  private readonly rows: Collection<Row>;
  private readonly codec: RecordCodec<T>;
  private readonly known = new KnownStates();

  constructor(db: Db, name: string, options: RecordOptions<T>) {
    this.rows = db.collection(name);
    this.codec = new RecordCodec(options);
  }

  async ensureIndexes(indexes: IndexDescription[]): Promise<void> {
    await createIndexesOneByOne(this.rows, indexes);
  }

  async insert(record: T): Promise<boolean> {
    const row: Row = this.codec.stored(record, 1);
    const inserted = await insertNew(this.rows, row);
    if (inserted) this.known.remember(row);
    return inserted;
  }

  async get(id: string): Promise<T | null> {
    const row = await this.rows.findOne({ _id: id });
    if (!row) return null;
    this.known.remember(row);
    return this.codec.fromStored(row);
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
      const next = change(this.codec.fromStored(row));
      if (next === null) {
        if (!cached) return null;
        this.known.forget(id); // declined on what may be an old state: decide again on the current one
        continue;
      }
      if (this.codec.idOf(next) !== id) throw new Error(`update of ${id} cannot change its id`);
      const written: Row = this.codec.stored(next, row._rev + 1);
      const { _id, ...body } = written;
      const result = await this.rows.replaceOne({ _id: id, _rev: row._rev }, body);
      if (result.matchedCount === 1) {
        this.known.remember(written);
        return next;
      }
      this.known.forget(id); // another writer came first: read, decide again
    }
  }

  /** Visits every record matching `filter` as the server streams them (one batch in memory at a time). */
  async each(filter: Filter<Document>, visit: (record: T) => void): Promise<void> {
    for await (const row of this.rows.find(filter as Filter<Row>)) visit(this.codec.fromStored(row));
  }

  /** Records matching `filter` in `sort` order, as the server streams them, `batchSize` at a time. */
  async *stream(filter: Filter<Document>, sort: Sort, batchSize: number): AsyncGenerator<T> {
    for await (const row of this.rows
      .find(filter as Filter<Row>)
      .sort(sort)
      .batchSize(batchSize))
      yield this.codec.fromStored(row);
  }

  /** Records matching `filter` (stored field names), in `sort` order. */
  async find(filter: Filter<Document>, sort: Sort, limit?: number): Promise<T[]> {
    if (limit !== undefined && limit <= 0) return [];
    const cursor = this.rows.find(filter as Filter<Row>).sort(sort);
    return (await (limit === undefined ? cursor : cursor.limit(limit)).toArray()).map((r) => this.codec.fromStored(r));
  }

  /**
   * Sets fields (bookkeeping that is not a new version, or a change only the holder of an exclusive
   * lease makes) of the record if it still matches `where` (stored field names): one plain update, no
   * compare-and-set. `fields` are the record's, stored as a write stores them; `derived` are stored
   * fields (`_…`) set beside them. True when it matched.
   */
  async mark(id: string, where: Document, fields: Partial<T>, derived?: Document): Promise<boolean> {
    const $set = Object.assign(this.codec.fieldsOf(fields), derived);
    const { matchedCount } = await this.rows.updateOne({ ...where, _id: id } as Filter<Row>, { $set });
    this.known.forget(id);
    return matchedCount === 1;
  }

  count(filter: Filter<Document>): Promise<number> {
    return this.rows.countDocuments(filter as Filter<Row>);
  }
}
