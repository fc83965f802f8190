// What each bank saw, read from its local-only endpoints: orders received per order reference
// (repeats included) and its ledger, keyed by the switch's orderRef (`<txnId>-<attempt>`) where the
// bank stores a reference derived from it. Money state per order: 'settled', 'pending', 'rejected'.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { REPO } from '../../infra/stack/infra.mjs';
import { DEMO } from '../../infra/stack/stack.mjs';

const require = createRequire(import.meta.url);
// Banco Plaza keys CCE orders by a 12-digit reference the connector assigns per orderRef from a
// sequence in the store: the connector's own lookup reads it back.
const { referenciaOf } = require(resolve(REPO, 'services/bank-plaza/dist/src/requests.js'));

const get = async (url) => {
  const r = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}`);
  return r.json();
};

/** Orders received per reference, summed over every bank: { bank: { ref: n } }. */
export async function receivedCounts(stack) {
  const e = stack.emulators;
  const [sim, plaza, bancaribe, activo] = await Promise.all([
    get(`${stack.healthUrls['bank-sim']}/sim/received`),
    get(`${e['emu-plaza']}/calls`),
    get(`${e['emu-bancaribe']}/calls`),
    get(`${e['emu-activo']}/calls`),
  ]);
  return { bnc: sim.byRef, banco_plaza: plaza.byRef, bancaribe: bancaribe.byRef, banco_activo: activo.byRef };
}

const SETTLED = new Set(['settled', 'ACCP', 'APROBADA']);
const PENDING = new Set(['pending', 'AC00']);
const money = (s) => (SETTLED.has(s) ? 'settled' : PENDING.has(s) ? 'pending' : 'rejected');

/**
 * The banks' ledgers as `lookup(banco, orderRef) → 'settled'|'pending'|'rejected'|null` for money
 * orders (token / OTP requests move nothing and are left out).
 */
export async function ledgers(stack, store, txs) {
  const e = stack.emulators;
  const [sim, plaza, bancaribe, activo] = await Promise.all([
    get(`${stack.healthUrls['bank-sim']}/sim/received`),
    get(`${e['emu-plaza']}/state`),
    get(`${e['emu-bancaribe']}/state`),
    get(`${e['emu-activo']}/orders`),
  ]);
  const byBank = { bnc: new Map(), banco_plaza: new Map(), bancaribe: new Map(), banco_activo: new Map() };
  for (const [ref, o] of Object.entries(sim.ledger)) {
    if (o.kind === 'token' || o.kind === 'reverso') continue;
    // The simulated bank settles an accepted order at the next status query: both mean money moved.
    byBank.bnc.set(ref, o.outcome === 'rejected' ? 'rejected' : o.outcome === 'settled' ? 'settled' : 'pending');
  }
  for (const o of plaza.orders)
    if (o.merchantRef) byBank.banco_plaza.set(o.merchantRef, o.state === 'reversed' ? 'rejected' : money(o.state));
  for (const o of bancaribe.orders) if (o.type !== 'ANULACION') byBank.bancaribe.set(o.reference, money(o.estatus));
  for (const o of activo.orders) if (o.kind !== 'otp') byBank.banco_activo.set(o.locator, money(o.estatus));
  const plazaRefs = new Map();
  for (const tx of txs) {
    for (const a of tx.attempts) {
      if (a.banco !== 'banco_plaza') continue;
      const orderRef = `${tx.id}-${a.n}`;
      plazaRefs.set(orderRef, await referenciaOf(store.bankReferences, DEMO.plaza.rif, orderRef));
    }
  }
  return (banco, orderRef) => {
    const m = byBank[banco];
    if (!m) return null;
    const ref = banco === 'banco_plaza' ? plazaRefs.get(orderRef) : null;
    return m.get(orderRef) ?? (ref ? (m.get(ref) ?? null) : null);
  };
}

/** References that reached a bank more than once: [{ banco, ref, n }]. */
export function duplicates(before, after) {
  const out = [];
  for (const [banco, refs] of Object.entries(after)) {
    for (const [ref, n] of Object.entries(refs)) {
      // Counted for the orders that arrived during this drill only.
      if (n > 1 && n > (before[banco]?.[ref] ?? 0) && (before[banco]?.[ref] ?? 0) <= 1) out.push({ banco, ref, n });
    }
  }
  return out;
}

/** OTP an emulator sent to a payer after a token request (Banco Plaza); null where any OTP passes. */
export function otpReader(stack) {
  return async (banco, telefono) => {
    if (banco !== 'banco_plaza') return null;
    const r = await fetch(`${stack.emulators['emu-plaza']}/otp?telefono=${telefono}`).catch(() => null);
    return r?.status === 200 ? (await r.json()).otp : null;
  };
}
