import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { idempotencyScope } from '@switch/core/contracts/operaciones';
import { MongoStore } from './store';
import { durableDatabase } from './concerns';

/**
 * The store's write and read concerns (./concerns.ts), on the real server named by MONGO_URL
 * (FerretDB here and in CI: it takes them; a MongoDB replica set honours them).
 */
const url = process.env.MONGO_URL;
let admin: MongoClient | undefined;
const databases: string[] = [];
beforeAll(async () => {
  if (!url) throw new Error('MONGO_URL is not set: run `npm run infra:up` and `source .cache/infra.env`');
  admin = await MongoClient.connect(url);
});
afterAll(async () => {
  await Promise.all(databases.map((name) => admin!.db(name).dropDatabase()));
  await admin?.close();
});
const freshDatabase = () => {
  const name = `concerns_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  databases.push(name);
  return name;
};

/** MONGO_URL asking for weaker concerns, as an operator's connection string might. */
function weakened(base: string): string {
  const u = new URL(base);
  u.searchParams.set('w', '1');
  u.searchParams.set('journal', 'false');
  u.searchParams.set('readPreference', 'secondaryPreferred');
  u.searchParams.set('readConcernLevel', 'local');
  return u.toString();
}

describe('the store writes at majority and reads from the primary at majority, stated once', () => {
  it('whatever MONGO_URL or the caller asks for', async () => {
    const store = await MongoStore.connect({
      url: weakened(url!),
      database: freshDatabase(),
      client: { writeConcern: { w: 1 }, readPreference: 'nearest' },
    });
    try {
      expect(store.concerns()).toEqual({
        writeConcern: { w: 'majority', journal: true },
        readConcern: 'majority',
        readPreference: 'primary',
      });
      // A claim, the decision that reads back its own write, works with them on this server.
      const key = `k-${randomUUID()}`;
      const scope = idempotencyScope('m1', 'test', 'pagar', key);
      const claim = {
        scope,
        merchantId: 'm1',
        mode: 'test' as const,
        kind: 'pagar' as const,
        key,
        txnId: 't1',
        fingerprint: 'f',
        createdAt: new Date().toISOString(),
      };
      expect((await store.idempotency.claim(claim)).claimed).toBe(true);
      expect(await store.idempotency.claim({ ...claim, txnId: 't2' })).toMatchObject({ claimed: false, existing: { txnId: 't1' } });
    } finally {
      await store.close();
    }
  });

  it('the commands as sent carry them, and the server takes them', async () => {
    const client = new MongoClient(weakened(url!), { monitorCommands: true, writeConcern: { w: 1 } });
    const sent: CommandStartedEvent[] = [];
    client.on('commandStarted', (e) => sent.push(e));
    try {
      const rows = durableDatabase(client, freshDatabase()).collection<{ _id: string; n: number }>('rows');
      await rows.insertOne({ _id: 'a', n: 1 });
      await rows.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 1 } });
      expect(await rows.findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 2 });
      const command = (name: string) => sent.find((e) => e.commandName === name)!.command;
      expect(command('insert').writeConcern).toEqual({ w: 'majority', j: true });
      expect(command('findAndModify').writeConcern).toEqual({ w: 'majority', j: true });
      expect(command('find').readConcern).toEqual({ level: 'majority' });
    } finally {
      await client.close();
    }
  });
});
