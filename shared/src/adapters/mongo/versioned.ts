import type { Collection, Db, Document, Filter, IndexDescription, Sort } from 'mongodb';
import { KnownStates, RecordCodec, type StoredRecord, type VersionedOptions } from './records';
import { insertNew } from './inserts';

export type { PruningOptions, VersionedOptions } from './records';

type Head = StoredRecord;

/** One successful write after the insert; `_id` = `<record id>#<rev>`. */
interface Revision extends Document {
  _id: string;
  recordId: string;
  rev: number;
  /** The head this write produces, without `_id`. */
  head: Document;
  /** Set at insert; cleared by the writer once the head has reached this revision, else by the next list (`repairPending`). */
  pending: boolean;
  /** Time slot of the insert (clock / slot length): pruning deletes whole slots by equality. */
  slot: number;
}

const RETAIN_MS = 10 * 60_000;
const KNOWN_FOR_MS = 60_000;
/** Slots per retention period. */
const SLOTS = 10;

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

/** A collection of records that change only by compare-and-set (two implementations: see `settleConsistency` in ./store.ts). */
export interface RecordCollection<T extends object> {
  ensureIndexes(indexes: IndexDescription[]): Promise<void>;
  /** `false` when a record with that id exists. */
  insert(record: T): Promise<boolean>;
  get(id: string): Promise<T | null>;
  /** Compare-and-set with retry; returns what was written, or null (no such record, or `change` declined). */
  update(id: string, change: (current: T) => T | null): Promise<T | null>;
  find(filter: Filter<Document>, sort: Sort, limit?: number): Promise<T[]>;
  count(filter: Filter<Document>): Promise<number>;
  /**
   * Sets fields (bookkeeping that is not a new version, or a change only the holder of an exclusive
   * lease makes) of the record if it still matches `where` (stored field names): one plain update, no
   * compare-and-set. `fields` are the record's, stored as a write stores them; `derived` are stored
   * fields (`_…`) set beside them. True when it matched.
   */
  mark(id: string, where: Document, fields: Partial<T>, derived?: Document): Promise<boolean>;
}

/**
 * A collection whose records change only by compare-and-set, with the same guarantee on MongoDB 7
 * and on FerretDB 1.24.
 *
 * Why not `replaceOne({_id, version})`: FerretDB 1.24 runs an update as "find the matching
 * documents", then "UPDATE ... WHERE _id = ?" without re-checking the filter, so concurrent
 * conditional updates can all report a match (measured: 10 parallel replaceOne/findOneAndUpdate at
 * one version had several winners in ~40% of rounds). Its only atomic check-and-write is a
 * unique-key insert.
 *
 * So a write inserts a revision `<id>#<rev+1>` holding the full new state: of writers that read
 * revision `rev`, exactly one can insert it, and the write is durable from that moment. The head
 * (`<name>`, the collection lists query) is then brought up to date by `settle`, which every read
 * also runs; a head left behind (writer died between the two steps, or a late FerretDB write) is
 * repaired, never lost.
 *
 * Revisions are pruned: one is needed only while some process may still hold the state before it
 * (its insert must collide with a stale writer's) or may put an older head back (its successor must
 * be found when the head is read again). Both last milliseconds, except a remembered state, which is
 * used only `knownForMs` after it was seen. So a revision older than `retainMs` (well above both) is
 * deleted once its write is finished (not `pending`); `prune`, started by a write once per slot,
 * deletes whole slots and first finishes the pending revisions in them (a dead writer's revision may
 * be the only way to a newer state: see `repairPending`).
 *
 * Records go through the key codec (./keys) and read back equal to what was written; top-level
 * fields starting with `_` belong to this class and are stripped on read.
 */
export class VersionedCollection<T extends object> implements RecordCollection<T> {
  private readonly heads: Collection<Head>;
  private readonly revisions: Collection<Revision>;
  private readonly codec: RecordCodec<T>;
  private readonly clock: () => number;
  private readonly retainMs: number;
  private readonly knownForMs: number;
  private readonly slotMs: number;
  /**
   * The newest revision this process has seen of recently used records. Revisions never change once
   * written, so a remembered one is always a true past state: `update` computes the next state from
   * it and its revision insert succeeds only if it is still the newest (else it reads again). This
   * saves the two reads before each write of a record the process keeps writing (the router's
   * transactions), and `get` checks only that it has no successor. Lists never use it. A remembered
   * state is used only `knownForMs` after it was seen: what makes pruning revisions safe (above).
   */
  private readonly known: KnownStates;

