import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient, type Document } from 'mongodb';
import { sampleTransaction, seedTransaction } from '../../../test/store-contract';
import { isFerretDb, LOOP_QUERIES, MongoStore } from './store';

/**
 * Flat with history: every query a service runs in a loop is answered where the data is, checked
 * with `explain` on the real server of MONGO_URL. On MongoDB the winning plan must use an index (no
 * collection scan). On FerretDB the filter must be pushed down (evaluated by the database, not by
 * reading every document into Go), and PostgreSQL's own plan (FerretDB's explain returns it) must
 * read the collection's table through an index, not a Seq Scan: the GIN indexes of
 * infra/ferretdb/04-pg-gin-index.patch serve the equalities, the `_id` index serves lookups by `_id`
 * (infra/ferretdb/03-pg-id-index.patch).
 */
const url = process.env.MONGO_URL;
const now = '2030-01-01T00:00:00.000Z';
const cases: [string, string, Document, Document][] = [
  ['reconciler: due operations', 'transactions', LOOP_QUERIES.transactionsDue(now), { _due: 1, nextCheckAt: 1, _id: 1 }],
  [
    'reconciler: due operations after a cursor',
    'transactions',
    LOOP_QUERIES.transactionsDue(now, { at: now, id: 'txn_a' }),
    { _due: 1, nextCheckAt: 1, _id: 1 },
  ],
  [
    'router: the outbox relay, unmarked writes',
    'transactions',
    LOOP_QUERIES.transactionsUnannounced(now),
    { _unannounced: 1, updatedAt: 1, _id: 1 },
  ],
  [
    'reconciler gauges: operations in one state',
    'transactions',
    LOOP_QUERIES.transactionsByEstado('DESCONOCIDA'),
    { createdAt: 1, _id: 1 },
  ],
  ['notifier: deliveries due', 'webhook_deliveries', LOOP_QUERIES.deliveriesDue(now), { nextAttemptAt: 1, _id: 1 }],
  ['notifier gauges: pending deliveries', 'webhook_deliveries', LOOP_QUERIES.deliveriesByStatus('pending'), {}],
  ['notifier gauges: exhausted deliveries', 'webhook_deliveries', LOOP_QUERIES.deliveriesByStatus('exhausted'), {}],
  // Not loops, but pages that must stay fast at a million operations: the panel's overview reads a
  // merchant's day, the CSV export walks the days newest first (transactions.overviewOfDay, streamForMerchant).
  ['panel overview: one merchant hour', 'transactions', { _merchantHour: 'm1|test|2026-11-27T08' }, {}],
  [
    'CSV export: one merchant day, newest first',
    'transactions',
    { _merchantDay: 'm1|test|2026-11-27', estado: { $type: 'string' } },
    { createdAt: -1, _id: -1 },
  ],
  // The overview's stored hour summaries of one month, read by every view and by the fold's rounds.
  [
    'panel overview: one merchant month of hour summaries',
    'overview_hours',
    { _merchantMonth: 'm1|test|2026-11', hour: { $gte: '2026-11-20T00', $lte: '2026-11-27T08' } },
    {},
  ],
];

