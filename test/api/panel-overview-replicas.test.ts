import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMerchant } from '@switch/usecases/onboarding';
import { MongoStore } from '@switch/platform/adapters/mongo/store';
import { createLogger } from '@switch/platform/telemetry/logger';
import { newTransaction, type Transaction } from '@switch/core/operation';
import { lastDays, summarizeOverview, venezuelanDayOf } from '@switch/core/overview';
import { startOverviewFold } from '@switch/panel';
import { overviewGroups } from '../../services/panel/src/overview-hours';

const log = createLogger('overview-replicas-test', 'silent');
const marks = { announcedVersion: 1, writtenBy: null, replyTo: [] };
const HOUR = 3_600_000;

/**
 * Two panel processes on one MongoDB-compatible store (FerretDB here and in CI): the overview's hour
 * summaries are folded once, by the replica holding the fold's lease, and a fresh process reads them
 * instead of the hours' operations.
 */
describe('the overview hour summaries across panel replicas', () => {
  const url = process.env.MONGO_URL;
  const database = `overview_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const stores: MongoStore[] = [];
  const now = Date.now();
  const week = lastDays(venezuelanDayOf(new Date(now).toISOString()), 7);

  function payout(id: string, createdAt: number, estado: Transaction['estado']): Transaction {
    const tx = newTransaction({
      id,
      merchantId: 'resumen',
      mode: 'test',
      idempotencyKey: id,
      fingerprint: 'f',
      request: { kind: 'pagar', body: { monto: { valor: 250.5, moneda: 'VES' } } } as never,
      relatedId: null,
      now: new Date(createdAt).toISOString(),
    });
    return { ...tx, estado, bancoUsado: 'bnc', updatedAt: new Date(createdAt + 1000).toISOString() };
  }

  beforeAll(async () => {
    if (!url) throw new Error('MONGO_URL is not set: run `npm run infra:up` and `source .cache/infra.env`, then run the tests again');
    for (let i = 0; i < 2; i++) stores.push(await MongoStore.connect({ url, database }));
    await createMerchant(stores[0]!, { id: 'resumen', nombre: 'Comercio del resumen' }, new Date(now - 40 * 24 * HOUR));
  });
  afterAll(async () => {
    if (url) {
      const admin = await MongoClient.connect(url);
      await admin.db(database).dropDatabase();
      await admin.close();
    }
    for (const s of stores) await s.close();
  });

  it('one replica folds; a fresh one reads the summaries, not the operations; an outcome after the fold shows at once', async () => {
    const [a, b] = stores as [MongoStore, MongoStore];
    // Three hours ago: an hour complete by now.
    const at = now - 3 * HOUR;
    const waiting = payout('txn_resumen_w', at, 'PENDIENTE');
    await a.transactionLog.commit(waiting, null, marks);
    await a.transactionLog.commit(payout('txn_resumen_s', at + 1000, 'LIQUIDADA'), null, marks);
    await a.transactionLog.commit(payout('txn_resumen_r', at + 2000, 'RECHAZADA'), null, marks);
    const live = summarizeOverview(await overviewGroups(a, 'resumen', 'test', week, now), week);

    const folds = [
      startOverviewFold({ store: a, log, instanceId: 'panel-a', clock: () => now }),
      startOverviewFold({ store: b, log, instanceId: 'panel-b', clock: () => now }),
    ];
    const ran = await Promise.all(folds.map((f) => f.tick()));
    expect(ran.filter(Boolean)).toHaveLength(1);
    await Promise.all(folds.map((f) => f.stop()));

    // A fresh process (nothing of its own): the complete hours come from their summaries.
    const hourReads = vi.spyOn(b.transactions, 'overviewOfHour');
    const fresh = summarizeOverview(await overviewGroups(b, 'resumen', 'test', week, now), week);
    expect(fresh).toEqual(live);
    expect(fresh.paidOut).toEqual({ count: 1, amount: 250.5 });
    // Only the hours not complete yet are read whole: the current one, and the one before in its first quarter.
    expect(hourReads.mock.calls.length).toBeLessThanOrEqual(2);
    hourReads.mockClear();

    await a.transactionLog.commit({ ...waiting, estado: 'LIQUIDADA', version: waiting.version + 1 }, waiting.version, marks);
    const settled = summarizeOverview(await overviewGroups(b, 'resumen', 'test', week, now), week);
    expect(settled.paidOut).toEqual({ count: 2, amount: 501 });
    expect(hourReads.mock.calls.length).toBeLessThanOrEqual(2);
  }, 240_000);
});
