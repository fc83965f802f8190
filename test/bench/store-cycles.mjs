#!/usr/bin/env node
// What one payout's kind of store work costs the store itself, apart from the switch: cycles of an
// insert, a find and two compare-and-set updates of a payout-sized document (the shape and the
// indexes of a stored transaction), N at a time, against a MongoDB-compatible server. Prints the
// cycles per second and the CPU per cycle of the server's processes, read from /proc (utime + stime):
// the process given by --pid (FerretDB), and with --postgres every process named `postgres` on the
// machine (FerretDB's backend, with its backends; stop other clusters for a clean figure).
//
//   node test/bench/store-cycles.mjs --mongo-url mongodb://127.0.0.1:27017/ --pid $(cat .cache/infra-run/ferretdb.pid) --postgres
//
// Options: --cycles 2000, --concurrency 16, --rounds 1 (each round on a fresh database, one JSON line
// each). Used to compare FerretDB builds and settings (infra/fetch.sh, infra/README.md).
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';

const { values: opt } = parseArgs({
  options: {
    'mongo-url': { type: 'string', default: process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017/' },
    pid: { type: 'string' },
    postgres: { type: 'boolean', default: false },
    cycles: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '1' },
  },
});
const cycles = Number(opt.cycles);
const concurrency = Number(opt.concurrency);
for (const [name, v] of [
  ['cycles', cycles],
  ['concurrency', concurrency],
  ['rounds', Number(opt.rounds)],
]) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
}

const TICK_MS = 10; // USER_HZ is 100 on Linux
function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
function postgresTicks() {
  let sum = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres') sum += cpuTicks(d);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return sum;
}

const now = () => new Date().toISOString();
function payout(id) {
  const party = (tipo, valor, banco, identificacion, nombre) => ({ tipo, valor, banco, identificacion, nombre });
  return {
    _id: id,
    merchantId: 'mer_3f6c2a9e0b1d4c7f8a5e',
    mode: 'test',
    idempotencyKey: `key-${id}`,
    fingerprint: 'f'.repeat(64),
    request: {
      kind: 'pagar',
      body: {
        idempotency_key: `key-${id}`,
        monto: { valor: 125.5, moneda: 'VES' },
        concepto: 'Pago a proveedor, factura 1234',
        ordenante: party('cuenta', '01910000000000000000', '0191', 'J123456789', 'Comercio de Prueba C.A.'),
        beneficiario: party('telefono', '04141234567', '0102', 'V87654321', 'Juan Pérez'),
        via: 'pago_movil',
      },
    },
    relatedId: null,
    kind: 'pagar',
    estado: 'PENDIENTE',
    bancoUsado: 'bnc',
    rail: 'pago_movil',
    referenciaBanco: null,
    endtoend: null,
    motivoRechazo: null,
    raw: null,
    attempts: [{ n: 1, banco: 'bnc', rail: 'pago_movil', dispatchedAt: now(), dispatchVersion: 1 }],
    history: [{ from: null, to: 'PENDIENTE', at: now(), cause: 'created', version: 1, motivo: null, raw: null }],
    version: 1,
    statusQuery: null,
    statusChecks: 0,
    nextCheckAt: null,
    announcedVersion: 0,
    createdAt: now(),
    updatedAt: now(),
    replyTo: ['gateway-1'],
    writtenBy: 'router',
    _due: false,
    _unannounced: true,
    _rev: 0,
  };
}

async function cycle(collection, n) {
  const id = `tx_${n}_${Math.random().toString(36).slice(2)}`;
  await collection.insertOne(payout(id));
  await collection.findOne({ _id: id });
  const settled = await collection.updateOne(
    { _id: id, _rev: 0 },
    {
      $set: {
        estado: 'LIQUIDADA',
        referenciaBanco: '004512345678',
        raw: { codigo: '00', descripcion: 'Aprobada', simulated: true },
        version: 2,
        updatedAt: now(),
        _rev: 1,
      },
      $push: { history: { from: 'PENDIENTE', to: 'LIQUIDADA', at: now(), cause: 'bank', version: 2, motivo: null, raw: null } },
    },
  );
  const announced = await collection.updateOne({ _id: id, _rev: 1 }, { $set: { _unannounced: false, announcedVersion: 2, _rev: 2 } });
  if (settled.modifiedCount !== 1 || announced.modifiedCount !== 1) throw new Error(`compare-and-set of ${id} did not apply`);
}

const client = await MongoClient.connect(opt['mongo-url'], { maxPoolSize: concurrency });
try {
  for (let round = 1; round <= Number(opt.rounds); round++) {
    const db = client.db(`store_cycles_${Date.now()}`);
    const collection = db.collection('transactions');
    await collection.createIndexes([
      { key: { estado: 1, createdAt: 1 } },
      { key: { _due: 1, nextCheckAt: 1, _id: 1 } },
      { key: { _unannounced: 1, updatedAt: 1 } },
      { key: { merchantId: 1, mode: 1, createdAt: -1 } },
    ]);
    for (let i = 0; i < 200; i++) await cycle(collection, -1 - i); // warm the server's caches and JIT-free paths
    const before = { server: opt.pid ? cpuTicks(opt.pid) : 0, postgres: opt.postgres ? postgresTicks() : 0, at: performance.now() };
    let next = 0;
    const worker = async () => {
      while (next < cycles) await cycle(collection, next++);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - before.at) / 1000;
    const perCycle = (ticks) => Number(((ticks * TICK_MS) / cycles).toFixed(3));
    const figures = { round, cycles, concurrency, cycles_per_s: Math.round(cycles / seconds) };
    if (opt.pid) figures.server_cpu_ms_per_cycle = perCycle(cpuTicks(opt.pid) - before.server);
    if (opt.postgres) figures.postgres_cpu_ms_per_cycle = perCycle(postgresTicks() - before.postgres);
    console.log(JSON.stringify(figures));
    await db.dropDatabase();
  }
} finally {
  await client.close();
}
