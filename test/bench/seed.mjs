// Bulk seeding for the benchmark's `kafka_100k` mode: N settled payouts written straight into the
// store's collections, not through the API.
//
// The shape is the store's own by construction: a payout the switch has just settled through the API
// (in the same database) is the template, and every document of every collection that names it (its
// transaction head, idempotency claim, bank order, webhook delivery, ...) is copied N times with its
// identifiers made unique. Field names, nesting, BSON types, `_rev`, derived fields (`_due`) and
// indexes are exactly what MongoStore wrote (packages/platform/src/adapters/mongo/store.ts, conditional.ts):
// nothing is re-implemented here.
//
// Two ways to write the copies:
// - `postgres` given (FerretDB on PostgreSQL, the benchmark's stack): one SQL statement per collection
//   and block copies the template's own rows inside PostgreSQL (FerretDB 1.24 keeps a collection as a
//   table of `_jsonb` rows, named in the database's `_ferretdb_database_metadata`), replacing the
//   identifiers in the row's text. The rows are FerretDB's own encoding, types included, so FerretDB
//   reads them like any other; PostgreSQL maintains the indexes. About 100,000 documents/s here.
// - otherwise: insertMany through the MongoDB protocol (any server; ~2,000-3,000 documents/s on FerretDB).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BSON } from 'mongodb';

const { EJSON } = BSON;
const BATCH = 250;
const PARALLEL = 4;
/** Payouts per SQL block (each block one transaction: whole payouts or none). */
const SQL_BATCH = 10_000;
const literal = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const sqlText = (s) => `'${s.replace(/'/g, "''")}'`;
const sqlName = (s) => `"${s.replace(/"/g, '""')}"`;

/** Runs SQL through psql (the PostgreSQL client the infrastructure installs); resolves with its output. */
function psql({ host = '127.0.0.1', port, user = 'postgres', database = 'ferretdb' }, sql) {
  const bin = ['/usr/lib/postgresql/15/bin/psql'].find((p) => existsSync(p)) ?? 'psql';
  return new Promise((resolvePsql, reject) => {
    const child = spawn(
      bin,
      ['-h', host, '-p', String(port), '-U', user, '-d', database, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1'],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePsql(out) : reject(new Error(`psql exited ${code}: ${err.trim()}`))));
    child.stdin.end(sql);
  });
}

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
export async function seedSettled(db, n, { budgetSeconds = Number.POSITIVE_INFINITY, say = () => {}, postgres } = {}) {
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

  if (postgres) return seedInPostgres(db, n, { postgres, docs, tokens, perCollection, txnId, t0, budgetSeconds, say });

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
  return seeded({ payouts, n, written, perCollection, txnId, t0, budgetSeconds, say });
}

/** What a seeding reports (said and returned), either way it wrote. */
function seeded({ payouts, n, written, perCollection, txnId, t0, budgetSeconds, say, via }) {
  const seconds = (Date.now() - t0) / 1000;
  const cut = payouts < n ? ` (of ${n}: the ${budgetSeconds} s budget ran out)` : '';
  say(`seeded ${payouts} settled payouts${cut}, ${written} documents, in ${seconds.toFixed(1)} s${via ? ' (SQL inside PostgreSQL)' : ''}`);
  return {
    payouts,
    asked: n,
    documents: written,
    per_payout: perCollection,
    seconds: Number(seconds.toFixed(1)),
    documents_per_s: Math.round(written / seconds),
    template: txnId,
    ...(via ? { via } : {}),
  };
}

/** The copies written by SQL inside PostgreSQL (see the top of this file). */
async function seedInPostgres(db, n, { postgres, docs, tokens, perCollection, txnId, t0, budgetSeconds, say }) {
  const schema = db.databaseName; // FerretDB 1.24: a database is a PostgreSQL schema of the same name
  const names = [...new Set(docs.map((d) => d.name))];
  const tables = new Map();
  const rows = await psql(
    postgres,
    `SELECT _jsonb->>'_id', _jsonb->>'table' FROM ${sqlName(schema)}._ferretdb_database_metadata WHERE _jsonb->>'_id' IN (${names.map(sqlText).join(', ')});`,
  );
  for (const line of rows.trim().split('\n')) {
    const [name, table] = line.split('|');
    if (name && table) tables.set(name, table);
  }
  for (const name of names) if (!tables.has(name)) throw new Error(`no PostgreSQL table for collection ${name} in schema ${schema}`);
  for (const d of docs) if (typeof d.id !== 'string') throw new Error(`template document ${d.name} has a non-string _id`);
  // The same replacement as the insertMany path: every identifier gets `-s<i>` (`\\&` = the match).
  const pattern = tokens.map((t) => literal(t)).join('|');
  const statement = (name, from, to) => {
    const table = `${sqlName(schema)}.${sqlName(tables.get(name))}`;
    const ids = docs.filter((d) => d.name === name).map((d) => sqlText(d.id));
    return (
      `INSERT INTO ${table} (_jsonb) SELECT regexp_replace(t._jsonb::text, ${sqlText(pattern)}, '\\&-s' || i, 'g')::jsonb ` +
      `FROM ${table} t CROSS JOIN generate_series(${from}, ${to - 1}) AS i WHERE t._jsonb->>'_id' IN (${ids.join(', ')});`
    );
  };
  const deadline = t0 + budgetSeconds * 1000;
  const perPayout = docs.length;
  let payouts = 0;
  let lastSaid = Date.now();
  // Two blocks at a time: PostgreSQL takes concurrent writers, and this machine has two cores.
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < n && Date.now() < deadline) {
        const from = next;
        const to = Math.min(n, from + SQL_BATCH);
        next = to;
        await psql(postgres, `BEGIN;\n${names.map((name) => statement(name, from, to)).join('\n')}\nCOMMIT;`);
        payouts += to - from;
        if (Date.now() - lastSaid > 10_000) {
          lastSaid = Date.now();
          say(`seeded ${payouts} payouts (${payouts * perPayout} documents)`);
        }
      }
    }),
  );
  // Fresh statistics, as a store that grew over time would have (autovacuum's analyze comes later).
  await psql(postgres, names.map((name) => `ANALYZE ${sqlName(schema)}.${sqlName(tables.get(name))};`).join('\n'));
  return seeded({ payouts, n, written: payouts * perPayout, perCollection, txnId, t0, budgetSeconds, say, via: 'postgresql' });
}
