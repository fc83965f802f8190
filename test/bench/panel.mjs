// The panel's overview and CSV export at N stored operations of one merchant (default 1,000,000),
// on a real MongoDB-compatible store or the memory store: time to first byte, time to the end, and the
// process's RSS, printed as a table (docs/benchmarks.md, "Panel at a million operations").
//
//   npm run build && node --expose-gc test/bench/panel.mjs --store mongo [--n 1000000] [--noise 200000]
//       [--export-rows 100000] [--database panel_bench] [--reuse] [--fold] [--baseline overview,export] [--drop]
//   node --expose-gc --max-old-space-size=8192 test/bench/panel.mjs --store memory [--n 1000000]
//
// Seeding (not through the HTTP API): the merchant `demo` (created 31 days ago) gets N test-mode
// operations spread over the last 30 days (payouts and collections at the four banks; older than an
// hour: settled (85 %) or rejected, one in 50,000 left DESCONOCIDA; the last hour: 3 % PENDIENTE,
// 2 % DESCONOCIDA, 1 % ACEPTADA), beside `--noise` operations of another merchant and of demo's live mode.
// - mongo (MONGO_URL): one operation is written through the store (MongoStore's transaction log) and
//   its stored document is the template; the copies go into the same collection with insertMany, the
//   template's fields changed (id, times, state, bank, amount) and its derived `_` fields computed as
//   the store computes them. `--reuse` keeps a database seeded by an earlier run (same N).
// - memory: every operation through the memory store's transaction log.
//
// `--fold` then runs the panel's overview fold (decision 0215) until the period's complete hours all have
// a summary, and prints how long that took, per hour folded, and the summaries' stored size; without it
// the overview reads every hour live, as a fresh panel process did before the summaries.
//
// Then the panel plugin answers signed-in requests over Fastify's inject: the overview for today, 7
// and 30 days, each first in a fresh panel (nothing kept) and then again; the CSV export over its first
// `--export-rows` rows. `--baseline overview,export` (mongo) also times the queries the panel made before the store
// filed operations by merchant day: one overview pass (merchant, mode, createdAt range) for today and
// the export's first pages by (merchant, mode) and a createdAt cursor.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { BSON, MongoClient } from 'mongodb';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { MongoStore } from '@switch/platform/adapters/mongo/store';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { createMerchant } from '@switch/usecases/onboarding';
import { newTransaction } from '@switch/core/operation';
import { venezuelanDayOf } from '@switch/core/overview';
import { merchantDayKey, merchantHourKey, venezuelanHourOf } from '@switch/core/overview-hours';
import { foldOverviewRound, hashPassword, loadPanelConfig, panelPlugin } from '@switch/panel';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'mongo' },
    n: { type: 'string', default: '1000000' },
    noise: { type: 'string', default: '200000' },
    'export-rows': { type: 'string', default: '100000' },
    database: { type: 'string', default: 'panel_bench' },
    reuse: { type: 'boolean', default: false },
    baseline: { type: 'string', default: '' },
    'baseline-seconds': { type: 'string', default: '60' },
    only: { type: 'string', default: 'overview,export' },
    periods: { type: 'string', default: 'hoy,7d,30d' },
    drop: { type: 'boolean', default: false },
    fold: { type: 'boolean', default: false },
  },
});
const N = Number(args.n);
const NOISE = Number(args.noise);
const EXPORT_ROWS = Number(args['export-rows']);
const BANKS = ['banco_plaza', 'bnc', 'bancaribe', 'banco_activo'];
const MOTIVOS = ['SALDO_INSUFICIENTE', 'OTP_INVALIDO', 'CUENTA_NO_EXISTE', 'FUERA_DE_HORARIO'];
const DAY_MS = 86_400_000;
const mb = (bytes) => Math.round(bytes / 1048576);
const memory = () => {
  global.gc?.();
  const m = process.memoryUsage();
  return { rss: mb(m.rss), heap: mb(m.heapUsed) };
};
const now = Date.now();

