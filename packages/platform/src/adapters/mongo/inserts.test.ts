import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MongoClient, MongoServerError, type CommandStartedEvent } from 'mongodb';
import { insertNew } from './inserts';

/** Runs against the real server named by MONGO_URL (infra/up.sh), like the store's own tests. */
const url = process.env.MONGO_URL;
const database = `inserts_${randomUUID().slice(0, 8)}`;
let client: MongoClient;
const started: CommandStartedEvent[] = [];

beforeAll(async () => {
  if (!url) throw new Error('MONGO_URL is not set: run `npm run infra:up` and `source .cache/infra.env`, then the tests');
  client = new MongoClient(url, { monitorCommands: true, ignoreUndefined: true });
  client.on('commandStarted', (e) => started.push(e));
  await client.connect();
});

afterAll(async () => {
  await client?.db(database).dropDatabase();
  await client?.close();
});

type Row = { _id: string; n: number; [field: string]: unknown };

const freshRows = () => client.db(database).collection<Row>(`rows_${randomUUID().slice(0, 8)}`);
const insertsInto = (name: string) => started.filter((e) => e.commandName === 'insert' && e.command.insert === name);

describe('insertNew', () => {
  it('sends the inserts of one turn as one command and tells each caller its own row’s fate', async () => {
    const rows = freshRows();
    expect(await insertNew(rows, { _id: 'taken', n: 0 })).toBe(true);
    const before = insertsInto(rows.collectionName).length;

    const answers = await Promise.all([
      insertNew(rows, { _id: 'a', n: 1 }),
      insertNew(rows, { _id: 'taken', n: 2 }), // exists
      insertNew(rows, { _id: 'b', n: 3 }),
      insertNew(rows, { _id: 'a', n: 4 }), // the same id as the first row of this batch: one of the two wins
      insertNew(rows, { _id: 'c', n: 5 }),
    ]);

    expect(answers.filter((_, i) => i !== 0 && i !== 3)).toEqual([false, true, true]);
    // Which of two rows with one id wins is the server's choice (an unordered insert), never both.
    expect([answers[0], answers[3]].sort()).toEqual([false, true]);
    expect(insertsInto(rows.collectionName).length - before).toBe(1);
    const stored = await rows.find({}).sort({ _id: 1 }).toArray();
    expect(stored).toEqual([
      { _id: 'a', n: answers[0] ? 1 : 4 },
      { _id: 'b', n: 3 },
      { _id: 'c', n: 5 },
      { _id: 'taken', n: 0 },
    ]);
  });

  it('fails only the row the server refused; the others of its batch are inserted', async () => {
    const rows = freshRows();
    const answers = await Promise.allSettled([
      insertNew(rows, { _id: 'ok1', n: 1 }),
      insertNew(rows, { _id: 'bad', n: 2, $refused: 1 }), // a field name starting with $ is refused by the server
      insertNew(rows, { _id: 'ok2', n: 3 }),
    ]);

    expect(answers[0]).toEqual({ status: 'fulfilled', value: true });
    expect(answers[2]).toEqual({ status: 'fulfilled', value: true });
    expect(answers[1]?.status).toBe('rejected');
    expect((answers[1] as PromiseRejectedResult).reason).toBeInstanceOf(MongoServerError);
    expect((await rows.find({}).sort({ _id: 1 }).toArray()).map((r) => r._id)).toEqual(['ok1', 'ok2']);
  });

  it('keeps inserts of different turns and different collections apart', async () => {
    const one = freshRows();
    const other = freshRows();
    expect(await Promise.all([insertNew(one, { _id: 'x', n: 1 }), insertNew(other, { _id: 'x', n: 2 })])).toEqual([true, true]);
    expect(await insertNew(one, { _id: 'x', n: 3 })).toBe(false);
    expect(await insertNew(one, { _id: 'y', n: 4 })).toBe(true);

    expect(insertsInto(one.collectionName)).toHaveLength(3);
    expect(insertsInto(other.collectionName)).toHaveLength(1);
    expect(await other.findOne({ _id: 'x' })).toEqual({ _id: 'x', n: 2 });
  });

  it('rejects every caller of a batch the server could not take', async () => {
    const closed = new MongoClient(url!, { serverSelectionTimeoutMS: 200 });
    await closed.connect();
    const rows = closed.db(database).collection<Row>('never');
    await closed.close();

    const answers = await Promise.allSettled([insertNew(rows, { _id: 'p', n: 1 }), insertNew(rows, { _id: 'q', n: 2 })]);
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
  });
});