  constructor(db: Db, name: string, options: VersionedOptions<T>) {
    this.codec = new RecordCodec(options);
    this.heads = db.collection(name);
    this.revisions = db.collection(`${name}_revisions`);
    this.clock = options.pruning?.clock ?? Date.now;
    this.retainMs = options.pruning?.retainMs ?? RETAIN_MS;
    this.knownForMs = options.pruning?.knownForMs ?? KNOWN_FOR_MS;
    if (!(this.knownForMs * 2 <= this.retainMs)) throw new Error('pruning: knownForMs must be at most half of retainMs');
    this.slotMs = Math.max(1, Math.floor(this.retainMs / SLOTS));
    this.known = new KnownStates(this.clock);
  }

  /** Idempotent; see `createIndexesOneByOne`. */
  async ensureIndexes(headIndexes: IndexDescription[]): Promise<void> {
    await createIndexesOneByOne(this.heads, headIndexes);
    await createIndexesOneByOne(this.revisions, [{ key: { pending: 1 } }, { key: { slot: 1, pending: 1 } }]);
  }

  /** `false` when a record with that id exists. */
  async insert(record: T): Promise<boolean> {
    const head: Head = this.codec.stored(record, 1);
    const inserted = await insertNew(this.heads, head);
    if (inserted) this.remember(head);
    return inserted;
  }

  async get(id: string): Promise<T | null> {
    // A remembered revision with no successor is the newest state: one read instead of two.
    const known = this.known.get(id, this.knownForMs);
    if (known && !(await this.revisions.findOne({ _id: `${id}#${known._rev + 1}` }, { projection: { _id: 1 } })))
      return this.fromHead(known);
    const head = await this.settle(id);
    return head && this.fromHead(head);
  }

  /**
   * Compare-and-set with retry: `change` sees the current record and returns its next state, or null
   * to leave it alone. When another writer gets in between, `change` runs again on the newer state.
   * Returns what was written, or null (no such record, or `change` declined).
   */
  async update(id: string, change: (current: T) => T | null): Promise<T | null> {
    for (;;) {
      const cached = this.known.get(id, this.knownForMs);
      const head = cached ?? (await this.settle(id));
      if (!head) return null;
      const next = change(this.fromHead(head));
      if (next === null) {
        if (!cached) return null;
        this.known.forget(id); // declined on what may be an old state: decide again on the current one
        continue;
      }
      if (this.idOf(next) !== id) throw new Error(`update of ${id} cannot change its id`);
      const rev = head._rev + 1;
      const revId = `${id}#${rev}`;
      const written = Object.assign(this.toBody(next), { _rev: rev });
      const slot = this.slotOf(this.clock());
      if (await insertNew(this.revisions, { _id: revId, recordId: id, rev, head: written, pending: true, slot })) {
        // The writer clears its own mark: left to lists, the marks piled up under load and the lists'
        // bulk clearing held the store's write lock for seconds (FerretDB).
        await this.settle(id, { _id: id, ...written });
        await this.revisions.updateOne({ _id: revId }, { $set: { pending: false } });
        this.pruneLater();
        return next;
      }
      this.known.forget(id); // another writer got revision `rev` first
    }
  }

  /** Records whose head matches `filter` (stored field names), after finishing interrupted writes. */
  async find(filter: Filter<Document>, sort: Sort, limit?: number): Promise<T[]> {
    if (limit !== undefined && limit <= 0) return []; // limit(0) would mean "no limit" to MongoDB
    await this.repairPending();
    const cursor = this.heads.find(filter as Filter<Head>).sort(sort);
    const heads = await (limit === undefined ? cursor : cursor.limit(limit)).toArray();
    return heads.map((h) => this.fromHead(h));
  }

  /**
   * On the head only: the revision keeps the state as written. A head later rebuilt from its revision
   * loses the mark, which only means the bookkeeping is done again (an announcement repeated).
   */
  async mark(id: string, where: Document, fields: Partial<T>, derived?: Document): Promise<boolean> {
    const $set = Object.assign(this.codec.fieldsOf(fields), derived);
    const { matchedCount } = await this.heads.updateOne({ ...where, _id: id } as Filter<Head>, { $set });
    this.known.forget(id);
    return matchedCount === 1;
  }

  async count(filter: Filter<Document>): Promise<number> {
    await this.repairPending();
    return this.heads.countDocuments(filter as Filter<Head>);
  }

  private idOf(record: T): string {
    return this.codec.idOf(record);
  }

  private toBody(record: T): Document {
    return this.codec.toBody(record);
  }

  private fromHead(head: Head): T {
    return this.codec.fromStored(head);
  }

