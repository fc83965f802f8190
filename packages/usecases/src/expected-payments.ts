import { createHash, randomInt } from 'node:crypto';
import { decodeCursor, encodeCursor } from './page-cursor';
import type { Mode } from '@switch/core/contracts/bancos';
import { fingerprint } from '@switch/core/contracts/operaciones';
import { conceptoParaPagador } from '@switch/core/esperados';
import {
  ESPERADOS_PAGE_MAX,
  type CobroEsperado,
  type CobroEsperadoRequest,
  type CobrosEsperadosPage,
  type CobrosEsperadosQuery,
} from '@switch/core/contracts/esperados';
import type { ExpectedPayment, ExpectedPayments } from '@switch/platform/ports/expected-payments';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import type { PageCursor } from '@switch/platform/ports/transaction-reads';

/** How far ahead an expected payment may expire, and when it does if the request does not say. */
export const MAX_EXPIRY_DAYS = 30;
export const DEFAULT_EXPIRY_HOURS = 24;

export type ExpectedStore = Pick<ExpectedPayments, 'expectedPayments'> & Pick<MerchantDirectory, 'accounts'>;
export type Caller = { merchantId: string; mode: Mode };

export type CreateProblem = { kind: 'invalid'; detail: Record<string, string> } | { kind: 'not_registered' } | { kind: 'conflict' };

export type CreateResult = { ok: true; created: boolean; value: CobroEsperado } | { ok: false; problem: CreateProblem };

/** Letters and digits a payer cannot confuse (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const newCode = (): string => `E${Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('')}`;

const idOf = (scope: string): string => `esp_${createHash('sha256').update(scope).digest('hex').slice(0, 24)}`;

/** The answer's form of a stored expected payment. */
export function toCobroEsperado(p: ExpectedPayment): CobroEsperado {
  return {
    id: p.id,
    estado: p.estado,
    monto: p.monto,
    moneda: 'VES',
    recibido: p.recibido,
    concepto: p.concepto,
    orden_id: p.ordenId,
    instrucciones: {
      telefono: p.telefono,
      banco: p.banco,
      cuenta: p.cuenta,
      rif: p.rif,
      monto: p.monto,
      concepto: conceptoParaPagador(p.codigo, p.concepto),
    },
    vence_en: p.venceEn,
    creado_en: p.createdAt,
    actualizado_en: p.updatedAt,
    movimientos: p.movimientos.map((m) => ({ banco: m.banco, referencia: m.referencia, fecha: m.fecha, monto: m.monto })),
    historial: p.historial.map((h) => ({ de: h.from, a: h.to, motivo: h.motivo, en: h.en })),
  };
}

/** Field checks the schema cannot make: the expiry's window and the account's bank code. */
export function checkRequest(body: CobroEsperadoRequest, now: Date): Record<string, string> {
  const detail: Record<string, string> = {};
  if (body.cobrador.tipo === 'cuenta' && body.cobrador.valor.slice(0, 4) !== body.cobrador.banco)
    detail['cobrador.banco'] = 'is not the bank of cobrador.valor (its first 4 digits)';
  if (body.vence_en === undefined) return detail;
  const vence = Date.parse(body.vence_en);
  if (Number.isNaN(vence) || vence <= now.getTime()) detail.vence_en = 'must be in the future';
  else if (vence > now.getTime() + MAX_EXPIRY_DAYS * 86_400_000) detail.vence_en = `must be at most ${MAX_EXPIRY_DAYS} days ahead`;
  return detail;
}

/**
 * The receiving account and what the payer is told. Live: a registered account of the caller (named
 * or behind its phone). Test: the account named; a phone alone names no test account (400).
 */
