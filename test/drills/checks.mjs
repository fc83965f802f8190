// The invariants, checked after a drill has recovered (docs/reliability.md):
//   send once per attempt, every stored state announced, nothing stranded, final states never
//   change, the switch agrees with the bank, every event delivered at least once.
import { createRequire } from 'node:module';
import { MongoClient } from 'mongodb';

const require = createRequire(import.meta.url);
// Read through the store's own adapter, as the services do (its record codec: whole-read fields as
// text, escaped keys), rather than the raw collections.
const { MongoStore } = require('@switch/platform/adapters/mongo/store');

const FINAL = new Set(['LIQUIDADA', 'RECHAZADA']);
const EVENT = { ACEPTADA: 'transaccion.aprobada', LIQUIDADA: 'transaccion.liquidada', RECHAZADA: 'transaccion.rechazada' };

export async function openStore({ url, database }) {
  const store = await MongoStore.connect({ url, database });
  const raw = new MongoClient(url);
  await raw.connect();
  const heads = raw.db(database).collection('transactions');
  return {
    store,
    /** Ids of the merchant's transactions created at or after `since` (ISO). */
    async idsSince(merchantId, since) {
      const rows = await heads.find({}, { projection: { _id: 1, merchantId: 1, createdAt: 1 } }).toArray();
      return rows.filter((r) => r.merchantId === merchantId && r.createdAt >= since).map((r) => r._id);
    },
    get: (id) => store.transactions.get(id),
    async close() {
      await store.close();
      await raw.close();
    },
  };
}

/** Whether an operation is settled for the checks: final, or a documented open state. */
export function resolved(tx) {
  if (FINAL.has(tx.estado)) return true;
  if (tx.review) return true; // handed to a person on purpose (SWITCH_REVIEW_AFTER_MS)
  // Tokens move no money and are not reconciled: ACEPTADA is "OTP sent"; DESCONOCIDA is an OTP request
  // the bank never answered within the order deadline (docs/decisions/0010-states-and-error.md). The collection itself is
  // the `cobrar`, which is checked like any other operation.
  if (tx.kind === 'token' && (tx.estado === 'ACEPTADA' || tx.estado === 'DESCONOCIDA')) return true;
  return false;
}

/** The events a transaction's history calls for: one per entry into ACEPTADA, LIQUIDADA, RECHAZADA. */
export function expectedEvents(tx) {
  return [...new Set(tx.history.filter((h) => EVENT[h.to]).map((h) => EVENT[h.to]))];
}

/**
 * The counts of one drill. `txs`: the transactions of the drill; `bank(banco, orderRef)`: the bank's
 * money state of an order; `dups`: references received twice; `receiver`: webhook deliveries;
 * `announced(id)`: the newest version of a transaction seen on the events topic.
 */
export function evaluate({ txs, bank, dups, receiver, announced }) {
  const out = {
    ledger_mismatches: [],
    unresolved: [],
    unannounced: [],
    webhooks_missing: [],
    final_changed: [],
    duplicate_bank_orders: dups,
  };
  for (const tx of txs) {
    if (!resolved(tx))
      out.unresolved.push({
        id: tx.id,
        kind: tx.kind,
        estado: tx.estado,
        banco: tx.bancoUsado,
        attempts: tx.attempts.map((a) => `${a.banco}:${a.outcome ?? 'in flight'}`).join(','),
      });
    if (announced(tx.id) < tx.version)
      out.unannounced.push({ id: tx.id, estado: tx.estado, version: tx.version, announced: announced(tx.id) });
    // A final state is never left: no history entry may start from one.
    const left = tx.history.find((h) => FINAL.has(h.from));
    if (left) out.final_changed.push({ id: tx.id, from: left.from, to: left.to });
    for (const type of expectedEvents(tx)) if (receiver.count(tx.id, type) === 0) out.webhooks_missing.push({ id: tx.id, type });
    if (tx.kind === 'pagar' || tx.kind === 'cobrar') {
      const m = ledgerMismatch(tx, bank);
      if (m) out.ledger_mismatches.push({ id: tx.id, estado: tx.estado, banco: tx.bancoUsado, why: m });
    }
  }
  return out;
}

/** Why the switch's final state disagrees with the banks' ledgers, or null. */
function ledgerMismatch(tx, bank) {
  const orders = tx.attempts.map((a) => ({ banco: a.banco, state: bank(a.banco, `${tx.id}-${a.n}`) })).filter((o) => o.state !== null);
  const moved = orders.filter((o) => o.state !== 'rejected');
  if (moved.length > 1) return `money orders at ${moved.map((o) => o.banco).join(' and ')}`;
  if (tx.estado === 'LIQUIDADA') {
    if (moved.length === 0) return 'LIQUIDADA but no bank holds the order';
    if (moved[0].banco !== tx.bancoUsado) return `LIQUIDADA at ${tx.bancoUsado} but the order is at ${moved[0].banco}`;
    // The simulated bank settles at the status query it answers, so 'pending' there is settled.
    if (moved[0].state !== 'settled' && moved[0].banco !== 'bnc') return `LIQUIDADA but the bank says ${moved[0].state}`;
  }
  if (tx.estado === 'RECHAZADA' && moved.length > 0) return `RECHAZADA but ${moved[0].banco} says ${moved[0].state}`;
  return null;
}
