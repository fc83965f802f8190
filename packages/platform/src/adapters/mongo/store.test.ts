import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { announced, sampleTransaction, seedTransaction, storeContract } from '../../../test/store-contract';
import { counterContract, deliveryContract, gatewayReplicasContract, sampleDelivery } from '../../../test/delivery-contract';
import { merchantObjectsContract } from '../../../test/merchant-objects-contract';
import { expectedPaymentsContract } from '../../../test/expected-payments-contract';
import { movementClaimsContract, sampleMovement, sampleMovementClaim } from '../../../test/movement-claims-contract';
import { idempotencyScope } from '@switch/core/contracts/operaciones';
import type { IdempotencyClaim } from '../../ports/claims';
import { MongoStore } from './store';
import { leaseContract } from '../../../test/lease-contract';
import { overviewSummariesContract } from '../../../test/overview-summaries-contract';

/**
 * Runs against the real server named by MONGO_URL (the FerretDB 1.24 build of `npm run infra:up` here
 * and in CI, MongoDB 7 elsewhere). Every store gets a fresh database, dropped after its test.
 */
const url = process.env.MONGO_URL;
let admin: MongoClient | undefined;
const databases: string[] = [];

beforeAll(async () => {
  if (!url) {
    throw new Error(
      'MONGO_URL is not set: run `npm run infra:up` and `source .cache/infra.env` (or export MONGO_URL), then run the tests again',
    );
  }
  admin = await MongoClient.connect(url);
});
afterEach(async () => {
  await Promise.all(databases.splice(0).map((name) => admin!.db(name).dropDatabase()));
});
afterAll(async () => {
  await admin?.close();
});

