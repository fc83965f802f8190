import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient, type Document } from 'mongodb';
import { sampleTransaction } from '../../../test/store-contract';
import { detectConsistency, LOOP_QUERIES, MongoStore } from './store';

/**
 * Flat with history: every query a service runs in a loop is answered where the data is, checked
 * with `explain` on the real server of MONGO_URL. On MongoDB the winning plan must use an index (no
 * collection scan); on FerretDB, which serves only `_id` from its indexes, the filter must be pushed
 * down to PostgreSQL/SQLite (evaluated there, not by reading every document into Go).
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
    ferretDb = (await detectConsistency(admin)) === 'revisions';
    store = await MongoStore.connect({ url: url!, database });
    // A few rows, so a server's planner has something to choose about.
    for (let i = 0; i < 5; i++) await store.transactions.insert(sampleTransaction({ estado: 'DESCONOCIDA', nextCheckAt: now }));
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
    } else {
      const winning = JSON.stringify(plan.queryPlanner?.winningPlan ?? plan);
      expect(winning).not.toContain('COLLSCAN');
      expect(winning).toContain('IXSCAN');
    }
  });

  it('revisions scheme (FerretDB): the repair of interrupted writes reads only pending revisions', async () => {
    if (store.consistency !== 'revisions') return;
    const plan = (await admin.db(database).collection('transactions_revisions').find({ pending: true }).explain()) as Document;
    expect(plan.filterPushdown ?? plan.pushdown, JSON.stringify(plan)).toBe(true);
  });
});