describe.runIf(url)('loop queries are served where the data is (explain on the real server)', () => {
  const database = `queries_${randomUUID().slice(0, 8)}`;
  let admin: MongoClient;
  let store: MongoStore;
  let ferretDb = false;

  beforeAll(async () => {
    admin = await MongoClient.connect(url!);
    ferretDb = await isFerretDb(admin);
    store = await MongoStore.connect({ url: url!, database });
    for (let i = 0; i < 5; i++) await seedTransaction(store, sampleTransaction({ estado: 'DESCONOCIDA', nextCheckAt: now }));
    // Thousands of rows no loop query matches, so that a planner prefers an index to reading the table
    // (at a handful of rows a sequential scan is cheaper and rightly chosen).
    const filler = (fields: Document) => Array.from({ length: 3000 }, (_, i) => ({ _id: `filler_${i}`, ...fields }));
    const db = admin.db(database);
    await db
      .collection<{ _id: string }>('transactions')
      .insertMany(filler({ estado: 'APROBADA', _due: false, _unannounced: false, nextCheckAt: now }));
    await db.collection<{ _id: string }>('webhook_deliveries').insertMany(filler({ status: 'delivered', nextAttemptAt: null }));
    await db.collection<{ _id: string }>('overview_hours').insertMany(filler({ _merchantMonth: 'm2|test|2026-11', hour: '2026-11-27T08' }));
  });
  afterAll(async () => {
    await store?.close();
    await admin?.db(database).dropDatabase();
    await admin?.close();
  });

  it.each(cases)('%s', async (_name, collection, filter, sort) => {
    const plan = (await admin.db(database).collection(collection).find(filter).sort(sort).explain()) as Document;
    if (ferretDb) {
      expect(plan.filterPushdown ?? plan.pushdown, JSON.stringify(plan)).toBe(true);
      expectPostgresIndexScan(plan);
    } else {
      const winning = JSON.stringify(plan.queryPlanner?.winningPlan ?? plan);
      expect(winning).not.toContain('COLLSCAN');
      expect(winning).toContain('IXSCAN');
    }
  });

  // Every get, and the read of every compare-and-set, looks a record up by `_id`: on MongoDB an index
  // lookup whatever the collection's size, and so on FerretDB/PostgreSQL with 03-pg-id-index.patch.
  it('a lookup by _id is an index scan', async () => {
    const plan = (await admin
      .db(database)
      .collection('transactions')
      .find({ _id: 'filler_17' as never })
      .explain()) as Document;
    if (ferretDb) {
      expect(plan.filterPushdown ?? plan.pushdown, JSON.stringify(plan)).toBe(true);
      expectPostgresIndexScan(plan);
    } else expect(JSON.stringify(plan.queryPlanner?.winningPlan ?? plan)).not.toContain('COLLSCAN');
  });

  // MongoDB's answer to range conditions on strings (the loop queries' time bounds, which FerretDB
  // evaluates in Go on the rows the pushed-down equality returns): strings compare byte by byte (so
  // "B" < "a" < "ñ"), an array matches through any element, other types never match a string bound.
  it('range conditions on strings keep their MongoDB answer, whatever the field holds', async () => {
    const c = admin.db(database).collection<{ _id: string; f?: unknown }>('range_semantics');
    await c.insertMany([
      { _id: 'upper', f: 'B' },
      { _id: 'lower', f: 'a' },
      { _id: 'enye', f: 'ñ' },
      { _id: 'empty', f: '' },
      { _id: 'array', f: ['z', 'a'] },
      { _id: 'number', f: 5 },
      { _id: 'null', f: null },
      { _id: 'missing' },
      { _id: 'date', f: new Date(0) },
      { _id: 'object', f: { x: 'a' } },
    ]);
    await c.createIndex({ f: 1 });
    const ids = async (filter: Document) => (await c.find(filter).toArray()).map((d) => d._id).sort();
    expect(await ids({ f: { $lte: 'a' } })).toEqual(['array', 'empty', 'lower', 'upper']);
    expect(await ids({ f: { $lt: 'a' } })).toEqual(['empty', 'upper']);
    expect(await ids({ f: { $gt: 'a' } })).toEqual(['array', 'enye']);
    expect(await ids({ f: { $gte: 'B' } })).toEqual(['array', 'enye', 'lower', 'upper']);
    expect(await ids({ f: { $gt: 'z' } })).toEqual(['enye']);
    expect(await ids({ f: { $gt: '', $lt: 'b' } })).toEqual(['array', 'lower', 'upper']);
  });
});

/**
 * On FerretDB's PostgreSQL backend, `queryPlanner` is PostgreSQL's `EXPLAIN (FORMAT JSON)` plan: its
 * nodes must include an index scan and no Seq Scan; any other shape fails, so a changed explain cannot
 * pass unseen.
 */
function expectPostgresIndexScan(plan: Document): void {
  const planner = plan.queryPlanner;
  const root = planner?.Plan as Document | undefined;
  expect(root?.['Node Type'], `no PostgreSQL plan in ${JSON.stringify(plan)}`).toBeTypeOf('string');
  const types: string[] = [];
  const walk = (node: Document) => {
    types.push(node['Node Type']);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(root!);
  expect(types, JSON.stringify(planner)).not.toContain('Seq Scan');
  expect(
    types.some((t) => t === 'Index Scan' || t === 'Index Only Scan' || t === 'Bitmap Index Scan'),
    JSON.stringify(planner),
  ).toBe(true);
}