/** The i-th operation of a merchant's `count`, as the fields that vary. */
function operation(i, count, merchantId, mode) {
  const created = now - Math.floor((i / count) * 30 * DAY_MS) - 1000;
  const recent = now - created < 3_600_000;
  const r = i % 100;
  const estado = recent
    ? r < 80
      ? 'LIQUIDADA'
      : r < 94
        ? 'RECHAZADA'
        : r < 97
          ? 'PENDIENTE'
          : r < 99
            ? 'DESCONOCIDA'
            : 'ACEPTADA'
    : i % 50_000 === 7
      ? 'DESCONOCIDA'
      : r < 85
        ? 'LIQUIDADA'
        : 'RECHAZADA';
  const kind = i % 3 === 0 ? 'cobrar' : 'pagar';
  const createdAt = new Date(created).toISOString();
  return {
    id: `txn_${merchantId}_${mode}_${i.toString(36).padStart(8, '0')}`,
    merchantId,
    mode,
    kind,
    idempotencyKey: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    request: {
      kind,
      body: {
        monto: { valor: 100 + (i % 5000) + 0.25, moneda: 'VES' },
        concepto: `Factura ${i}`,
        [kind === 'pagar' ? 'beneficiario' : 'pagador']: { nombre: 'Ana Pérez', valor: '04141234567' },
      },
    },
    estado,
    motivoRechazo: estado === 'RECHAZADA' ? MOTIVOS[i % MOTIVOS.length] : null,
    bancoUsado: BANKS[i % BANKS.length],
    referenciaBanco: estado === 'LIQUIDADA' ? `R${i}` : null,
    createdAt,
    updatedAt: new Date(created + 800 + (i % 7) * 300).toISOString(),
  };
}

const PARTS = [
  { merchantId: 'demo', mode: 'test', count: N },
  { merchantId: 'otro', mode: 'test', count: Math.round(NOISE * 0.75) },
  { merchantId: 'demo', mode: 'live', count: NOISE - Math.round(NOISE * 0.75) },
];

function fullTransaction(fields) {
  const base = newTransaction({
    id: fields.id,
    merchantId: fields.merchantId,
    mode: fields.mode,
    idempotencyKey: fields.idempotencyKey,
    fingerprint: 'f'.repeat(64),
    request: fields.request,
    relatedId: null,
    now: fields.createdAt,
  });
  return { ...base, ...fields, version: 2, history: [], attempts: [], nextCheckAt: null };
}
const marksOf = (tx) => ({ announcedVersion: tx.version, writtenBy: null, replyTo: [] });

let store;
let admin;
const seedStart = performance.now();
let seededNow = 0;
if (args.store === 'memory') {
  store = new MemoryStore();
  await createMerchant(store, { id: 'demo', nombre: 'Demo' }, new Date(now - 31 * DAY_MS));
  for (const part of PARTS)
    for (let i = 0; i < part.count; i++) {
      const tx = fullTransaction(operation(i, part.count, part.merchantId, part.mode));
      await store.transactionLog.commit(tx, null, marksOf(tx));
      seededNow++;
    }
} else {
  const url = process.env.MONGO_URL;
  if (!url) throw new Error('MONGO_URL is not set (set -a; . .cache/infra.env; set +a, after npm run infra:up)');
  admin = await MongoClient.connect(url);
  const db = admin.db(args.database);
  const seeded = args.reuse ? await db.collection('bench_meta').findOne({ _id: 'seed' }) : null;
  if (seeded && seeded.n !== N) throw new Error(`--reuse: the database holds a seed of ${seeded.n}, not ${N}`);
  if (!seeded) await db.dropDatabase();
  store = await MongoStore.connect({ url, database: args.database });
  if (!seeded) {
    await createMerchant(store, { id: 'demo', nombre: 'Demo' }, new Date(now - 31 * DAY_MS));
    const first = fullTransaction(operation(0, 1, 'demo', 'test'));
    await store.transactionLog.commit({ ...first, id: 'txn_template' }, null, marksOf(first));
    const template = await db.collection('transactions').findOne({ _id: 'txn_template' });
    await db.collection('transactions').deleteOne({ _id: 'txn_template' });
    const rows = db.collection('transactions');
    const BATCH = 1000;
    const IN_FLIGHT = 3;
    const stored = (f) => ({
      ...template,
      _id: f.id,
      merchantId: f.merchantId,
      mode: f.mode,
      kind: f.kind,
      idempotencyKey: f.idempotencyKey,
      request: JSON.stringify(f.request),
      estado: f.estado,
      motivoRechazo: f.motivoRechazo,
      bancoUsado: f.bancoUsado,
      referenciaBanco: f.referenciaBanco,
      createdAt: f.createdAt,
      updatedAt: f.updatedAt,
      // Derived as MongoStore derives them (settled or rejected: nothing due, announced).
      _due: false,
      _unannounced: false,
      _merchantDay: merchantDayKey(f.merchantId, f.mode, venezuelanDayOf(f.createdAt)),
      _merchantHour: merchantHourKey(f.merchantId, f.mode, venezuelanHourOf(f.createdAt)),
    });
    for (const part of PARTS) {
      const batches = [];
      for (let i = 0; i < part.count; i += BATCH) batches.push(Array.from({ length: Math.min(BATCH, part.count - i) }, (_, k) => i + k));
      for (let b = 0; b < batches.length; b += IN_FLIGHT) {
        await Promise.all(
          batches.slice(b, b + IN_FLIGHT).map((batch) =>
            rows.insertMany(
              batch.map((i) => stored(operation(i, part.count, part.merchantId, part.mode))),
              { ordered: false },
            ),
          ),
        );
        seededNow += batches.slice(b, b + IN_FLIGHT).reduce((a, x) => a + x.length, 0);
        if (b % 60 === 0) process.stderr.write(`\rseeded ${seededNow} in ${Math.round((performance.now() - seedStart) / 1000)} s   `);
      }
    }
    process.stderr.write('\n');
    await db.collection('bench_meta').insertOne({ _id: 'seed', n: N, noise: NOISE, at: new Date(now).toISOString() });
  }
}
const seedSeconds = Math.round((performance.now() - seedStart) / 100) / 10;
const afterSeed = memory();

