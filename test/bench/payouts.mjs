#!/usr/bin/env node
// Benchmark (not a test): simulated pago móvil payouts through the gateway process, many concurrent
// clients, for the embedded switch and for separate processes on Kafka + MongoDB, beside a baseline
// HTTP server in the same run. Prints throughput and p50/p95/p99 end-to-end latency.
//
//   npm run build && node test/bench/payouts.mjs [--requests 2000] [--concurrency 32] [--kafka-requests 100] [--kafka-concurrency 8] [--modes baseline,embedded,kafka]
// The kafka mode needs KAFKA_BROKERS, SCHEMA_REGISTRY_URL and MONGO_URL (e.g. `. .cache/infra.env`).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus, totalmem } from 'node:os';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .map((a, i, all) => (a.startsWith('--') ? [a.slice(2), all[i + 1]] : null))
    .filter(Boolean),
);
const REQUESTS = Number(args.requests ?? 2000);
const CONCURRENCY = Number(args.concurrency ?? 32);
const WARMUP = Math.min(200, Math.floor(REQUESTS / 10));
// The Kafka + FerretDB stack is far slower here (docs/benchmarks.md): its own, smaller load by default.
const KAFKA_REQUESTS = Number(args['kafka-requests'] ?? Math.min(REQUESTS, 100));
const KAFKA_CONCURRENCY = Number(args['kafka-concurrency'] ?? Math.min(CONCURRENCY, 8));
const MODES = (args.modes ?? 'baseline,embedded,kafka').split(',');
const ADMIN = `bench-admin-${randomUUID()}`;