  /**
   * Brings a head up to its newest revision and returns it (null: no such record); `written` is a
   * revision this process just inserted, put in place first. A slower head write may land after a
   * newer one, so after each write the loop reads the head again: whoever wrote last also checks
   * last, and the head converges to the newest revision.
   */
  private async settle(id: string, written?: Head): Promise<Head | null> {
    let pendingWrite = written;
    for (;;) {
      if (pendingWrite) {
        const { _id, ...body } = pendingWrite;
        // Filtered by `_id` alone: FerretDB serves only that from an index (any other filter scans the
        // whole collection, which made every write O(n)). A write that lands late and puts an older
        // revision back is repaired by this loop, which reads the head again after every write.
        await this.heads.replaceOne({ _id: id }, body);
      }
      const head = await this.heads.findOne({ _id: id });
      if (!head) return null;
      let newest = head;
      for (;;) {
        const next = await this.revisions.findOne({ _id: `${id}#${newest._rev + 1}` });
        if (!next) break;
        newest = { _id: id, ...next.head } as Head;
      }
      if (newest === head) {
        this.remember(head);
        return head;
      }
      pendingWrite = newest;
    }
  }

  private remember(head: Head): void {
    this.known.remember(head);
  }

  /**
   * Finishes writes whose writer stopped between the revision insert and the head update, so that
   * lists (the reconciler's and the outbox repair's view) see them. Normally the only pending
   * revisions are the ones being written at this moment (a writer clears its own mark).
   */
  private repairPending(): Promise<void> {
    // Single flight: lists running at the same time in one process (a notifier's workers) share one
    // repair instead of each settling the same records and clearing the same marks.
    this.repairing ??= this.repairPendingOnce().finally(() => (this.repairing = undefined));
    return this.repairing;
  }

  private repairing: Promise<void> | undefined;

  private async repairPendingOnce(): Promise<void> {
    const pending = await this.revisions
      .find({ pending: true }, { projection: { recordId: 1, rev: 1 } })
      .limit(100)
      .toArray();
    for (const r of pending) await this.finish(r);
  }

  /** Brings the head of a pending revision's record up to date, then clears the mark. */
  private async finish(r: Pick<Revision, '_id' | 'recordId' | 'rev'>): Promise<void> {
    const head = await this.settle(r.recordId);
    if (head && head._rev >= r.rev) await this.revisions.updateOne({ _id: r._id }, { $set: { pending: false } });
  }

  private slotOf(ms: number): number {
    return Math.floor(ms / this.slotMs);
  }

  /** Slots below this one ended more than `retainMs` ago. */
  private prunableBelow(): number {
    return this.slotOf(this.clock() - this.retainMs);
  }

  /** Slots below this one this process has pruned (undefined: none yet since it started). */
  private prunedBelow: number | undefined;
  private pruning: Promise<void> | undefined;

  /** After a write: prunes in the background when a slot became old enough (about once per slot per process). */
  private pruneLater(): void {
    if (this.pruning || (this.prunedBelow !== undefined && this.prunedBelow >= this.prunableBelow())) return;
    // A failed round (store unavailable) is retried by the next write's.
    this.pruning = this.prune()
      .catch(() => undefined)
      .finally(() => (this.pruning = undefined));
  }

  /** The background pruning started by the last write, if it is still running (tests wait for it). */
  prunedByWrites(): Promise<void> {
    return this.pruning ?? Promise.resolve();
  }

  /**
   * Deletes the finished revisions of every slot older than `retainMs`, oldest slot first, after
   * finishing its pending ones. Each slot is two equality queries on `slot` (pushed down to
   * PostgreSQL by FerretDB). A process's first round, or one after a long pause, looks up which old
   * slots exist instead of walking every slot in between; revisions written before pruning existed
   * get the current slot, so they go one retention period later.
   */
  async prune(): Promise<void> {
    const below = this.prunableBelow();
    let slots: number[];
    if (this.prunedBelow === undefined || below - this.prunedBelow > SLOTS) {
      await this.revisions.updateMany({ slot: { $exists: false } }, { $set: { slot: this.slotOf(this.clock()) } });
      const present = (await this.revisions.distinct('slot')) as unknown[];
      slots = present.filter((b): b is number => typeof b === 'number' && b < below).sort((a, b) => a - b);
    } else {
      slots = [];
      for (let b = this.prunedBelow; b < below; b++) slots.push(b);
    }
    for (const slot of slots) {
      const pending = await this.revisions.find({ slot, pending: true }, { projection: { recordId: 1, rev: 1 } }).toArray();
      for (const r of pending) await this.finish(r);
      await this.revisions.deleteMany({ slot, pending: false });
    }
    this.prunedBelow = Math.max(below, this.prunedBelow ?? below);
  }
}
