#!/usr/bin/env node
// `npm run bench`: simulated pago móvil payouts through the gateway, for the embedded switch and for the
// full Kafka stack (every service its own process, FerretDB on PostgreSQL), in one run, beside a bare
// HTTP server that shows the load generator is not the limit. See docs/benchmarks.md.
//
//   npm run bench -- [--quick] [--json FILE] [--modes baseline,embedded,kafka,kafka_100k] [--cpu-prof]
//                    [--embedded-rate 1000] [--kafka-rate 150] [--fixed-seconds 20] [--saturation-seconds 12]
//                    [--concurrency 64] [--seed 100000] [--seed-seconds 300] [--seed-via postgresql|mongo]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve, relative } from 'node:path';
import { cpus, totalmem, loadavg, release } from 'node:os';
import { REPO } from '../../infra/stack/infra.mjs';
import { startStack } from '../../infra/stack/stack.mjs';
import { freePort } from '../../infra/stack/processes.mjs';
import { runLoad } from './load.mjs';
import { cpuMs, jitCpuMs, loopBusyByQuarterSecond, rssMiB, scrape, total, percentile, round } from './measure.mjs';
import { seedSettled } from './seed.mjs';
import { summariseProfiles } from './profiles.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[i + 1] : fallback;
};
const number = (name, fallback) => {
  const v = Number(option(name, fallback));
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number, not ${option(name)}`);
  return v;
};
const QUICK = flag('quick');
const MODES = option('modes', 'baseline,embedded,kafka,kafka_100k').split(',');
for (const m of MODES)
  if (!['baseline', 'embedded', 'kafka', 'kafka_100k'].includes(m))
    throw new Error(`unknown mode ${m} (baseline, embedded, kafka, kafka_100k)`);
const CFG = {
  embeddedRate: number('embedded-rate', 1000),
  kafkaRate: number('kafka-rate', 150),
  fixedSeconds: number('fixed-seconds', QUICK ? 8 : 15),
  saturationSeconds: number('saturation-seconds', QUICK ? 6 : 10),
  // Closed-loop load before anything is measured: the services' and the brokers' JIT compilers settle
  // (a fresh stack measured cold settled 30 % fewer payouts/s than the same stack a minute later).
  warmupSeconds: number('warmup-seconds', QUICK ? 5 : 10),
  baselineSeconds: number('baseline-seconds', QUICK ? 3 : 5),
  concurrency: number('concurrency', 64),
  seed: number('seed', 100_000),
  seedSeconds: number('seed-seconds', QUICK ? 120 : 300),
  // postgresql: SQL inside the stack's PostgreSQL (FerretDB's backend; seed.mjs); mongo: insertMany.
  seedVia: option('seed-via', 'postgresql'),
  drainSeconds: number('drain-seconds', 30),
  idleSeconds: number('idle-seconds', QUICK ? 5 : 10),
  timeoutSeconds: number('timeout-seconds', 30),
  cpuProf: flag('cpu-prof'),
  // Extra node/V8 flags for every switch process, without their leading dashes (the option parser
  // takes a value starting with `--` for the next option): `--node-flags max-semi-space-size=32,…`.
  nodeFlags: option('node-flags', '')
    .split(',')
    .filter(Boolean)
    .map((f) => `--${f}`),
  json: option('json'),
};
if (!['postgresql', 'mongo'].includes(CFG.seedVia)) throw new Error(`--seed-via must be postgresql or mongo, not ${CFG.seedVia}`);
const BENCH_DIR = resolve(REPO, '.cache/bench');
// One stamp for the run's directories (profiles, event-loop samples).
const RUN_STAMP = new Date().toISOString().replace(/[:.]/g, '-');
const PROFILE_DIR = resolve(BENCH_DIR, `profiles-${RUN_STAMP}`);
mkdirSync(BENCH_DIR, { recursive: true });
const serviceLog = createWriteStream(resolve(BENCH_DIR, 'services.log'));
const say = (line) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Its own infrastructure instance: never the shared one (9092, 27017) nor `npm run stack`'s. Below the
// kernel's ephemeral range (32768-60999): a port there can be taken by any outgoing connection between
// up.sh's check and Kafka's bind (it happened with 39092).
// `BENCH_PORT_BASE` (default 31000) moves them all, so two runs on one machine do not collide.
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 31000);
const INFRA_PORTS = {
  kafka: PORT_BASE + 92,
  controller: PORT_BASE + 93,
  registry: PORT_BASE + 81,
  mongo: PORT_BASE + 17,
  postgres: PORT_BASE + 432,
};
const HIGH_RATE_LIMIT = { SWITCH_RATE_LIMIT_PER_MINUTE: '10000000', SWITCH_LOG_REQUESTS: 'false', LOG_LEVEL: 'error' };
// `node --cpu-prof` (NODE_OPTIONS refuses it): each process writes its V8 profile when it exits.
const profileArgs = CFG.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
// Every switch process's event loop is watched (test/bench/loop-watch.cjs): busy or blocked, per quarter second.
const LOOP_DIR = resolve(BENCH_DIR, `loops-${RUN_STAMP}`);
mkdirSync(LOOP_DIR, { recursive: true });
const nodeArgs = [...profileArgs, ...CFG.nodeFlags, '--require', resolve(REPO, 'test/bench/loop-watch.cjs')];
const WATCH_ENV = { BENCH_LOOP_WATCH_DIR: LOOP_DIR };
/** pid → process name, written beside the profiles (their file names carry the pid). */
const profiled = {};

// --- the merchant's webhook receiver: every delivery counted, the first of each payout kept
async function startReceiver() {
  const first = new Map(); // txn id → { sentAt, receivedAt }
  let deliveries = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      deliveries++;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (!first.has(body.data?.id)) first.set(body.data.id, { sentAt: Date.parse(body.sentAt), receivedAt: Date.now() });
      } catch {
        // not a delivery of ours
      }
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    first,
    deliveries: () => deliveries,
    close: () => new Promise((r) => server.close(r)),
  };
}

async function admin(adminUrl, token, path, body) {
  const r = await fetch(`${adminUrl}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${text}`);
  return JSON.parse(text);
}

/** The fixed phase's worst latency per quarter second, told as: typical, and the slots far above it. */
function stallSummary(worst) {
  if (worst.length === 0) return 'no requests';
  const { typical, far, slots } = stallsOf(worst);
  const stalls = slots.map((slot) => `${(slot / 4).toFixed(2)} s: ${worst[slot]} ms`);
  return `worst latency per quarter second: median ${typical} ms; ${stalls.length} of ${worst.length} above ${far} ms${stalls.length ? ` (${stalls.slice(0, 8).join(', ')})` : ''}`;
}

/** The quarter seconds whose worst latency is far above the median's. */
function stallsOf(worst) {
  const typical = percentile(
    [...worst].sort((a, b) => a - b),
    0.5,
  );
  const far = Math.max(20, 3 * typical);
  return { typical, far, slots: worst.flatMap((ms, slot) => (ms > far ? [slot] : [])) };
}

/**
 * How busy each watched process's event loop was in the fixed phase: on average, and in the stalls
 * (the busiest process of each). A loop at 100 % in a stall is a saturated process; all loops well
 * below it, a stall outside them (a blocked call would show as one late sample at 100 %).
 */
function loopSummary(loops, worst) {
  const names = Object.keys(loops);
  if (names.length === 0) return 'no event-loop samples';
  const mean = (xs) => {
    const known = xs.filter((x) => x !== null);
    return known.length ? known.reduce((a, x) => a + x, 0) / known.length : 0;
  };
  const busiest = names
    .map((n) => [n, mean(loops[n])])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([n, m]) => `${n} ${Math.round(100 * m)} %`);
  const inStalls = stallsOf(worst)
    .slots.slice(0, 8)
    .map((slot) => {
      // The requests due in a stall's quarter second wait into the next one: the busier of the two.
      const busyAround = (name) => Math.max(loops[name][slot] ?? 0, loops[name][slot + 1] ?? 0);
      const [n, b] = names.map((name) => [name, busyAround(name)]).sort((a, b2) => b2[1] - a[1])[0];
      return `${(slot / 4).toFixed(2)} s: ${n} ${Math.round(100 * b)} %`;
    });
  return `event loops busy at the fixed rate: ${busiest.join(', ')}${inStalls.length ? `; in the stalls: ${inStalls.join(', ')}` : ''}`;
}

/** How many connections the generator opened and lost in the fixed phase after its first second (not its own close at the end). */
function connectionSummary(load) {
  const sum = (slots) => slots.slice(4).reduce((a, n) => a + n, 0);
  return `connections opened after the first second: ${sum(load.connections_opened_by_quarter_second)}, closed by the server or lost: ${sum(load.connections_closed_by_quarter_second)}`;
}

/** Waits (bounded: a benchmark, not a test) until every answered payout's webhook has arrived. */
async function drain(receiver, ids, seconds = CFG.drainSeconds) {
  const t0 = Date.now();
  const missing = () => ids.filter(([id]) => !receiver.first.has(id)).length;
  while (missing() > 0 && Date.now() - t0 < seconds * 1000) await sleep(250);
  return { missing: missing(), waited_s: round((Date.now() - t0) / 1000) };
}

const latencyFigures = (load) => ({
  p50_ms: round(percentile(load.latencies, 0.5), 2),
  p95_ms: round(percentile(load.latencies, 0.95), 2),
  p99_ms: round(percentile(load.latencies, 0.99), 2),
  max_ms: round(load.latencies.at(-1) ?? null, 2),
});

/** CPU ms per process (and groups such as PostgreSQL with its backends). */
const cpuSnapshot = (procs) => Object.fromEntries(procs.map((p) => [p.name, cpuMs(p.pid, { withChildren: p.withChildren })]));
// The JVMs' (Kafka, Apicurio) JIT compiler threads: part of their CPU above, a warm-up cost.
const jitSnapshot = (procs) => Object.fromEntries(procs.filter((p) => p.jvm).map((p) => [p.name, jitCpuMs(p.pid)]));

/** Prometheus samples of every switch service, summed per service. */
async function switchCounters(services) {
  const out = {};
  for (const s of services) {
    const samples = await scrape(s.metrics).catch(() => []);
    const storeAll = total(samples, 'switch_store_commands_total');
    const storeWrites = total(samples, 'switch_store_commands_total', (l) => WRITE_COMMANDS.has(l.command));
    const byCommand = {};
    for (const x of samples.filter((x) => x.name === 'switch_store_commands_total'))
      byCommand[`${x.labels.collection}.${x.labels.command}`] = x.value;
    const settled = total(samples, 'switch_operations_finished_total', (l) => l.estado === 'LIQUIDADA');
    out[s.name] = { store: storeAll, storeWrites, published: total(samples, 'switch_bus_published_total'), settled, byCommand };
  }
  return out;
}
/** Sum over services of one counter's increase. */
const storeTotal = (after, before, key) => Object.keys(after).reduce((sum, n) => sum + after[n][key] - (before[n]?.[key] ?? 0), 0);
const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify', 'bulkWrite']);

/** Waits (up to --drain-seconds) until no payout has settled for 6 s. */
async function quiesce(services) {
  const t0 = Date.now();
  const settled = async () => storeTotal(await switchCounters(services), {}, 'settled');
  const first = await settled();
  let last = first;
  let still = 0;
  while (still < 3 && Date.now() - t0 < CFG.drainSeconds * 1000) {
    await sleep(2000);
    const now = await settled();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return { seconds: round((Date.now() - t0) / 1000, 0), settled: last - first };
}

/** `--concurrency` payouts in flight for `seconds` (closed loop): the saturation phase, and the warm-up's second part. */
function closedLoop(origin, headers, timeoutMs, seconds) {
  return runLoad({
    origin,
    path: '/switch/v1/pagar',
    headers,
    mode: 'closed',
    concurrency: CFG.concurrency,
    connections: CFG.concurrency,
    durationMs: seconds * 1000,
    keepIds: true,
    timeoutMs,
  });
}

function saturate(label, origin, headers, timeoutMs) {
  say(`${label}: saturation, ${CFG.concurrency} in flight for ${CFG.saturationSeconds} s`);
  return closedLoop(origin, headers, timeoutMs, CFG.saturationSeconds);
}

function perPayout(before, after, payouts) {
  const rows = {};
  let store = 0;
  let writes = 0;
  let published = 0;
  const commands = {};
  for (const name of Object.keys(after)) {
    const d = (k) => after[name][k] - (before[name]?.[k] ?? 0);
    rows[name] = { store: round(d('store') / payouts, 2), published: round(d('published') / payouts, 2) };
    store += d('store');
    writes += d('storeWrites');
    published += d('published');
    for (const [k, v] of Object.entries(after[name].byCommand)) {
      const delta = v - (before[name]?.byCommand[k] ?? 0);
      if (delta > 0) commands[k] = (commands[k] ?? 0) + delta;
    }
  }
  const topCommands = Object.entries(commands)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([k, v]) => [k, round(v / payouts, 2)]);
  return {
    store_calls_per_payout: round(store / payouts, 2),
    store_writes_per_payout: round(writes / payouts, 2),
    kafka_messages_per_payout: round(published / payouts, 2),
    per_service: rows,
    store_commands_per_payout: Object.fromEntries(topCommands),
  };
}

/**
 * The measured phases of one mode, on a running switch:
 *   1. saturation (closed loop, `concurrency` in flight) → throughput; it goes first because a closed
 *      loop cannot leave a backlog behind, while a fixed rate above capacity would leave the switch
 *      busy with thousands of orphaned requests for whatever is measured next;
 *   2. fixed rate (open loop) → latency; CPU, store and Kafka counters over the phase and until every
 *      webhook of it has arrived; webhook delay.
 * Per-payout figures are divided by the payouts the switch settled in the window (the router's
 * `switch_operations_finished_total{estado="LIQUIDADA"}`): requests that timed out at the client still
 * cost the switch its work, and that work belongs to the payouts it settled.
 */
async function measureMode({ label, url, key, rate, procs, services, storeMetrics, receiver, stateChangedAt }) {
  const headers = { 'x-switch-key': key };
  const origin = new URL(url).origin;
  const timeoutMs = CFG.timeoutSeconds * 1000;
  const path = '/switch/v1/pagar';
  say(`${label}: warm-up, ${Math.min(rate, 50)}/s for 3 s, then ${CFG.concurrency} in flight for ${CFG.warmupSeconds} s`);
  const warm = await runLoad({ origin, path, headers, mode: 'open', rate: Math.min(rate, 50), durationMs: 3000, keepIds: true, timeoutMs });
  await drain(receiver, warm.ids);
  const hot = await closedLoop(origin, headers, timeoutMs, CFG.warmupSeconds);
  await drain(receiver, hot.ids);

  // The same counters over the saturation phase: there every request is answered, so its cost per
  // payout is not blurred by requests a fixed rate above capacity left unanswered.
  const satCpu0 = cpuSnapshot(procs);
  const satCounters0 = await switchCounters(services);
  const sat = await saturate(label, origin, headers, timeoutMs);
  const satDrained = await drain(receiver, sat.ids);
  const satCpu1 = cpuSnapshot(procs);
  const satCounters1 = await switchCounters(services);
  const satSettled = storeTotal(satCounters1, satCounters0, 'settled') || sat.ok;
  const satCpuMs = Object.fromEntries(procs.map((p) => [p.name, round(satCpu1[p.name] - satCpu0[p.name], 0)]));
  // Nothing settled: no per-payout figure, only where the CPU went.
  const satCost = !satSettled
    ? { settled: 0, cpu_ms_by_process: satCpuMs }
    : {
        settled: satSettled,
        cpu_ms_per_payout: round(
          procs.filter((p) => p.kind === 'switch').reduce((x, p) => x + satCpu1[p.name] - satCpu0[p.name], 0) / satSettled,
          2,
        ),
        cpu_ms_per_payout_by_process: Object.fromEntries(
          procs.map((p) => [p.name, round((satCpu1[p.name] - satCpu0[p.name]) / satSettled, 2)]),
        ),
        ...(storeMetrics ? perPayout(satCounters0, satCounters1, satSettled) : {}),
      };

  say(`${label}: fixed rate ${rate}/s for ${CFG.fixedSeconds} s`);
  const cpu0 = cpuSnapshot(procs);
  const jit0 = jitSnapshot(procs);
  const counters0 = await switchCounters(services);
  const t0 = Date.now();
  const fixed = await runLoad({ origin, path, headers, mode: 'open', rate, durationMs: CFG.fixedSeconds * 1000, keepIds: true, timeoutMs });
  say(`${label}: ${stallSummary(fixed.worst_by_quarter_second_ms)}`);
  say(`${label}: ${connectionSummary(fixed)}`);
  const drained = await drain(receiver, fixed.ids);
  const wall = (Date.now() - t0) / 1000;
  const cpu1 = cpuSnapshot(procs);
  const jit1 = jitSnapshot(procs);
  const counters1 = await switchCounters(services);
  const settled = storeTotal(counters1, counters0, 'settled');
  const payouts = settled || fixed.ok || fixed.sent;
  const cpu = {};
  for (const p of procs) cpu[p.name] = round((cpu1[p.name] - cpu0[p.name]) / payouts, 2);
  const switchCpu = procs.filter((p) => p.kind === 'switch').reduce((s, p) => s + (cpu1[p.name] - cpu0[p.name]), 0);
  const rss = Object.fromEntries(procs.map((p) => [p.name, round(rssMiB(p.pid, { withChildren: p.withChildren }), 0)]));
  // Requests that timed out at the client are still being worked on: let the switch finish them
  // (the settled count stops moving), so the next phase or mode starts from a quiet switch.
  const quiet = await quiesce(services);
  // Idle: the quiet switch, its loops still running (relay, reconciler, notifier poll, Kafka
  // heartbeats and fetches): what it costs doing nothing, in % of one core.
  const idle0 = cpuSnapshot(procs);
  const idleT0 = Date.now();
  await sleep(CFG.idleSeconds * 1000);
  const idle1 = cpuSnapshot(procs);
  const idleMs = Date.now() - idleT0;
  const idlePercent = (name) => round((100 * (idle1[name] - idle0[name])) / idleMs, 1);
  // Read after the idle phase: every process has flushed its samples of the fixed phase by then.
  const loops = {};
  for (const p of procs) {
    const busy = loopBusyByQuarterSecond(LOOP_DIR, p.pid, fixed.started_at_ms, fixed.worst_by_quarter_second_ms.length);
    if (busy) loops[p.name] = busy;
  }
  say(`${label}: ${loopSummary(loops, fixed.worst_by_quarter_second_ms)}`);
  const delays = (await stateChangedAt(fixed.ids))
    .map(([id, changedAt]) => (receiver.first.get(id)?.sentAt ?? Number.NaN) - changedAt)
    .filter((d) => Number.isFinite(d))
    .sort((a, b) => a - b);
  return {
    throughput_rps: round(sat.ok / sat.sendSeconds, 0),
    saturation: {
      concurrency: CFG.concurrency,
      seconds: round(sat.sendSeconds),
      ok: sat.ok,
      errors: sat.errors,
      statuses: sat.statuses,
      ...latencyFigures(sat),
      webhooks_missing_after_drain: satDrained.missing,
      webhooks_drain_s: satDrained.waited_s,
      cost: satCost,
    },
    fixed_rate_rps: rate,
    fixed_seconds: CFG.fixedSeconds,
    answered_rps: round(fixed.answered / fixed.seconds, 0),
    sent: fixed.sent,
    ok: fixed.ok,
    errors: fixed.errors,
    statuses: fixed.statuses,
    ...latencyFigures(fixed),
    generator_behind_max_ms: round(fixed.behind_ms, 1),
    // Is a bad p99 a slow server (many bad quarter seconds) or one stall (a few)? docs/benchmarks.md
    fixed_worst_by_quarter_second_ms: fixed.worst_by_quarter_second_ms,
    fixed_started_at_ms: fixed.started_at_ms,
    // Each switch process's event-loop utilisation (0..1) per quarter second of the fixed phase.
    fixed_event_loop_busy_by_quarter_second: loops,
    fixed_connections_opened_by_quarter_second: fixed.connections_opened_by_quarter_second,
    fixed_connections_closed_by_quarter_second: fixed.connections_closed_by_quarter_second,
    settled_in_window: settled,
    per_payout_basis: settled ? 'payouts settled in the window' : fixed.ok ? 'payouts answered 200' : 'requests sent',
    cpu_ms_per_payout: round(switchCpu / payouts, 2),
    cpu_ms_per_payout_by_process: cpu,
    // Of which the JVMs' JIT compiler threads (included in the figures above).
    ...(Object.keys(jit0).length
      ? { jit_cpu_ms_per_payout_by_process: Object.fromEntries(Object.keys(jit0).map((n) => [n, round((jit1[n] - jit0[n]) / payouts, 2)])) }
      : {}),
    cpu_window_s: round(wall, 1),
    backlog_settled_after_s: quiet.seconds,
    backlog_settled_after_window: quiet.settled,
    rss_mib: rss,
    idle_cpu_percent: round(
      procs.filter((p) => p.kind === 'switch').reduce((sum, p) => sum + idlePercent(p.name), 0),
      1,
    ),
    idle_cpu_percent_by_process: Object.fromEntries(procs.map((p) => [p.name, idlePercent(p.name)])),
    webhooks: {
      expected: fixed.ok,
      delivered: fixed.ids.filter(([id]) => receiver.first.has(id)).length,
      missing_after_drain: drained.missing,
      drain_s: drained.waited_s,
      first_attempt_delay_p50_ms: round(percentile(delays, 0.5), 1),
      first_attempt_delay_p99_ms: round(percentile(delays, 0.99), 1),
      first_attempt_delay_max_ms: round(delays.at(-1) ?? null, 1),
      receiver_deliveries_total: receiver.deliveries(),
    },
    ...(storeMetrics ? perPayout(counters0, counters1, payouts) : {}),
    ...(storeMetrics ? { store_calls_per_s: round(storeTotal(counters1, counters0, 'store') / wall, 0) } : {}),
  };
}

// --- baseline: a bare Node HTTP server in its own process, driven by the same generator
async function baseline() {
  const code = `
    const s = require('node:http').createServer((req, res) => { req.resume(); req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"txn_bare","estado":"LIQUIDADA"}')); });
    s.keepAliveTimeout = 60000;
    s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\\n'));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise((r) => child.stdout.once('data', (d) => r(Number(String(d).trim()))));
    const origin = `http://127.0.0.1:${port}`;
    say(`baseline: bare HTTP server, ${CFG.concurrency} in flight for ${CFG.baselineSeconds} s`);
    const sat = await runLoad({
      origin,
      path: '/x',
      mode: 'closed',
      concurrency: CFG.concurrency,
      connections: CFG.concurrency,
      durationMs: CFG.baselineSeconds * 1000,
    });
    const result = {
      throughput_rps: round(sat.ok / sat.sendSeconds, 0),
      errors: sat.errors,
      generator_ok: sat.ok / sat.sendSeconds >= 10_000,
    };
    for (const rate of [CFG.embeddedRate, CFG.kafkaRate]) {
      say(`baseline: fixed rate ${rate}/s for ${CFG.baselineSeconds} s`);
      const fixed = await runLoad({ origin, path: '/x', mode: 'open', rate, durationMs: CFG.baselineSeconds * 1000 });
      result[`fixed_${rate}`] = { ...latencyFigures(fixed), errors: fixed.errors, generator_behind_max_ms: round(fixed.behind_ms, 1) };
    }
    if (!result.generator_ok) say(`WARNING: the generator reached only ${result.throughput_rps} req/s against a bare server (< 10,000)`);
    return result;
  } finally {
    child.kill();
  }
}

