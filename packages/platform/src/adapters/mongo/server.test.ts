import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';

/**
 * What the store asks of its server, checked at the driver level against the real server of
 * MONGO_URL, as MongoDB does it: MongoDB 7 wherever it runs, and the FerretDB build of infra/fetch.sh
 * here and in CI, whose patches (infra/ferretdb/*.patch) exist to pass these tests. Every client is a
 * separate MongoClient (its own connection pool), as separate service replicas are.
 */
const url = process.env.MONGO_URL;
let admin: MongoClient;
const database = `server_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
const clients: MongoClient[] = [];

beforeAll(async () => {
  if (!url) throw new Error('MONGO_URL is not set: run `npm run infra:up` and `source .cache/infra.env`, then run the tests again');
  admin = await MongoClient.connect(url);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await admin?.db(database).dropDatabase();
  await admin?.close();
});

const separateClients = async (n: number) => {
  const made = await Promise.all(Array.from({ length: n }, () => MongoClient.connect(url!)));
  clients.push(...made);
  return made.map((c) => c.db(database).collection<{ _id: string; version?: number; writer?: number; n?: number }>('docs'));
};

describe('the server behaves as MongoDB where the store relies on it', () => {
  // infra/ferretdb/01-pg-atomic-update.patch: stock FerretDB 1.24 reads, filters in Go and then writes
  // by _id alone, so several writers of one version could all match (stock 1.24.2: 10 of 10 in round 1).
  it('of concurrent updateOne({_id, version: n}) from separate clients, exactly one matches', async () => {
    const docs = await separateClients(10);
    for (let round = 0; round < 10; round++) {
      const _id = `cas-${round}`;
      await docs[0]!.insertOne({ _id, version: 1, writer: -1 });
      const results = await Promise.all(docs.map((c, writer) => c.updateOne({ _id, version: 1 }, { $set: { version: 2, writer } })));
      const winners = results.flatMap((r, writer) => (r.matchedCount === 1 ? [writer] : []));
      expect(winners, `round ${round}`).toHaveLength(1);
      expect(results.reduce((sum, r) => sum + r.modifiedCount, 0)).toBe(1);
      expect(await docs[0]!.findOne({ _id })).toEqual({ _id, version: 2, writer: winners[0] });
    }
  });

  // infra/ferretdb/02-read-before-write.patch: FerretDB 1.24 kept the connection of an update's read
  // while it took another one for the write; with as many concurrent updates as its pool has connections
  // (50), every connection was held by a read waiting for a second one, and nothing answered again, not
  // even ping, until a restart. One client with a pool of 60 never got there; 50 replicas' pools did.
  // (Stock 1.24.2 did not wedge here, its writes never retry, but it lost updates: the counter ended at 60.)
  it('50 separate clients × 20 findOneAndUpdate($inc) on one document: all complete, the counter is 1000', async () => {
    const docs = await separateClients(50);
    const _id = 'counter';
    await docs[0]!.insertOne({ _id, n: 0 });
    const seen = await Promise.all(
      docs.map(async (c) => {
        const before: number[] = [];
        for (let i = 0; i < 20; i++) {
          const doc = await c.findOneAndUpdate({ _id }, { $inc: { n: 1 } }, { returnDocument: 'before' });
          before.push(doc!.n!);
        }
        return before;
      }),
    );
    expect((await docs[0]!.findOne({ _id }))?.n).toBe(1000);
    // Each increment saw its own state before it: 0..999, once each (atomic read-modify-write).
    expect(seen.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect((await admin.db(database).command({ ping: 1 })).ok).toBe(1);
  }, 300_000);
});