const ordenante = { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Comercio Bench' };
const beneficiario = { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };
const payout = () =>
  JSON.stringify({ idempotency_key: randomUUID(), monto: { valor: 10.5 }, concepto: 'bench', ordenante, beneficiario, via: 'pago_movil' });

function spawnService(entry, env) {
  const child = spawn(process.execPath, [resolve(REPO, entry)], {
    cwd: REPO,
    env: { ...process.env, LOG_LEVEL: 'error', SWITCH_LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return { child, output: () => out };
}

async function waitFor(url, check = (r) => r.ok, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (check(r)) return r;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timeout waiting for ${url}`);
}

async function drive(url, headers, label, requests = REQUESTS, concurrency = CONCURRENCY) {
  const latencies = [];
  let next = 0;
  let errors = 0;
  const states = {};
  const one = async (record) => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payout() });
    const body = await res.json().catch(() => ({}));
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (!record) return;
    if (res.status !== 200) errors++;
    states[body.estado ?? res.status] = (states[body.estado ?? res.status] ?? 0) + 1;
    latencies.push(ms);
  };
  const warmup = Math.min(WARMUP, Math.ceil(requests / 10));
  for (let i = 0; i < warmup; i++) await one(false);
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        await one(true);
      }
    }),
  );
  const seconds = (Date.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  return {
    label,
    requests: latencies.length,
    clients: concurrency,
    seconds: seconds.toFixed(1),
    throughput: (latencies.length / seconds).toFixed(0),
    p50: p(0.5),
    p95: p(0.95),
    p99: p(0.99),
    errors,
    states: JSON.stringify(states),
    warmup,
  };
}

/** Samples of a Prometheus text exposition: [{ name, labels, value }]. */
async function scrape(url) {
  const text = await (await fetch(url)).text();
  const samples = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}
const sampleValue = (samples, name) => samples.find((s) => s.name === name)?.value ?? NaN;
const cpuSeconds = async (url) => sampleValue(await scrape(url), 'process_cpu_seconds_total');

/**
 * CPU per service from process_cpu_seconds_total: cores used at rest (5 s, nothing sent) and while
 * the load ran, and the CPU each payout cost on top of rest. Kubernetes requests are sized from these.
 */
async function measureCpu(services, work) {
  const sample = () => Promise.all(services.map((s) => cpuSeconds(s.metrics)));
  const rest0 = await sample();
  const restStart = Date.now();
  await new Promise((r) => setTimeout(r, 5_000)); // a measurement window, not synchronisation
  const rest1 = await sample();
  const restWall = (Date.now() - restStart) / 1000;
  const t0 = Date.now();
  const result = await work();
  const wall = (Date.now() - t0) / 1000;
  const after = await sample();
  const rss = await Promise.all(services.map(async (s) => sampleValue(await scrape(s.metrics), 'process_resident_memory_bytes') / 2 ** 20));
  result.cpu = services
    .map((s, i) => {
      const idle = (rest1[i] - rest0[i]) / restWall;
      const busy = (after[i] - rest1[i]) / wall;
      const perPayout = ((busy - idle) * wall * 1000) / (result.requests + result.warmup);
      return `${s.name} ${idle.toFixed(2)}→${busy.toFixed(2)} cores (${perPayout.toFixed(1)} ms/payout), RSS ${rss[i].toFixed(0)} MiB`;
    })
    .join(', ');
  return result;
}

/** Where the store's time went: the database commands with the largest total time, per service. */
async function storeProfile(services) {
  const rows = [];
  for (const s of services) {
    const samples = await scrape(s.metrics);
    const sums = samples.filter((x) => x.name === 'switch_store_command_duration_seconds_sum');
    for (const sum of sums) {
      const { collection, command } = sum.labels;
      const count =
        samples.find(
          (x) =>
            x.name === 'switch_store_command_duration_seconds_count' &&
            x.labels.collection === collection &&
            x.labels.command === command &&
            x.labels.outcome === sum.labels.outcome,
        )?.value ?? 0;
      rows.push({
        service: s.name,
        collection,
        command,
        calls: count,
        'total s': sum.value.toFixed(2),
        'mean ms': count ? ((sum.value / count) * 1000).toFixed(1) : '-',
      });
    }
  }
  return rows.sort((a, b) => Number(b['total s']) - Number(a['total s'])).slice(0, 12);
}

async function baseline() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"estado":"LIQUIDADA"}'));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await drive(`http://127.0.0.1:${server.address().port}/switch/v1/pagar`, {}, 'baseline: bare Node HTTP server, same client');
  } finally {
    server.close();
  }
}

async function embedded() {
  const port = 39000 + Math.floor(Math.random() * 499);
  const operatorPort = port + 500; // metrics and probes are on the operator port
  const svc = spawnService('services/embedded/dist/main.js', {
    PORT: String(port),
    OPERATOR_PORT: String(operatorPort),
    SWITCH_ADMIN_TOKEN: ADMIN,
    SWITCH_STATE_DIR: resolve(REPO, '.cache/bench-state'),
    SWITCH_RATE_LIMIT_PER_MINUTE: '10000000',
  });
  try {
    await waitFor(`http://127.0.0.1:${operatorPort}/healthz`);
    const key = /x-switch-key:\s+(\S+)/.exec(svc.output())[1];
    const services = [{ name: 'embedded', metrics: `http://127.0.0.1:${operatorPort}/metrics` }];
    return await measureCpu(services, () =>
      drive(`http://127.0.0.1:${port}/switch/v1/pagar`, { 'x-switch-key': key }, 'embedded: all services in one process, memory bus/store'),
    );
  } finally {
    svc.child.kill('SIGTERM');
  }
}

async function kafka() {
  for (const v of ['KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'MONGO_URL'])
    if (!process.env[v]) throw new Error(`kafka mode needs ${v} (source .cache/infra.env)`);
  const database = `bench_${Date.now()}`;
  const common = { MONGO_DATABASE: database, SWITCH_KAFKA_NAMESPACE: database, SWITCH_BUS: 'kafka', SWITCH_STORE: 'mongo' };
  const base = 39500 + Math.floor(Math.random() * 400);
  const operator = base + 5; // the gateway's operator port: /readyz, /metrics, /admin/v1
  // Every settled payout is announced to a webhook receiver here, so the notifier does its real work.
  let delivered = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const procs = [
    spawnService('services/router/dist/main.js', { ...common, HEALTH_PORT: String(base + 1) }),
    spawnService('services/bank-sim/dist/main.js', { ...common, HEALTH_PORT: String(base + 2) }),
    spawnService('services/notifier/dist/main.js', { ...common, HEALTH_PORT: String(base + 3) }),
    spawnService('services/reconciler/dist/main.js', { ...common, HEALTH_PORT: String(base + 4) }),
    spawnService('services/gateway/dist/main.js', {
      ...common,
      PORT: String(base),
      OPERATOR_PORT: String(operator),
      SWITCH_ADMIN_TOKEN: ADMIN,
      SWITCH_RATE_LIMIT_PER_MINUTE: '10000000',
      SWITCH_LOG_REQUESTS: 'false',
    }),
  ];
  try {
    try {
      for (const port of [base + 1, base + 2, base + 3, base + 4, operator]) await waitFor(`http://127.0.0.1:${port}/readyz`);
    } catch (e) {
      throw new Error(`${e.message}\n${procs.map((p) => p.output().slice(-800)).join('\n---\n')}`);
    }
    const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    await fetch(`http://127.0.0.1:${operator}/admin/v1/merchants`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ id: 'bench', nombre: 'Bench' }),
    });
    console.error('kafka mode: services ready');
    const key = (
      await (
        await fetch(`http://127.0.0.1:${operator}/admin/v1/merchants/bench/keys`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ mode: 'test' }),
        })
      ).json()
    ).x_switch_key;
    const hook = { mode: 'test', url: `http://127.0.0.1:${receiver.address().port}/hook`, events: ['transaccion.liquidada'] };
    await fetch(`http://127.0.0.1:${operator}/admin/v1/merchants/bench/webhooks`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(hook),
    });
    const services = [
      { name: 'gateway', metrics: `http://127.0.0.1:${operator}/metrics` },
      { name: 'router', metrics: `http://127.0.0.1:${base + 1}/metrics` },
      { name: 'bank-sim', metrics: `http://127.0.0.1:${base + 2}/metrics` },
      { name: 'notifier', metrics: `http://127.0.0.1:${base + 3}/metrics` },
      { name: 'reconciler', metrics: `http://127.0.0.1:${base + 4}/metrics` },
    ];
    const result = await measureCpu(services, async () => {
      const r = await drive(
        `http://127.0.0.1:${base}/switch/v1/pagar`,
        { 'x-switch-key': key },
        'kafka+mongo: 5 processes (gateway, router, bank-sim, notifier, reconciler)',
        KAFKA_REQUESTS,
        KAFKA_CONCURRENCY,
      );
      // The load ends when every settled payout's webhook has arrived (bounded: a benchmark, not a test).
      const expected = r.requests + r.warmup;
      const deadline = Date.now() + 120_000;
      while (delivered < expected && Date.now() < deadline) await new Promise((res) => setTimeout(res, 100));
      r.webhooks = `${delivered}/${expected}`;
      return r;
    });
    storeRows.push(...(await storeProfile(services)));
    return result;
  } finally {
    for (const p of procs) p.child.kill('SIGTERM');
    receiver.close();
  }
}

const runners = { baseline, embedded, kafka };
console.log(
  `machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`,
);
console.log(
  `load: ${REQUESTS} pago_movil payouts (kafka mode: ${KAFKA_REQUESTS}) after a warm-up, ${CONCURRENCY} concurrent clients (kafka mode: ${KAFKA_CONCURRENCY}), each a new idempotency_key\n`,
);
const rows = [];
const storeRows = [];
for (const mode of MODES) {
  try {
    rows.push(await runners[mode]());
  } catch (e) {
    rows.push({ label: `${mode}: failed (${e.message}${e.cause ? `: ${e.cause.message ?? e.cause}` : ''})` });
    console.error(e.stack);
  }
}
console.table(rows);
if (storeRows.length > 0) {
  console.log('\nkafka mode, store commands by total time (switch_store_command_duration_seconds):');
  console.table(storeRows);
}