await store.panelUsers.insert({
  id: `duena-${now}@demo.test`,
  merchantId: 'demo',
  role: 'owner',
  passwordHash: await hashPassword('correct horse battery staple'),
  active: true,
  invitedBy: null,
  createdAt: new Date().toISOString(),
});

/** A fresh panel (nothing kept between panels), signed in. */
async function panel() {
  const app = Fastify();
  await app.register(panelPlugin, {
    prefix: '/panel',
    store,
    secrets: SecretBox.ephemeral(),
    config: loadPanelConfig({}),
    basePath: '/panel',
  });
  await app.ready();
  const login = await app.inject({ method: 'GET', url: '/panel/login' });
  let cookie = String(login.headers['set-cookie']).split(';')[0];
  const csrf = /name="_csrf" value="([^"]+)"/.exec(login.body)[1];
  const signedIn = await app.inject({
    method: 'POST',
    url: '/panel/login',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrf, email: `duena-${now}@demo.test`, password: 'correct horse battery staple' }).toString(),
  });
  cookie = String(signedIn.headers['set-cookie']).split(';')[0];
  return { app, cookie };
}

/** One request: ms to the first chunk, ms to the end (or to `maxRows` lines), bytes, RSS before and at its peak. */
async function measure(label, { app, cookie }, url, maxRows = Number.POSITIVE_INFINITY) {
  const before = memory();
  const start = performance.now();
  const res = await app.inject({ method: 'GET', url, headers: { cookie }, payloadAsStream: true });
  let first = null;
  let bytes = 0;
  let rows = 0;
  let peakRss = 0;
  let sampled = 0;
  for await (const chunk of res.stream()) {
    first ??= performance.now() - start;
    bytes += chunk.length;
    rows += chunk.toString('utf8').split('\r\n').length - 1;
    if (++sampled % 20 === 0 || rows >= maxRows) peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (rows >= maxRows) break;
  }
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const end = performance.now() - start;
  return {
    request: label,
    status: res.statusCode,
    first_byte_ms: Math.round(first ?? end),
    end_ms: Math.round(end),
    rows: Number.isFinite(maxRows) ? rows - 1 : undefined,
    kB: Math.round(bytes / 1024),
    rss_before: before.rss,
    rss_peak: mb(peakRss),
  };
}

