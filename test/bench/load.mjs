// The load generator of `npm run bench`, run in a worker thread so that its event loop is not the
// benchmark's (which also receives webhooks and scrapes metrics). HTTP/1.1 keep-alive through an
// undici Pool. Two shapes:
//
// - open loop (`rate`): request i is due at t0 + i/rate whether or not earlier ones have answered, and
//   its latency is measured from that due time, not from when it was actually sent. A server (or a
//   generator) that falls behind therefore shows its queueing in the figures instead of quietly
//   lowering the rate: no coordinated omission. `behind_ms` says how late the generator itself sent.
// - closed loop (`concurrency`): that many requests in flight, each sent when the previous answered,
//   for the duration; its completions per second are the throughput at saturation.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';

const ordenante = { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Comercio Bench' };
const beneficiario = { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };
/** A pago móvil payout, each with its own idempotency key. */
const payout = () =>
  JSON.stringify({ idempotency_key: randomUUID(), monto: { valor: 10.5 }, concepto: 'bench', ordenante, beneficiario, via: 'pago_movil' });

/**
 * Runs one load in a worker and resolves with its result:
 * { sent, answered, ok, errors, statuses, seconds, latencies (ms, sorted), behind_ms, ids: [[id, answeredAtEpochMs]],
 * started_at_ms (epoch), worst_by_quarter_second_ms: the worst latency of the requests due in each 250 ms, in order,
 * connections_opened_by_quarter_second, connections_closed_by_quarter_second }.
 * `spec`: { origin, path, headers, mode: 'open'|'closed', rate, concurrency, durationMs, connections, timeoutMs, body: 'payout'|'empty', keepIds }
 */
export function runLoad(spec) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: spec });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`load worker exited with ${code}`)));
  });
}

async function work(spec) {
  const { origin, path, headers = {}, mode, rate, concurrency, durationMs, connections = 128, timeoutMs = 30_000, keepIds } = spec;
  const pool = new Pool(origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const bodyOf = spec.body === 'empty' ? () => '{}' : payout;
  const allHeaders = { 'content-type': 'application/json', ...headers };
  const latencies = [];
  const statuses = {};
  const ids = [];
  let sent = 0;
  let answered = 0;
  let ok = 0;
  let errors = 0;
  let behind = 0;
  const worstBySlot = [];
  // Connections the pool opened and lost in each quarter second: a server that closes idle
  // keep-alive connections makes a pooled client reopen them in a burst at its next hiccup, and each
  // costs the server an accept (docs/decisions/0009-http-edge-timeouts-and-keep-alive.md).
  const opened = [];
  const closed = [];
  let closing = false;
  const countNow = (slots) => {
    if (closing) return;
    const slot = Math.floor(Number(process.hrtime.bigint() - t0) / 250e6);
    slots[slot] = (slots[slot] ?? 0) + 1;
  };
  pool.on('connect', () => countNow(opened));
  pool.on('disconnect', () => countNow(closed));

  const one = async (dueNs) => {
    sent++;
    let status = 'error';
    try {
      // The deadline runs from the due time: a request queued behind busy connections is bounded too,
      // so a phase never outlasts its schedule by more than `timeoutMs`.
      const left = timeoutMs - Number(process.hrtime.bigint() - dueNs) / 1e6;
      const res = await pool.request({
        method: 'POST',
        path,
        headers: allHeaders,
        body: bodyOf(),
        signal: AbortSignal.timeout(Math.max(1, Math.ceil(left))),
      });
      status = res.statusCode;
      const text = await res.body.text();
      if (status === 200 && keepIds) {
        try {
          const id = JSON.parse(text).id;
          if (id) ids.push([id, Date.now()]);
        } catch {
          // not JSON: counted by its status only
        }
      }
    } catch (e) {
      status = e.name === 'TimeoutError' || e.code === 'UND_ERR_ABORTED' ? 'timeout' : (e.code ?? 'error');
    }
    const ms = Number(process.hrtime.bigint() - dueNs) / 1e6;
    // The worst latency of the requests due in each quarter second: a stall shows as one bad slot,
    // a slow server as many.
    const slot = Math.floor(Number(dueNs - t0) / 250e6);
    worstBySlot[slot] = Math.max(worstBySlot[slot] ?? 0, ms);
    answered++;
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status === 200) ok++;
    else errors++;
    latencies.push(ms);
  };

  const inFlight = new Set();
  const track = (p) => {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p));
  };
  const t0 = process.hrtime.bigint();
  const startedAtMs = Date.now();
  const endNs = t0 + BigInt(Math.round(durationMs * 1e6));

  if (mode === 'open') {
    const intervalNs = 1e9 / rate;
    let i = 0;
    await new Promise((done) => {
      const tick = () => {
        const now = process.hrtime.bigint();
        // Everything due by now goes out now; a late tick sends a burst, as the schedule demands.
        for (;;) {
          const due = t0 + BigInt(Math.round(i * intervalNs));
          if (due >= endNs) return done();
          if (due > now) break;
          behind = Math.max(behind, Number(now - due) / 1e6);
          track(one(due));
          i++;
        }
        // A timer, not setImmediate: a spinning generator would take a core from the services.
        const next = t0 + BigInt(Math.round(i * intervalNs));
        setTimeout(tick, Math.max(1, Math.floor(Number(next - process.hrtime.bigint()) / 1e6)));
      };
      tick();
    });
  } else {
    const loop = async () => {
      while (process.hrtime.bigint() < endNs) await one(process.hrtime.bigint());
    };
    await Promise.all(Array.from({ length: concurrency }, loop));
  }
  const sendSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  await Promise.allSettled([...inFlight]);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  closing = true;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    sent,
    answered,
    ok,
    errors,
    statuses,
    seconds,
    sendSeconds,
    latencies,
    behind_ms: behind,
    ids,
    started_at_ms: startedAtMs,
    connections_opened_by_quarter_second: Array.from(opened, (n) => n ?? 0),
    connections_closed_by_quarter_second: Array.from(closed, (n) => n ?? 0),
    worst_by_quarter_second_ms: Array.from(worstBySlot, (w) => Math.round(w ?? 0)),
  };
}

if (!isMainThread) parentPort.postMessage(await work(workerData));