function freshDatabase(): string {
  const name = `store_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  databases.push(name);
  return name;
}

const connect = (database: string) => MongoStore.connect({ url: url!, database });
const freshStore = () => connect(freshDatabase());

storeContract('mongo', freshStore);
leaseContract('mongo', freshStore);
deliveryContract('mongo', freshStore);
counterContract('mongo', freshStore);
gatewayReplicasContract('mongo', freshStore);
merchantObjectsContract('mongo', freshStore);
movementClaimsContract('mongo', freshStore);
expectedPaymentsContract('mongo', freshStore);
overviewSummariesContract('mongo', freshStore);

describe('MongoStore movement claims across replicas', () => {
  it('of 50 concurrent claims of one movement through two stores on one database exactly one wins', async () => {
    const database = freshDatabase();
    const [a, b] = await Promise.all([connect(database), connect(database)]);
    try {
      const movement = sampleMovement();
      const claims = Array.from({ length: 50 }, () => sampleMovementClaim(movement));
      const results = await Promise.all(claims.map((c, i) => (i % 2 ? a : b).movementClaims.claim(c)));
      expect(results.filter((r) => r.claimed)).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('MongoStore specifics', () => {
  const open: MongoStore[] = [];
  /** Several stores on one database: separate connection pools, like separate service replicas. */
  const replicas = async (n: number) => {
    const database = freshDatabase();
    const stores = await Promise.all([...Array(n).keys()].map(() => MongoStore.connect({ url: url!, database })));
    open.push(...stores);
    return { database, stores };
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  it('answers ping', async () => {
    const { stores } = await replicas(1);
    await expect(stores[0]!.ping()).resolves.toBeUndefined();
  });

  it('creates its indexes idempotently (connecting twice changes nothing)', async () => {
    const { database, stores } = await replicas(1);
    const indexes = async () => {
      const db = admin!.db(database);
      const names = await db.listCollections({}, { nameOnly: true }).toArray();
      const all = await Promise.all(
        names.map(async (c) => (await db.collection(c.name).indexes()).map((i) => `${c.name}:${JSON.stringify(i.key)}`)),
      );
      return all.flat().sort();
    };
    const first = await indexes();
    expect(first).toEqual(
      expect.arrayContaining([
        'transactions:{"estado":1,"createdAt":1}',
        'transactions:{"_due":1,"nextCheckAt":1,"_id":1}',
        'api_keys:{"merchantId":1}',
      ]),
    );
    const again = await connect(database);
    open.push(again);
    await again.ensureIndexes();
    expect(await indexes()).toEqual(first);
    await stores[0]!.merchants.insert({ id: 'm1', nombre: 'x', active: true, createdAt: '2020-01-01T00:00:00.000Z' });
    expect(await again.merchants.get('m1')).not.toBeNull();
  });

  it('keeps whole-read fields as JSON text (a bank answer with any keys too) and the queried ones as fields', async () => {
    const { database, stores } = await replicas(1);
    const raw = JSON.parse('{"a.b":1,"$set":{"$inc":2},"m":[[1],[2,[3]]],"__proto__":{"x.y":1}}');
    const tx = sampleTransaction({
      raw,
      history: [{ from: null, to: 'ACEPTADA', at: '2020-01-01T00:00:00.000Z', cause: 'bank_outcome', version: 1, motivo: null, raw }],
    });
    expect(await seedTransaction(stores[0]!, tx)).toBe(true);
    const db = admin!.db(database);
    const stored = await db.collection('transactions').findOne({ _id: tx.id as never });
    for (const field of ['request', 'raw', 'attempts', 'history'] as const) {
      expect(typeof stored![field], field).toBe('string');
      expect(JSON.parse(stored![field] as string), field).toStrictEqual(JSON.parse(JSON.stringify(tx[field])));
    }
    expect(stored).toMatchObject({ merchantId: tx.merchantId, estado: tx.estado, createdAt: tx.createdAt, nextCheckAt: tx.nextCheckAt });
    expect(await stores[0]!.transactions.get(tx.id)).toStrictEqual(tx);

    // A delivery's attempts, set by `complete` without the codec's write path, are text as well.
    const d = sampleDelivery({ lease: { owner: 'me', until: '2999-01-01T00:00:00.000Z' } });
    await stores[0]!.deliveries.insert(d);
    const attempts = [{ n: 1, at: '2020-01-01T00:00:01.000Z', statusCode: 200, latencyMs: 5, error: null }];
    expect(
      await stores[0]!.deliveries.complete(d.id, 'me', { status: 'delivered', attempts, nextAttemptAt: null, updatedAt: d.updatedAt }),
    ).toBe(true);
    expect((await db.collection('webhook_deliveries').findOne({ _id: d.id as never }))!.attempts).toBe(JSON.stringify(attempts));
    expect((await stores[0]!.deliveries.get(d.id))?.attempts).toStrictEqual(attempts);
  });

  it('20 parallel claims of one scope from 4 replicas: exactly one winner', async () => {
    const { stores } = await replicas(4);
    for (let round = 0; round < 5; round++) {
      const key = randomUUID();
      const scope = idempotencyScope('m1', 'test', 'pagar', key);
      const claim = (i: number): IdempotencyClaim => ({
        scope,
        merchantId: 'm1',
        mode: 'test',
        kind: 'pagar',
        key,
        fingerprint: `f${i}`,
        txnId: `txn_${i}`,
        createdAt: '2020-01-01T00:00:00.000Z',
      });
      const results = await Promise.all([...Array(20).keys()].map((i) => stores[i % 4]!.idempotency.claim(claim(i))));
      expect(results.filter((r) => r.claimed)).toHaveLength(1);
      const stored = (await stores[0]!.idempotency.get(scope))!;
      for (const r of results) if (!r.claimed) expect(r.existing).toEqual(stored);
    }
  });

  it('10 parallel commits at one expected version from 4 replicas: exactly one true, and it is what is stored', async () => {
    const { stores } = await replicas(4);
    // Several rounds: with a plain filtered update FerretDB let several writers win in ~40% of rounds.
    for (let round = 0; round < 10; round++) {
      const tx = sampleTransaction();
      await seedTransaction(stores[0]!, tx);
      const writes = [...Array(10).keys()].map((i) => ({ ...tx, version: 2, referenciaBanco: `writer-${i}` }));
      const results = await Promise.all(writes.map((w, i) => stores[i % 4]!.transactionLog.commit(w, 1, announced(w))));
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = writes[results.indexOf(true)]!;
      for (const s of stores) expect(await s.transactions.get(tx.id)).toStrictEqual(winner);
      expect(await stores[1]!.transactionLog.commit({ ...tx, version: 3 }, 1, announced(tx))).toBe(false);
    }
  });

  it('a replica that remembers an older state neither wins over a newer write nor refuses a change the newer state allows', async () => {
    const { stores } = await replicas(2);
    const [a, b] = [stores[0]!, stores[1]!];
    const tx = sampleTransaction({ estado: 'ACEPTADA', version: 1 });
    await seedTransaction(a, tx); // a remembers version 1
    const byB = { ...tx, estado: 'PENDIENTE' as const, version: 2 };
    expect(await b.transactionLog.commit(byB, 1, announced(byB))).toBe(true);
    // a still remembers version 1: a write computed from it must lose...
    expect(await a.transactionLog.commit({ ...tx, estado: 'RECHAZADA', version: 2 }, 1, announced(tx))).toBe(false);
    expect(await b.transactions.get(tx.id)).toStrictEqual(byB);
    // A read is never answered from memory alone.
    const d = sampleTransaction({ estado: 'ACEPTADA', version: 1 });
    await seedTransaction(a, d);
    const dByB = { ...d, estado: 'LIQUIDADA' as const, version: 2 };
    expect(await b.transactionLog.commit(dByB, 1, announced(dByB))).toBe(true);
    expect(await a.transactions.get(d.id)).toStrictEqual(dByB);
    // ...and a write expecting the newer version must win, though a's memory said otherwise at first.
    const c = sampleTransaction({ estado: 'ACEPTADA', version: 1 });
    await seedTransaction(a, c);
    const cByB = { ...c, estado: 'PENDIENTE' as const, version: 2 };
    expect(await b.transactionLog.commit(cByB, 1, announced(cByB))).toBe(true);
    const settled = { ...c, estado: 'LIQUIDADA' as const, version: 3 };
    expect(await a.transactionLog.commit(settled, 2, announced(settled))).toBe(true);
    expect(await b.transactions.get(c.id)).toStrictEqual(settled);
  });
});

describe('MongoStore bookkeeping pruned', () => {
  const open: MongoStore[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  /** Stores on one database sharing a clock the test moves. */
  const REFERENCE_ROWS_KEPT = 10;
  const setup = async (n: number) => {
    const database = freshDatabase();
    let now = Date.parse('2026-01-01T00:00:00Z');
    const clock = () => now;
    const stores = await Promise.all(
      [...Array(n).keys()].map(() => MongoStore.connect({ url: url!, database, clock, referenceRowsKept: REFERENCE_ROWS_KEPT })),
    );
    open.push(...stores);
    const db = admin!.db(database);
    return {
      stores,
      db,
      advance: (ms: number) => {
        now += ms;
      },
    };
  };
  it('deletes the entries of counters whose window is over, and only those', async () => {
    const { stores, db, advance } = await setup(1);
    const s = stores[0]!;
    const entries = db.collection('counter_entries');
    const start = Date.parse('2026-01-01T00:00:00Z');
    const at = (ms: number) => new Date(start + ms).toISOString();
    await s.counters.add('panel-login|ip|1', 0, 1, at(15 * 60_000));
    await s.counters.add('limit|m|day', 10, 1, at(24 * 3_600_000));
    expect(await entries.countDocuments()).toBe(2);
    advance(3 * 3_600_000); // the 15-minute window is over (and the hour of margin)
    expect(await s.counters.add('panel-login|ip|1', 0, 0, at(3 * 3_600_000 + 15 * 60_000))).toEqual({ amount: 0, count: 0 });
    expect(
      await entries
        .find()
        .map((e) => e.key as string)
        .toArray(),
    ).toEqual(['limit|m|day']);
    expect(await s.counters.add('limit|m|day', 0, 0, at(24 * 3_600_000))).toEqual({ amount: 10, count: 1 });
  });

  it('keeps only the newest rows of a bank reference sequence, and numbers go on from the highest', async () => {
    const { stores, db } = await setup(1);
    const s = stores[0]!;
    const rows = db.collection('bank_reference_numbers');
    const taken = REFERENCE_ROWS_KEPT + 5;
    for (let i = 1; i <= taken; i++) expect(await s.bankReferences.assign('plaza|J1', `order-${i}`)).toBe(i);
    expect(await rows.countDocuments({ scope: 'plaza|J1' })).toBe(REFERENCE_ROWS_KEPT);
    expect(await rows.findOne({ _id: `plaza|J1#${taken - REFERENCE_ROWS_KEPT}` as never })).toBeNull();
    expect(await s.bankReferences.assign('plaza|J1', 'order-next')).toBe(taken + 1);
    expect(await s.bankReferences.assign('plaza|J1', 'order-1')).toBe(1); // an assigned key keeps its number
  });
});