// Each figure is printed as it is measured (a long run cut short keeps what it measured), then all as a table.
const results = new Proxy([], {
  get: (target, key) =>
    key === 'push'
      ? (...rows) => {
          for (const row of rows) console.log(JSON.stringify(row));
          return target.push(...rows);
        }
      : Reflect.get(target, key),
});
if (args.fold) {
  // The fold's back-fill, round after round as the panel's loop runs them (48 hours a round).
  const start = performance.now();
  let hours = 0;
  let rounds = 0;
  for (;;) {
    const round = await foldOverviewRound(store, Date.now(), 48);
    hours += round.folded + round.refolded;
    rounds++;
    process.stderr.write(`\rfolded ${hours} hours in ${Math.round((performance.now() - start) / 1000)} s   `);
    if (!round.more) break;
  }
  process.stderr.write('\n');
  const ms = performance.now() - start;
  let stored = '';
  if (admin) {
    const docs = await admin
      .db(args.database)
      .collection('overview_hours')
      .find({ _merchantMonth: /^demo\|test\|/ })
      .toArray();
    const bytes = docs.map((d) => BSON.calculateObjectSize(d));
    const groups = docs.map((d) => JSON.parse(d.final).length);
    stored = `; demo/test summaries: ${docs.length}, ${Math.round(bytes.reduce((a, b) => a + b, 0) / docs.length)} bytes and ${Math.round(groups.reduce((a, b) => a + b, 0) / docs.length)} groups each on average`;
  }
  results.push({
    request: `fold back-fill: ${hours} hours (every merchant and mode) in ${rounds} rounds, ${Math.round(ms / Math.max(1, hours))} ms per hour${stored}`,
    end_ms: Math.round(ms),
  });
}
const only = new Set(args.only.split(',').filter(Boolean));
if (only.has('overview'))
  for (const periodo of args.periods.split(',')) {
    const fresh = await panel();
    results.push(await measure(`overview ${periodo}, fresh panel`, fresh, `/panel/resumen?periodo=${periodo}`));
    results.push(await measure(`overview ${periodo}, again`, fresh, `/panel/resumen?periodo=${periodo}`));
    await fresh.app.close();
  }
if (only.has('export')) {
  const exporter = await panel();
  results.push(await measure(`CSV export (es), first ${EXPORT_ROWS} rows`, exporter, '/panel/transacciones.csv', EXPORT_ROWS + 1));
  results.push(
    await measure(
      `CSV export (numerico, RECHAZADA), first ${EXPORT_ROWS} rows`,
      exporter,
      '/panel/transacciones.csv?estado=RECHAZADA&formato=numerico',
      EXPORT_ROWS + 1,
    ),
  );
  await exporter.app.close();
}

const baseline = new Set(args.baseline.split(',').filter(Boolean));
if (baseline.has('overview') && admin) {
  // The queries the panel made before operations were filed by merchant day, run as it ran them.
  const rows = admin.db(args.database).collection('transactions');
  const todayStart = `${venezuelanDayOf(new Date(now).toISOString())}T04:00:00.000Z`;
  // The old query made FerretDB read every row of the merchant's mode (the range is filtered in Go):
  // here those rows are read and timed over at most --baseline-seconds, the rest extrapolated.
  const cap = Number(args['baseline-seconds']) * 1000;
  const all = N;
  const start = performance.now();
  let seen = 0;
  const cursor = rows.find({ merchantId: 'demo', mode: 'test' }, { projection: { createdAt: 1 } });
  for await (const row of cursor) {
    seen++;
    if (row.createdAt < todayStart && performance.now() - start > cap) break;
  }
  await cursor.close();
  const ms = performance.now() - start;
  results.push({
    request: `before: overview pass over the merchant's ${all} rows (${seen} read in ${Math.round(ms)} ms, extrapolated)`,
    end_ms: Math.round((ms * all) / seen),
  });
}
if (baseline.has('export') && admin) {
  const rows = admin.db(args.database).collection('transactions');
  let start = performance.now();
  const page1 = await rows
    .find({ merchantId: 'demo', mode: 'test', estado: { $type: 'string' } })
    .sort({ createdAt: -1, _id: -1 })
    .limit(500)
    .toArray();
  const t1 = performance.now() - start;
  const last = page1[page1.length - 1];
  start = performance.now();
  await rows
    .find({
      $and: [
        { merchantId: 'demo', mode: 'test', estado: { $type: 'string' } },
        { $or: [{ createdAt: { $lt: last.createdAt } }, { createdAt: last.createdAt, _id: { $lt: last._id } }] },
      ],
    })
    .sort({ createdAt: -1, _id: -1 })
    .limit(500)
    .toArray();
  const t2 = performance.now() - start;
  results.push({ request: 'before: export, first page of 500 (merchant, mode), sorted', end_ms: Math.round(t1) });
  results.push({ request: 'before: export, next page of 500 (createdAt cursor)', end_ms: Math.round(t2) });
}

console.log(
  `panel bench: store ${args.store}, ${N} operations of demo/test + ${NOISE} others, ` +
    `${seededNow ? `seeded in ${seedSeconds} s` : 'reused'} (RSS ${afterSeed.rss} MiB), Node ${process.version}, ${new Date().toISOString()}`,
);
console.table(results);
if (args.drop && admin) await admin.db(args.database).dropDatabase();
await store.close();
await admin?.close();
