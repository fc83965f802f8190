import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { countStoreCommands, storeCommands } from './command-metrics';

/** Runs against the real server named by MONGO_URL (infra/up.sh), like the store's own tests. */
const url = process.env.MONGO_URL;
const database = `command_metrics_${randomUUID().slice(0, 8)}`;
let client: MongoClient;

beforeAll(async () => {
  if (!url) throw new Error('MONGO_URL is not set: run `npm run infra:up` and `source .cache/infra.env`, then the tests');
  client = new MongoClient(url, { monitorCommands: true });
  countStoreCommands(client);
  await client.connect();
});

afterAll(async () => {
  await client?.db(database).dropDatabase();
  await client?.close();
});

async function counted(command: string, collection: string): Promise<number> {
  const { values } = await storeCommands.get();
  return values.find((v) => v.labels.command === command && v.labels.collection === collection)?.value ?? 0;
}

describe('switch_store_commands_total', () => {
  it('counts each command the driver sends by command and collection, cursor getMores included', async () => {
    const rows = client.db(database).collection<{ _id: string; n: number }>('rows');
    await rows.insertOne({ _id: 'a', n: 1 });
    await rows.insertMany([
      { _id: 'b', n: 2 },
      { _id: 'c', n: 3 },
    ]);
    await rows.findOne({ _id: 'a' });
    await rows.updateOne({ _id: 'a' }, { $set: { n: 4 } });
    // batchSize 1 over 3 documents: one find and at least two getMores on the same collection.
    expect(await rows.find({}, { batchSize: 1 }).toArray()).toHaveLength(3);
    await client.db(database).command({ ping: 1 });

    expect(await counted('insert', 'rows')).toBe(2);
    expect(await counted('find', 'rows')).toBe(2);
    expect(await counted('update', 'rows')).toBe(1);
    expect(await counted('getMore', 'rows')).toBeGreaterThanOrEqual(2);
    expect(await counted('ping', 'none')).toBeGreaterThanOrEqual(1);
  });
});