describe('MongoStore deliveries', () => {
  it("records an attempt with one plain update filtered on the lease: no read, no compare-and-set; another's lease is left alone", async () => {
    const s = await MongoStore.connect({ url: url!, database: freshDatabase() });
    try {
      const d = sampleDelivery({ lease: { owner: 'me', until: '2999-01-01T00:00:00.000Z' } });
      expect(await s.deliveries.insert(d)).toBe(true);
      const calls: string[] = [];
      const stop = s.onCommand((c) => calls.push(`${c.collection}.${c.command}`));
      const update = {
        status: 'delivered' as const,
        attempts: [{ n: 1, at: d.createdAt, statusCode: 200, latencyMs: 3, error: null }],
        nextAttemptAt: null,
        updatedAt: d.createdAt,
      };
      expect(await s.deliveries.complete(d.id, 'someone-else', update)).toBe(false);
      expect(await s.deliveries.complete(d.id, 'me', update)).toBe(true);
      stop();
      expect(calls).toEqual(['webhook_deliveries.update', 'webhook_deliveries.update']);
      expect(await s.deliveries.get(d.id)).toStrictEqual({ ...d, ...update, lease: null });
      // The lease is released: a second record by the same owner matches nothing.
      expect(await s.deliveries.complete(d.id, 'me', update)).toBe(false);
    } finally {
      await s.close();
    }
  });
});
