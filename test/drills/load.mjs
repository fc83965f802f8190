// Open-loop load through the public REST API: operations start on a fixed schedule whether or not
// earlier ones have answered (a fault must not slow the arrivals down, as real traffic does not).
// Each request behaves like a careful merchant (SPEC 7.4): on no answer, a 5xx, a 429 or a gateway
// wait that ran out, it repeats the same request with the same idempotency_key until it gets an
// answer or its deadline passes.
import { randomUUID } from 'node:crypto';

const delay = (ms) => new Promise((r) => setTimeout(r, ms));
const ordenante = { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Comercio Drills' };
const phone = () => `0414${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
const account = () => `0102${String(Math.floor(Math.random() * 1e16)).padStart(16, '0')}`;
/** Amounts whose cents are never an emulator's magic value (.05, .13, .51, .71–.79, .91, ...). */
const monto = () => ({ valor: 10 + Math.floor(Math.random() * 90) + 0.25 });
/** How the gateway's answer begins when its wait for an outcome ran out (services/gateway/src/operations.ts). */
const GATEWAY_WAIT_RAN_OUT = 'the outcome did not arrive in time';

// What the load sends, in turn. Collections go to the banks that run a token step (bnc simulated,
// Banco Plaza); payouts to every test bank, on both rails.
const PAYOUT_BANKS = ['bnc', 'banco_plaza', 'bancaribe', 'banco_activo'];
const COLLECTION_BANKS = ['bnc', 'banco_plaza'];

export class Load {
  /**
   * `otpFor(banco, telefono)`: the OTP a bank emulator sent to a payer (null: any OTP works there).
   * `urls`: every gateway; each try goes to the next one, as a load balancer in front of them would
   * send it (a repeat may reach another gateway than the first try).
   */
  constructor({ url, urls = [url], key, otpFor, requestTimeoutMs = 30_000 }) {
    Object.assign(this, { urls, key, otpFor, requestTimeoutMs });
    this.nextGateway = 0;
    this.retriedOn = {}; // status (or 'no answer') → tries repeated after it
    this.requests = []; // { path, started, answered, status, estado, id, tries }
    this.operations = []; // { id, kind, banco }
    this.running = new Set();
    this.seq = 0;
    this.deadline = Infinity;
  }

  /** Starts `rate` operations a second until `stop()`; returns at once. */
  start(rate) {
    this.stopped = false;
    const every = 1000 / rate;
    const t0 = Date.now();
    let n = 0;
    const tick = () => {
      if (this.stopped) return;
      const p = this.operation().catch(() => {});
      this.running.add(p);
      void p.finally(() => this.running.delete(p));
      n++;
      // Scheduled against the start time, so a slow event loop does not lower the rate.
      this.timer = setTimeout(tick, Math.max(0, t0 + n * every - Date.now()));
    };
    tick();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Waits for every operation started (each is bounded by `deadline`). */
  async settle(deadlineMs) {
    this.deadline = Date.now() + deadlineMs;
    const until = this.deadline + this.requestTimeoutMs + 1000;
    while (this.running.size > 0 && Date.now() < until) await Promise.race([...this.running, delay(500)]);
  }

  async operation() {
    const i = this.seq++;
    if (i % 3 === 2) return this.collection(COLLECTION_BANKS[Math.floor(i / 3) % COLLECTION_BANKS.length]);
    const banco = PAYOUT_BANKS[Math.floor(i / 3 + (i % 3)) % PAYOUT_BANKS.length];
    const body = { idempotency_key: randomUUID(), monto: monto(), concepto: 'drill', banco_preferido: banco, ordenante };
    if (i % 3 === 0)
      Object.assign(body, {
        via: 'pago_movil',
        beneficiario: { tipo: 'telefono', valor: phone(), banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
      });
    else
      Object.assign(body, {
        via: 'credito_inmediato',
        beneficiario: { tipo: 'cuenta', valor: account(), banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
      });
    await this.request('/pagar', body, 'pagar');
  }

  async collection(banco) {
    const pagador = { tipo: 'telefono', valor: phone(), banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };
    const base = {
      idempotency_key: randomUUID(),
      monto: monto(),
      concepto: 'drill',
      canal: 'web',
      banco_preferido: banco,
      cobrador: { ...ordenante },
      pagador,
    };
    const token = await this.request('/cobrar/token', base, 'token');
    if (token?.estado !== 'ACEPTADA') return;
    const used = token.banco_usado;
    const otp = (await this.otpFor(used, pagador.valor)) ?? '12345678';
    await this.request('/cobrar', { ...base, otp }, 'cobrar');
  }

  /** One request until answered (or its deadline): the answer body, or null. */
  async request(path, body, kind) {
    const r = { path, kind, started: Date.now(), answered: false, status: null, estado: null, id: null, tries: 0 };
    this.requests.push(r);
    let errors = 0;
    for (;;) {
      if (Date.now() > this.deadline) return null;
      r.tries++;
      let res;
      let json = null;
      try {
        const gateway = this.urls[this.nextGateway++ % this.urls.length];
        res = await fetch(`${gateway}/switch/v1${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-switch-key': this.key },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.requestTimeoutMs),
        });
        json = await res.json().catch(() => null);
      } catch {
        res = null; // refused (gateway down) or no answer in time: repeat with the same key
      }
      // The gateway's own "wait ran out" answer (services/gateway/src/operations.ts, unknownOutcome), not
      // an operation that ended DESCONOCIDA: a token whose order was claimed by a delivery that died
      // ends there for good (tokens move no money and are not reconciled), its raw.switch saying why.
      const waitRanOut = json?.estado === 'DESCONOCIDA' && String(json?.raw?.switch ?? '').startsWith(GATEWAY_WAIT_RAN_OUT);
      if (res && res.status === 200 && json?.estado && !waitRanOut) {
        Object.assign(r, { answered: true, status: 200, estado: json.estado, id: json.id, answeredAt: Date.now() });
        if (!this.operations.some((o) => o.id === json.id)) this.operations.push({ id: json.id, kind, banco: json.banco_usado });
        // ERROR: nothing reached a bank; the same key runs it again (DESIGN rule 5). A few times.
        if (json.estado === 'ERROR' && r.tries < 5) {
          await delay(1000);
          continue;
        }
        return json;
      }
      if (res && res.status >= 400 && res.status < 500 && res.status !== 429 && res.status !== 408) {
        Object.assign(r, { answered: true, status: res.status, error: json?.error ?? null, answeredAt: Date.now() });
        return null;
      }
      r.status = res?.status ?? 'no answer';
      // What the tries that were not an answer got: during an outage, a clean refusal (503) or none.
      this.retriedOn[r.status] = (this.retriedOn[r.status] ?? 0) + 1;
      errors++;
      await delay(Math.min(2000, 200 * errors));
    }
  }

  summary() {
    const sent = this.requests.length;
    const answered = this.requests.filter((r) => r.answered).length;
    const byStatus = {};
    for (const r of this.requests) byStatus[r.estado ?? r.status ?? 'none'] = (byStatus[r.estado ?? r.status ?? 'none'] ?? 0) + 1;
    return { sent, answered, lost: sent - answered, byStatus, retriedOn: { ...this.retriedOn } };
  }
}