// --- embedded: the whole switch in one process, memory bus and store
async function embedded() {
  const port = await freePort();
  const operatorPort = await freePort();
  const adminToken = `bench-${randomUUID()}`;
  const child = spawn(process.execPath, [...nodeArgs, 'services/embedded/dist/main.js'], {
    cwd: REPO,
    env: {
      ...process.env,
      ...HIGH_RATE_LIMIT,
      ...WATCH_ENV,
      PORT: String(port),
      OPERATOR_PORT: String(operatorPort),
      SWITCH_ADMIN_TOKEN: adminToken,
      SWITCH_STATE_DIR: resolve(BENCH_DIR, 'embedded-state'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  profiled[child.pid] = 'embedded';
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => serviceLog.write(d));
  const receiver = await startReceiver();
  try {
    const deadline = Date.now() + 60_000;
    while (!/x-switch-key:\s+(\S+)/.test(out)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the embedded switch did not start:\n${out.slice(-2000)}`);
      await sleep(100);
    }
    const key = /x-switch-key:\s+(\S+)/.exec(out)[1];
    // `npm start`'s demo merchant (services/embedded/src/seed.ts).
    await registerWebhook(`http://127.0.0.1:${operatorPort}`, adminToken, 'demo', receiver.url);
    // The in-memory store is out of reach, so the state change time is unknown: no delay figures.
    const stateChangedAt = async () => [];
    return await measureMode({
      label: 'embedded',
      url: `http://127.0.0.1:${port}`,
      key,
      rate: CFG.embeddedRate,
      procs: [{ name: 'embedded', pid: child.pid, kind: 'switch' }],
      services: [{ name: 'embedded', metrics: `http://127.0.0.1:${operatorPort}/metrics` }],
      storeMetrics: false,
      receiver,
      stateChangedAt,
    });
  } finally {
    // SIGTERM (a clean exit writes a --cpu-prof profile), SIGKILL if it is still busy after 15 s.
    const exited = new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(kill);
    await receiver.close();
  }
}

async function registerWebhook(adminUrl, token, merchant, url) {
  await admin(adminUrl, token, `/merchants/${merchant}/webhooks`, { mode: 'test', url, events: ['transaccion.liquidada'] });
}

// --- kafka: every service its own process on real Kafka, Apicurio and FerretDB on PostgreSQL
async function kafkaModes(which) {
  const database = `bench_${Date.now()}`;
  say(`kafka: starting the stack (infrastructure on ${Object.values(INFRA_PORTS).join('/')}, database ${database})`);
  const stack = await startStack({
    port: 0,
    stateDir: resolve(BENCH_DIR, 'stack'),
    infraPorts: INFRA_PORTS,
    database,
    merchant: 'bench',
    env: { ...HIGH_RATE_LIMIT, ...WATCH_ENV },
    nodeArgs,
    sink: { write: (line) => serviceLog.write(`${line}\n`), colour: false },
    log: (line) => say(`stack: ${line}`),
  });
  const receiver = await startReceiver();
  const results = {};
  try {
    await registerWebhook(stack.adminUrl, stack.adminToken, stack.merchant, receiver.url);
    const { MongoClient } = await import('mongodb');
    const mongo = await MongoClient.connect(stack.mongo.url);
    const db = mongo.db(database);
    const services = Object.keys(stack.services)
      .filter((n) => !n.startsWith('emu-'))
      .map((n) => ({ name: n, metrics: `${stack.healthUrls[n]}/metrics` }));
    const infraPid = (name) => Number(readPid(resolve(stack.stateDir, 'infra', 'infra-run', `${name}.pid`)));
    const procs = [
      ...Object.entries(stack.services).map(([name, s]) => ({ name, pid: s.pid, kind: name.startsWith('emu-') ? 'emulator' : 'switch' })),
      ...['kafka', 'apicurio', 'ferretdb'].map((name) => ({ name, pid: infraPid(name), kind: 'infra', jvm: name !== 'ferretdb' })),
      { name: 'postgres', pid: infraPid('postgres'), kind: 'infra', withChildren: true },
    ].filter((p) => p.pid > 0);
    for (const p of procs) if (p.kind !== 'infra') profiled[p.pid] = p.name;
    // When each payout entered LIQUIDADA, from its stored history.
    const stateChangedAt = async (ids) => {
      const out = [];
      for (let i = 0; i < ids.length; i += 32) {
        const heads = await Promise.all(
          ids.slice(i, i + 32).map(([id]) => db.collection('transactions').findOne({ _id: id }, { projection: { history: 1 } })),
        );
        for (const h of heads) {
          // JSON text since the store keeps whole-read fields as text (packages/platform/src/adapters/mongo/records.ts).
          const history = typeof h?.history === 'string' ? JSON.parse(h.history) : h?.history;
          const at = history?.find((e) => e.to === 'LIQUIDADA')?.at;
          if (at) out.push([h._id, Date.parse(at)]);
        }
      }
      return out;
    };
    const base = { url: stack.url, key: stack.key, rate: CFG.kafkaRate, procs, services, storeMetrics: true, receiver, stateChangedAt };
    try {
      if (which.includes('kafka')) {
        results.kafka = await attempt('kafka', () => measureMode({ ...base, label: 'kafka' }));
        report.modes.kafka = results.kafka;
        savePartial();
      }
      if (which.includes('kafka_100k'))
        results.kafka_100k = await attempt('kafka_100k', async () => {
          if (!results.kafka) {
            // The seed copies a payout settled through the API: without the kafka mode before, make a few.
            say('kafka_100k: a few payouts through the API for the seed to copy');
            const warm = await runLoad({
              origin: new URL(stack.url).origin,
              path: '/switch/v1/pagar',
              headers: { 'x-switch-key': stack.key },
              mode: 'open',
              rate: 5,
              durationMs: 2000,
              keepIds: true,
              timeoutMs: CFG.timeoutSeconds * 1000,
            });
            await drain(receiver, warm.ids);
            await sleep(1000); // the delivery's final write lands just after the receiver's answer
          }
          say(`kafka_100k: seeding ${CFG.seed} settled payouts`);
          const postgres = CFG.seedVia === 'postgresql' ? { port: INFRA_PORTS.postgres } : undefined;
          const seeded = await seedSettled(db, CFG.seed, { budgetSeconds: CFG.seedSeconds, say, postgres });
          return { seeded, ...(await measureMode({ ...base, label: 'kafka_100k' })) };
        });
    } finally {
      await mongo.close();
    }
    results.services = Object.keys(stack.services);
    return results;
  } finally {
    await receiver.close();
    say('kafka: stopping the stack');
    await stack.stop();
  }
}

function readPid(file) {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '0';
  }
}

// --- run
const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, node ${process.version}`;
const report = {
  machine,
  load_average_at_start: loadavg().map((x) => round(x, 2)),
  started_at: new Date().toISOString(),
  config: CFG,
  baseline: null,
  modes: {},
};
say(`machine: ${machine}; load average ${report.load_average_at_start.join(' ')}`);
const started = Date.now();
const failures = [];
const attempt = async (name, run) => {
  try {
    return await run();
  } catch (e) {
    failures.push(`${name}: ${e.stack ?? e}`);
    say(`${name} FAILED: ${e.stack ?? e}`);
    return { failed: String(e.message ?? e) };
  }
};
/** The report so far, after each mode: a run cut short still leaves its figures. */
const savePartial = () => CFG.json && writeFileSync(resolve(process.cwd(), CFG.json), `${JSON.stringify(report, null, 2)}\n`);
if (MODES.includes('baseline')) report.baseline = await attempt('baseline', baseline);
savePartial();
if (MODES.includes('embedded')) report.modes.embedded = await attempt('embedded', embedded);
savePartial();
const kafkaWanted = MODES.filter((m) => m.startsWith('kafka'));
if (kafkaWanted.length) {
  const r = await attempt('kafka', () => kafkaModes(kafkaWanted));
  if (r.failed) for (const m of kafkaWanted) report.modes[m] = r;
  else {
    for (const m of kafkaWanted) report.modes[m] = r[m];
    report.kafka_services = r.services;
  }
}
report.load_average_at_end = loadavg().map((x) => round(x, 2));
report.seconds = round((Date.now() - started) / 1000, 0);
if (CFG.cpuProf) {
  report.cpu_profiles = relative(REPO, PROFILE_DIR);
  mkdirSync(PROFILE_DIR, { recursive: true });
  writeFileSync(resolve(PROFILE_DIR, 'processes.json'), `${JSON.stringify(profiled, null, 2)}\n`);
  // Where each process spent its busy time (the whole run, start-up included), from its own profile.
  try {
    report.cpu_profile_summary = summariseProfiles(PROFILE_DIR, profiled, 8);
  } catch (error) {
    say(`profile summary failed: ${error.message}`);
  }
}
serviceLog.end();

printSummary(report);
if (CFG.json) {
  writeFileSync(resolve(process.cwd(), CFG.json), `${JSON.stringify(report, null, 2)}\n`);
  say(`wrote ${CFG.json}`);
}
process.exit(failures.length ? 1 : 0);

function printSummary(r) {
  for (const [name, p] of Object.entries(r.cpu_profile_summary ?? {})) {
    console.log(`profile ${name}: ${p.busy_ms} ms busy; ${p.by_module.map((m) => `${m.name} ${m.percent}%`).join(', ')}`);
  }
  console.log(
    `\nmachine: ${r.machine}; load average ${r.load_average_at_start.join(' ')} → ${r.load_average_at_end.join(' ')}; ${r.seconds} s`,
  );
  if (r.baseline) console.log(`baseline (bare HTTP server, same generator): ${r.baseline.throughput_rps} req/s at saturation`);
  const rows = Object.entries(r.modes).map(([mode, m]) =>
    m.failed
      ? { mode, failed: m.failed }
      : {
          mode,
          'saturation rps': m.throughput_rps,
          'fixed rps': m.fixed_rate_rps,
          p50: m.p50_ms,
          p95: m.p95_ms,
          p99: m.p99_ms,
          max: m.max_ms,
          errors: m.errors + m.saturation.errors,
          'cpu ms/payout': m.cpu_ms_per_payout,
          'cpu ms/payout (sat.)': m.saturation.cost?.cpu_ms_per_payout,
          'store calls (sat.)': m.saturation.cost?.store_calls_per_payout ?? '',
          'store calls': m.store_calls_per_payout ?? '',
          'store writes': m.store_writes_per_payout ?? '',
          'kafka msgs': m.kafka_messages_per_payout ?? '',
          webhooks: `${m.webhooks.delivered}/${m.webhooks.expected}`,
          'hook delay p50/p99': `${m.webhooks.first_attempt_delay_p50_ms}/${m.webhooks.first_attempt_delay_p99_ms}`,
          'idle cpu %': m.idle_cpu_percent,
        },
  );
  console.table(rows);
  for (const [mode, m] of Object.entries(r.modes)) {
    if (m.failed) continue;
    console.log(`${mode}: CPU ms per payout by process`, JSON.stringify(m.cpu_ms_per_payout_by_process));
    if (m.jit_cpu_ms_per_payout_by_process)
      console.log(`${mode}: of which JIT compilation (JVM compiler threads)`, JSON.stringify(m.jit_cpu_ms_per_payout_by_process));
    console.log(`${mode}: RSS MiB`, JSON.stringify(m.rss_mib));
    if (m.idle_cpu_percent_by_process)
      console.log(`${mode}: idle CPU % of a core by process`, JSON.stringify(m.idle_cpu_percent_by_process));
    if (m.store_commands_per_payout) console.log(`${mode}: store commands per payout`, JSON.stringify(m.store_commands_per_payout));
  }
}
