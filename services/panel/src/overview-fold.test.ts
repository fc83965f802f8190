import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { createLogger } from '@switch/platform/telemetry/logger';
import { newTransaction, type Transaction } from '@switch/core/operation';
import { foldOverviewRound, startOverviewFold, type FoldStore } from './overview-fold';

const log = createLogger('overview-fold-test', 'silent');
/** 2026-11-27 15:30 in Caracas (19:30 UTC). */
const NOW = Date.parse('2026-11-27T19:30:00.000Z');
const marks = { announcedVersion: 1, writtenBy: null, replyTo: [] };

function payout(id: string, createdAt: string, estado: Transaction['estado'], valor = 100): Transaction {
  const tx = newTransaction({
    id,
    merchantId: 'demo',
    mode: 'test',
    idempotencyKey: id,
    fingerprint: 'f',
    request: { kind: 'pagar', body: { monto: { valor, moneda: 'VES' } } } as never,
    relatedId: null,
    now: createdAt,
  });
  return { ...tx, estado, bancoUsado: 'bnc', updatedAt: createdAt };
}

async function demoStore(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.merchants.insert({ id: 'demo', nombre: 'Demo', active: true, createdAt: '2026-10-01T00:00:00.000Z' });
  return store;
}

/** The store, with the summaries it was asked to store counted. */
function countingPuts(store: MemoryStore): { store: FoldStore & Pick<MemoryStore, 'leases'>; puts: string[] } {
  const puts: string[] = [];
  return {
    puts,
    store: {
      merchants: store.merchants,
      transactions: store.transactions,
      leases: store.leases,
      overviewSummaries: {
        between: (...a) => store.overviewSummaries.between(...a),
        openBetween: (...a) => store.overviewSummaries.openBetween(...a),
        put: (s) => {
          puts.push(`${s.mode}|${s.hour}`);
          return store.overviewSummaries.put(s);
        },
      },
    },
  };
}

describe("the overview's fold", () => {
  it('folds the newest complete hours first, a bounded number per round, then back through the 30 days', async () => {
    const store = await demoStore();
    await store.transactionLog.commit(payout('txn_a', '2026-11-27T13:00:00.000Z', 'LIQUIDADA'), null, marks);
    const { store: counted, puts } = countingPuts(store);
    expect(await foldOverviewRound(counted, NOW, 3)).toEqual({ folded: 3, refolded: 0, more: true });
    // 15:00 is not complete; 14:00 ended half an hour ago.
    expect(puts).toEqual(['test|2026-11-27T14', 'test|2026-11-27T13', 'test|2026-11-27T12']);
    let round = await foldOverviewRound(counted, NOW, 1_000);
    while (round.more) round = await foldOverviewRound(counted, NOW, 1_000);
    // 30 days of hours up to 14:00, in both modes, each folded once.
    const hours = 29 * 24 + 15;
    expect(puts).toHaveLength(2 * hours);
    expect(new Set(puts).size).toBe(2 * hours);
    expect(await foldOverviewRound(counted, NOW, 1_000)).toEqual({ folded: 0, refolded: 0, more: false });
    const [nine] = await store.overviewSummaries.between('demo', 'test', '2026-11-27T09', '2026-11-27T09');
    expect(nine).toMatchObject({ open: [], final: [expect.objectContaining({ estado: 'LIQUIDADA', count: 1, amount: 100 })] });
  });

  it('two folding replicas store one summary per hour: one of them holds the lease, and any fold stored twice is the same', async () => {
    const store = await demoStore();
    for (let i = 0; i < 30; i++)
      await store.transactionLog.commit(
        payout(`txn_${i}`, new Date(NOW - 3 * 3_600_000 - i * 60_000).toISOString(), i % 5 === 0 ? 'PENDIENTE' : 'LIQUIDADA', 100.1 + i),
        null,
        marks,
      );
    const one = countingPuts(store);
    const two = countingPuts(store);
    const replicas = [
      startOverviewFold({ store: one.store, log, instanceId: 'panel-1', clock: () => NOW }),
      startOverviewFold({ store: two.store, log, instanceId: 'panel-2', clock: () => NOW }),
    ];
    const ran = await Promise.all(replicas.map((r) => r.tick()));
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect([one.puts.length, two.puts.length].sort((a, b) => a - b)).toEqual([0, 2 * (29 * 24 + 15)]);
    const stored = await store.overviewSummaries.between('demo', 'test', '2026-11-27T00', '2026-11-27T14');
    // Without the lease (a replica overtaken mid-round), a second fold of the same operations stores nothing new.
    const again = countingPuts(store);
    const written = await Promise.all(stored.map((s) => again.store.overviewSummaries.put(s)));
    expect(written.every((w) => !w)).toBe(true);
    const refold = await foldOverviewRound(again.store, NOW, 10_000);
    expect(refold).toEqual({ folded: 0, refolded: 0, more: false });
    expect(await store.overviewSummaries.between('demo', 'test', '2026-11-27T00', '2026-11-27T14')).toEqual(stored);
    expect(stored.flatMap((s) => s.open)).toHaveLength(6);
    await Promise.all(replicas.map((r) => r.stop()));
  });
});
