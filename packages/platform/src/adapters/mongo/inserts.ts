import { MongoBulkWriteError, MongoServerError, type Collection, type Document, type WriteError } from 'mongodb';

const DUPLICATE_KEY = 11000;

type Row = Document & { _id: string };

interface Waiting {
  row: Row;
  resolve: (inserted: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Inserts into one collection made in one event-loop turn leave as one unordered `insert` command:
 * one round trip, and on FerretDB/PostgreSQL one statement and one commit, for all of them. Under load
 * a service makes many such inserts at once (claims of concurrent requests, operations of several
 * partitions, their bank orders and deliveries), each a separate record no other depends on, so
 * neither their order nor one's failure matters to the others. Each caller still learns its own
 * row's fate: inserted (true), its id taken (false: before, or by another row of the same batch; which
 * of two rows with one id wins is the server's choice, as it was between two commands), or its own error.
 */
class InsertBatch {
  private waiting: Waiting[] = [];

  constructor(private readonly collection: Collection<Row>) {}

  insert(row: Row): Promise<boolean> {
    return new Promise((resolve, reject) => {
      // setImmediate runs after the turn's I/O callbacks: every insert they made joins this batch.
      if (this.waiting.length === 0) setImmediate(() => void this.send());
      this.waiting.push({ row, resolve, reject });
    });
  }

  private async send(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 1) {
      const [one] = batch as [Waiting];
      try {
        await this.collection.insertOne(one.row);
        one.resolve(true);
      } catch (error) {
        if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) one.resolve(false);
        else one.reject(error);
      }
      return;
    }
    try {
      await this.collection.insertMany(
        batch.map((w) => w.row),
        { ordered: false },
      );
      for (const w of batch) w.resolve(true);
    } catch (error) {
      // Anything but a per-row report (a lost connection, a refused command) is every row's error.
      if (!(error instanceof MongoBulkWriteError)) {
        for (const w of batch) w.reject(error);
        return;
      }
      const failed = new Map<number, WriteError>();
      for (const writeError of ([] as WriteError[]).concat(error.writeErrors)) failed.set(writeError.index, writeError);
      batch.forEach((w, index) => {
        const writeError = failed.get(index);
        if (!writeError) w.resolve(true);
        else if (writeError.code === DUPLICATE_KEY) w.resolve(false);
        else w.reject(new MongoServerError({ message: writeError.errmsg ?? 'insert refused', code: writeError.code }));
      });
    }
  }
}

const batches = new WeakMap<Collection<Row>, InsertBatch>();

/**
 * Inserts `row`; `false` when a record with its id exists (E11000, FerretDB too): an answer, not an
 * error. Joins the other inserts into the same collection object made in this event-loop turn (one
 * command for all: `InsertBatch`).
 */
export function insertNew<T extends Document & { _id: string }>(collection: Collection<T>, row: T): Promise<boolean> {
  const target = collection as unknown as Collection<Row>;
  let batch = batches.get(target);
  if (!batch) {
    batch = new InsertBatch(target);
    batches.set(target, batch);
  }
  return batch.insert(row);
}