async function receivingAccount(
  store: ExpectedStore,
  caller: Caller,
  cobrador: CobroEsperadoRequest['cobrador'],
): Promise<{ cuenta: string; telefono: string | null; rif: string | null } | CreateProblem> {
  if (caller.mode === 'live') {
    const own = await store.accounts.list(caller.merchantId, 'live');
    const account = own.find((a) =>
      cobrador.tipo === 'cuenta' ? a.cuenta === cobrador.valor : a.telefono === cobrador.valor && a.cuenta.startsWith(cobrador.banco),
    );
    if (!account) return { kind: 'not_registered' };
    return { cuenta: account.cuenta, telefono: account.telefono, rif: account.rif ?? cobrador.identificacion };
  }
  if (cobrador.tipo !== 'cuenta')
    return {
      kind: 'invalid',
      detail: { 'cobrador.tipo': 'in test mode name the receiving account (tipo cuenta): a phone names no test account' },
    };
  return { cuenta: cobrador.valor, telefono: null, rif: cobrador.identificacion };
}

/** Creates an expected payment, or answers the one its idempotency key created (same body) or a conflict. */
export async function createExpectedPayment(
  store: ExpectedStore,
  caller: Caller,
  body: CobroEsperadoRequest,
  now: Date,
): Promise<CreateResult> {
  // Its own kind in the scope: a key used for a cobrar names a different request.
  const scope = `${caller.merchantId}|${caller.mode}|esperado|${body.idempotency_key.toLowerCase()}`;
  const id = idOf(scope);
  const { idempotency_key: _key, ...terms } = body;
  const print = fingerprint(terms);
  const repeat = await store.expectedPayments.get(id);
  if (repeat)
    return repeat.fingerprint === print
      ? { ok: true, created: false, value: toCobroEsperado(repeat) }
      : { ok: false, problem: { kind: 'conflict' } };
  const detail = checkRequest(body, now);
  if (Object.keys(detail).length) return { ok: false, problem: { kind: 'invalid', detail } };
  const account = await receivingAccount(store, caller, body.cobrador);
  if ('kind' in account) return { ok: false, problem: account };
  const at = now.toISOString();
  const payment: ExpectedPayment = {
    id,
    scope,
    fingerprint: print,
    idempotencyKey: body.idempotency_key,
    merchantId: caller.merchantId,
    mode: caller.mode,
    ordenId: body.orden_id,
    concepto: body.concepto,
    codigo: newCode(),
    monto: body.monto.valor,
    banco: body.cobrador.banco,
    cuenta: account.cuenta,
    telefono: account.telefono,
    rif: account.rif,
    estado: 'ESPERADO',
    recibido: 0,
    movimientos: [],
    historial: [],
    venceEn: new Date(body.vence_en ? Date.parse(body.vence_en) : now.getTime() + DEFAULT_EXPIRY_HOURS * 3600_000).toISOString(),
    version: 1,
    announcedVersion: 1,
    createdAt: at,
    updatedAt: at,
  };
  const created = await store.expectedPayments.create(payment);
  if (created.created) return { ok: true, created: true, value: toCobroEsperado(payment) };
  // A concurrent request with the key won: its payment is the answer when the bodies agree.
  return created.existing.fingerprint === print
    ? { ok: true, created: false, value: toCobroEsperado(created.existing) }
    : { ok: false, problem: { kind: 'conflict' } };
}

/** The caller's own expected payment; null for another merchant's or mode's (a 404, nothing learnt). */
export async function findOwnExpected(store: ExpectedStore, caller: Caller, id: string): Promise<ExpectedPayment | null> {
  const p = await store.expectedPayments.get(id);
  return p && p.merchantId === caller.merchantId && p.mode === caller.mode ? p : null;
}

/** The caller's expected payments of its mode, newest first, cursor-paged; a bad cursor names the field. */
export async function listExpected(
  store: ExpectedStore,
  caller: Caller,
  q: CobrosEsperadosQuery,
): Promise<CobrosEsperadosPage | { field: string; message: string }> {
  const limit = Math.min(Number(q.limite ?? 20), ESPERADOS_PAGE_MAX);
  let after: PageCursor | undefined;
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    if (!c) return { field: 'cursor', message: 'is not a cursor of this list' };
    after = c;
  }
  const rows = await store.expectedPayments.list(
    { merchantId: caller.merchantId, mode: caller.mode, ...(q.estado ? { estado: q.estado } : {}) },
    limit + 1,
    after,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    cobros: page.map(toCobroEsperado),
    siguiente: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}
