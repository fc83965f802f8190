import { randomUUID } from 'node:crypto';
import type { Collection, Db, Document } from 'mongodb';
import type { SimulatedLedger, SimulatedOrder } from '@switch/connector-kit/simulated-ledger';
import { createIndexesOneByOne } from './conditional';
import { insertNew } from './inserts';
import { asText, fromText } from './records';

type Row = Document & { _id: string };

/**
 * The simulated bank's ledger on MongoDB/FerretDB: `simulated_bank_orders` (`_id` = orderRef: the
 * unique key makes the first take win on every replica) and `simulated_bank_receipts`, one row per
 * repeated receipt of an orderRef (inserted: `$inc` is not atomic on FerretDB). The first receipt is
 * the order itself, so an order received once, as nearly every order is, costs one write, not two.
 * The outcome is kept as text: it is read whole.
 */
export function mongoSimulatedBankLedger(db: Db): SimulatedLedger & { ensureIndexes(): Promise<void> } {
  const orders: Collection<Row> = db.collection('simulated_bank_orders');
  const receipts: Collection<Row> = db.collection('simulated_bank_receipts');
  const toRow = (o: SimulatedOrder): Row => ({
    _id: o.orderRef,
    txnId: o.txnId,
    merchantId: o.merchantId,
    kind: o.kind,
    rail: o.rail,
    outcome: asText(o.outcome),
    posting: o.posting,
    cuenta: o.posting?.cuenta ?? null,
    ...(o.payer ? { payer: o.payer } : {}),
    at: o.at,
  });
  const fromRow = (r: Row): SimulatedOrder => ({
    orderRef: r._id,
    txnId: r.txnId,
    merchantId: r.merchantId,
    kind: r.kind,
    rail: r.rail,
    outcome: fromText(r.outcome) as SimulatedOrder['outcome'],
    posting: r.posting ?? null,
    ...(r.payer ? { payer: r.payer } : {}),
    at: r.at,
  });
  const get = async (orderRef: string) => {
    const r = await orders.findOne({ _id: orderRef });
    return r ? fromRow(r) : null;
  };
  return {
    async ensureIndexes() {
      await createIndexesOneByOne(orders, [{ key: { merchantId: 1, cuenta: 1, at: 1 } }]);
      await createIndexesOneByOne(receipts, [{ key: { orderRef: 1 } }]);
    },
    take: async (order) => {
      if (await insertNew(orders, toRow(order))) return { first: true, order };
      const held = await get(order.orderRef);
      if (!held) throw new Error(`simulated order ${order.orderRef} conflicted but cannot be read`);
      await receipts.insertOne({ _id: randomUUID(), orderRef: order.orderRef, at: order.at });
      return { first: false, order: held };
    },
    get,
    postings: async (merchantId, cuenta) => (await orders.find({ merchantId, cuenta }).sort({ at: 1, _id: 1 }).toArray()).map(fromRow),
    all: async () => {
      const counts = new Map<string, number>();
      for (const r of await receipts.find({}, { projection: { orderRef: 1 } }).toArray())
        counts.set(r.orderRef as string, (counts.get(r.orderRef as string) ?? 0) + 1);
      return (await orders.find().sort({ at: 1, _id: 1 }).toArray()).map((r) => ({
        order: fromRow(r),
        received: 1 + (counts.get(r._id) ?? 0),
      }));
    },
  };
}
