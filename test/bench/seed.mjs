// Bulk seeding for the benchmark's `kafka_100k` mode: N settled payouts written straight into the
// store's collections with insertMany, not through the API.
//
// The shape is the store's own by construction: a payout the switch has just settled through the API
// (in the same database) is the template, and every document of every collection that names it (its
// transaction head and revisions, idempotency claim, bank order, webhook delivery and revisions, ...)
// is copied N times with its identifiers made unique. Field names, nesting, BSON types, `_rev`,
// derived fields (`_due`) and indexes are exactly what MongoStore wrote
// (shared/src/adapters/mongo/store.ts, versioned.ts): nothing is re-implemented here.
import { BSON } from 'mongodb';

const { EJSON } = BSON;
const BATCH = 250;
const PARALLEL = 4;
const literal = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every document of the database with its EJSON text (one scan each: the database is still small). */
async function everyDocument(db) {
  const collections = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  const out = [];
  for (const name of collections) {
    for (const doc of await db.collection(name).find({}).toArray()) out.push({ name, doc, text: EJSON.stringify(doc, { relaxed: false }) });
  }
  return out;
}

/**
 * Seeds `n` settled payouts into `db` (a database the switch uses), or as many whole ones as fit in
 * `budgetSeconds`; returns what was written.
 */
export async function seedSettled(db, n, { budgetSeconds = Number.POSITIVE_INFINITY, say = () => {} } = {}) {
  const t0 = Date.now();
  // A template that is finished everywhere: final (nothing due), its webhook delivered, no write half done.
  // (A copy of one still in flight would make the router announce and the notifier deliver N copies.)
  const all = await everyDocument(db);
  let txnId = null;
  let docs = [];
  const candidates = await db.collection('transactions').find({ estado: 'LIQUIDADA', _due: false }).limit(20).toArray();
  for (const head of candidates) {
    const found = all.filter(({ text }) => text.includes(head._id));
    const final = found.every(
      ({ name, doc }) =>
        !(name.endsWith('_revisions') && doc.pending !== false) &&
        !(name === 'webhook_deliveries' && doc.status !== 'delivered') &&
        !(name === 'transactions' && (doc._due !== false || doc.nextCheckAt != null)),
    );
    if (final && found.some(({ name }) => name === 'webhook_deliveries')) {
      txnId = head._id;
      docs = found.map(({ name, doc, text }) => ({ name, id: doc._id, text }));
      break;
    }
  }
  if (!txnId) throw new Error('no finished settled payout (announced, webhook delivered) to copy: run the kafka mode first');

  // Identifiers to make unique in each copy: the transaction id, and the `_id`s that do not contain it
  // (a claim's scope, a bank order's id), each with what it contains (an idempotency key, say).
  const tokens = [txnId, ...docs.map((d) => String(d.id)).filter((id) => !id.includes(txnId))];
  const pattern = new RegExp(tokens.map(literal).join('|'), 'g');
  const perCollection = {};
  for (const d of docs) perCollection[d.name] = (perCollection[d.name] ?? 0) + 1;
  say(
    `seed template ${txnId}: ${docs.length} documents (${Object.entries(perCollection)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
  );

  // Blocks of BATCH copies, each copy's identifiers suffixed with its number; a block writes its copies
  // to every collection, so whatever blocks are done when the time budget runs out are whole payouts.
  const byCollection = new Map();
  for (const d of docs) byCollection.set(d.name, [...(byCollection.get(d.name) ?? []), d.text]);
  const blocks = [];
  for (let from = 0; from < n; from += BATCH) blocks.push({ from, to: Math.min(n, from + BATCH) });
  const deadline = t0 + budgetSeconds * 1000;
  let written = 0;
  let payouts = 0;
  let next = 0;
  let lastSaid = Date.now();
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < blocks.length && Date.now() < deadline) {
        const { from, to } = blocks[next++];
        for (const [name, texts] of byCollection) {
          const batch = [];
          for (let i = from; i < to; i++) {
            for (const text of texts)
              batch.push(
                EJSON.parse(
                  text.replace(pattern, (m) => `${m}-s${i}`),
                  { relaxed: false },
                ),
              );
          }
          await db.collection(name).insertMany(batch, { ordered: false });
          written += batch.length;
        }
        payouts += to - from;
        if (Date.now() - lastSaid > 10_000) {
          lastSaid = Date.now();
          say(`seeded ${payouts} payouts (${written} documents)`);
        }
      }
    }),
  );
  const seconds = (Date.now() - t0) / 1000;
  const cut = payouts < n ? ` (of ${n}: the ${budgetSeconds} s budget ran out)` : '';
  say(`seeded ${payouts} settled payouts${cut}, ${written} documents, in ${seconds.toFixed(1)} s`);
  return {
    payouts,
    asked: n,
    documents: written,
    per_payout: perCollection,
    seconds: Number(seconds.toFixed(1)),
    documents_per_s: Math.round(written / seconds),
    template: txnId,
  };
}
