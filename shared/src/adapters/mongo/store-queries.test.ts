import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient, type Document } from 'mongodb';
import { sampleTransaction } from '../../../test/store-contract';
import { describeServer, LOOP_QUERIES, MongoStore } from './store';

/**
 * Flat with history: every query a service runs in a loop is answered where the data is, checked
 * with `explain` on the real server of MONGO_URL. On MongoDB the winning plan must use an index (no
 * collection scan). On FerretDB the filter must be pushed down (evaluated by the database, not by
 * reading every document into Go), and on its PostgreSQL backend PostgreSQL's own plan (FerretDB's
 * explain returns it) must read the collection's table through an index, not a Seq Scan: the GIN
 * indexes infra/fetch.sh's FerretDB patch adds. On SQLite, which serves only `_id` from its indexes,
 * pushdown is all there is.
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
];

describe.runIf(url)('loop queries are served where the data is (explain on the real server)', () => {
  const database = `queries_${randomUUID().slice(0, 8)}`;
  let admin: MongoClient;
  let store: MongoStore;
  let ferretDb = false;

  beforeAll(async () => {
    admin = await MongoClient.connect(url!);
    ferretDb = (await describeServer(admin)).ferretdb;
    // On FerretDB the revisions scheme (still selectable there) brings its own loop query: checked below.
    store = await MongoStore.connect({ url: url!, database, consistency: ferretDb ? 'revisions' : 'auto' });
    for (let i = 0; i < 5; i++) await store.transactions.insert(sampleTransaction({ estado: 'DESCONOCIDA', nextCheckAt: now }));
    // Thousands of rows no loop query matches, so that a planner prefers an index to reading the table
    // (at a handful of rows a sequential scan is cheaper and rightly chosen).
    const filler = (fields: Document) => Array.from({ length: 3000 }, (_, i) => ({ _id: `filler_${i}`, ...fields }));
    const db = admin.db(database);
    await db.collection('transactions').insertMany(filler({ estado: 'APROBADA', _due: false, _unannounced: false, nextCheckAt: now }));
    await db.collection('webhook_deliveries').insertMany(filler({ status: 'delivered', nextAttemptAt: null }));
    if (ferretDb) await db.collection('transactions_revisions').insertMany(filler({ pending: false }));
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

  // A loop query's time bound is the part that keeps its answer small: everything in flight matches
  // its equality. On FerretDB's PostgreSQL backend the bound must be in PostgreSQL's plan (the range
  // pushdown of infra/fetch.sh's patch), not applied in Go to every document shipped to it.
  it.each([
    ['reconciler: due operations', 'transactions', LOOP_QUERIES.transactionsDue(now), 'nextCheckAt'],
    ['router: the outbox relay, unmarked writes', 'transactions', LOOP_QUERIES.transactionsUnannounced(now), 'updatedAt'],
    ['notifier: deliveries due', 'webhook_deliveries', LOOP_QUERIES.deliveriesDue(now), 'nextAttemptAt'],
  ])('%s: its time bound is evaluated by PostgreSQL (FerretDB)', async (_name, collection, filter, field) => {
    if (!ferretDb) return;
    const plan = (await admin.db(database).collection(collection).find(filter).explain()) as Document;
    if (Array.isArray(plan.queryPlanner)) return; // SQLite: pushdown of equalities is all there is
    const conditions: string[] = [];
    const walk = (node: Document) => {
      for (const key of ['Filter', 'Recheck Cond', 'Index Cond']) if (typeof node[key] === 'string') conditions.push(node[key]);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan.queryPlanner.Plan);
    expect(conditions.join(' AND '), JSON.stringify(plan.queryPlanner)).toContain(`'${field}'`);
  });

  // What a pushed-down range must not change: MongoDB's answer. Strings compare byte by byte (so
  // "B" < "a" < "ñ"), an array matches through any element, other types never match a string bound.
  it('range conditions on strings keep their MongoDB answer, whatever the field holds', async () => {
    const c = admin.db(database).collection<Document>('range_semantics');
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

  // Writes pay for every index PostgreSQL maintains. A non-unique index that the GIN index of its
  // leading field serves is kept empty on FerretDB's PostgreSQL backend (infra/fetch.sh): its btree
  // would serve none of FerretDB's SQL. Unique indexes keep their entries, which enforce them.
  it('FerretDB on PostgreSQL: non-unique secondary indexes hold no entries, unique ones do', async () => {
    if (!ferretDb) return;
    const transactions = admin.db(database).collection('transactions');
    if (Array.isArray(((await transactions.find({ _id: 'x' }).explain()) as Document).queryPlanner)) return; // SQLite
    const stats = await admin.db(database).command({ collStats: 'transactions' });
    const indexes = await transactions.listIndexes().toArray();
    const secondary = indexes.filter((i) => !i.unique && Object.keys(i.key)[0] !== '_id' && !Object.keys(i.key)[0].includes('.'));
    expect(secondary.length).toBeGreaterThan(0);
    for (const index of secondary)
      expect(stats.indexSizes[index.name], `${index.name}: ${JSON.stringify(stats.indexSizes)}`).toBeLessThanOrEqual(8192);
    expect(stats.indexSizes._id_).toBeGreaterThan(8192); // 3,000 documents' worth: the sizes are real
  });

  it('revisions scheme (FerretDB): the repair of interrupted writes reads only pending revisions', async () => {
    if (store.consistency !== 'revisions') return;
    const plan = (await admin.db(database).collection('transactions_revisions').find({ pending: true }).explain()) as Document;
    expect(plan.filterPushdown ?? plan.pushdown, JSON.stringify(plan)).toBe(true);
    expectPostgresIndexScan(plan);
  });
});

/**
 * On FerretDB's PostgreSQL backend, `queryPlanner` is PostgreSQL's `EXPLAIN (FORMAT JSON)` plan: its
 * nodes must include an index scan and no Seq Scan. SQLite's is a list of `EXPLAIN QUERY PLAN` rows
 * (nothing to check beyond pushdown); any other shape fails, so a changed explain cannot pass unseen.
 */
function expectPostgresIndexScan(plan: Document): void {
  const planner = plan.queryPlanner;
  if (Array.isArray(planner)) return;
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
