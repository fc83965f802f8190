import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { SimulatedOrder } from '@switch/connector-kit/simulated-ledger';
import { MongoStore } from './store';

/** Runs against the real server named by MONGO_URL (FerretDB here and in CI), one fresh database per test. */
const url = process.env.MONGO_URL;
let admin: MongoClient | undefined;
const databases: string[] = [];
const open: MongoStore[] = [];

beforeAll(async () => {
  if (!url) throw new Error('MONGO_URL is not set: run `npm run infra:up` and `source .cache/infra.env`, then run the tests again');
  admin = await MongoClient.connect(url);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  await Promise.all(databases.splice(0).map((name) => admin!.db(name).dropDatabase()));
});
afterAll(async () => {
  await admin?.close();
});

/** Two stores on one database: two bank-sim replicas, each with its own connection pool. */
async function replicas() {
  const database = `sim_ledger_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  databases.push(database);
  const stores = await Promise.all([1, 2].map(() => MongoStore.connect({ url: url!, database })));
  open.push(...stores);
  return stores as [MongoStore, MongoStore];
}

const order = (orderRef: string, monto: number, at: string): SimulatedOrder => ({
  orderRef,
  txnId: orderRef.split('-')[0]!,
  merchantId: 'm1',
  kind: 'pagar',
  rail: 'pago_movil',
  outcome: { type: 'settled', referencia: `TEST-${orderRef}`, endtoend: null, raw: { 'a.b': 1, $c: 'kept as text' } },
  posting: { cuenta: '0191', tipo: 'debito', monto, concepto: 'c', referencia: `TEST-${orderRef}` },
  at,
});

describe('the simulated bank ledger on MongoDB (shared by bank-sim replicas)', () => {
  it('of concurrent takes of one orderRef on two replicas exactly one is first, and both get its order back', async () => {
    const [a, b] = await replicas();
    const results = await Promise.all([
      a.simulatedBank.take(order('t1-1', 10, '2026-01-01T00:00:00.000Z')),
      b.simulatedBank.take(order('t1-1', 20, '2026-01-01T00:00:01.000Z')),
      a.simulatedBank.take(order('t1-1', 30, '2026-01-01T00:00:02.000Z')),
    ]);
    expect(results.filter((r) => r.first)).toHaveLength(1);
    const kept = results.find((r) => r.first)!.order;
    for (const r of results) expect(r.order).toEqual(kept);
    expect(await b.simulatedBank.get('t1-1')).toEqual(kept);
    expect(await a.simulatedBank.all()).toEqual([{ order: kept, received: 3 }]);
  });

  it("lists a merchant's postings on one account oldest first, whichever replica took them", async () => {
    const [a, b] = await replicas();
    await b.simulatedBank.take(order('t2-1', 2, '2026-01-01T00:00:02.000Z'));
    await a.simulatedBank.take(order('t3-1', 1, '2026-01-01T00:00:01.000Z'));
    await a.simulatedBank.take({ ...order('t4-1', 3, '2026-01-01T00:00:00.000Z'), merchantId: 'other' });
    expect((await b.simulatedBank.postings('m1', '0191')).map((o) => o.orderRef)).toEqual(['t3-1', 't2-1']);
    expect(await a.simulatedBank.get('never')).toBeNull();
  });
});
