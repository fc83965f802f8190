import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBankList } from '@switch/platform/config/routing';
import { issueKey } from '@switch/usecases/onboarding';
import { EMULATOR_TEST_BANKS, seedDemoMerchant } from '@switch/embedded';
import { cuentaDe, startBankSwitch, type BankSwitch } from './helpers';

/**
 * POST /switch/v1/cobros/verificar end to end on every bank: a payer's pago móvil made to arrive by
 * the sandbox is booked by the bank's emulator (the simulated bank for test-mode bnc) and read back
 * by its real connector through the bank's own statement protocol. Live: the BNC emulator behind
 * the live connector, with the merchant's registered account.
 */
let t: BankSwitch;
let liveKey: string;
let otherKey: string;
const LIVE_ACCOUNT = cuentaDe('0191', 7);

beforeAll(async () => {
  t = await startBankSwitch({
    routing: { test: parseBankList('SWITCH_TEST_BANKS', EMULATOR_TEST_BANKS), live: parseBankList('SWITCH_LIVE_BANKS', 'bnc') },
  });
  liveKey = (await issueKey(t.sw.store, t.merchantId, 'live')).switchKey;
  otherKey = (await seedDemoMerchant(t.sw.store, 'otro')).switchKey;
  t.emu.bnc.controls.addChild({ clientId: 'J000000191', account: LIVE_ACCOUNT });
  await t.sw.store.accounts.register({
    merchantId: t.merchantId,
    mode: 'live',
    banco: 'bnc',
    cuenta: LIVE_ACCOUNT,
    telefono: '04140000191',
    rif: 'J000000191',
    createdAt: new Date().toISOString(),
  });
});
afterAll(async () => {
  await t?.close();
});

const post = (key: string, url: string, payload: unknown) =>
  t.sw.gateway.app.inject({ method: 'POST', url, payload: payload as object, headers: { 'x-switch-key': key } });
const today = () => new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
const yesterday = () => new Date(Date.now() - 28 * 3600_000).toISOString().slice(0, 10);

const cobradorDe = (code: string) => ({
  tipo: 'cuenta',
  valor: cuentaDe(code, 3),
  banco: code,
  identificacion: 'J123456789',
  nombre: 'Tienda',
});
const PAYER = { banco_pagador: '0102', telefono_pagador: '04141234567' };

type Receipt = { referencia: string; fecha: string; hora: string; fecha_banco: string; banco: string; cuenta: string };
/**
 * At 00:00 today unless a test names the time: a payment sent "now" from 23:30
 * Caracas on is booked tomorrow, a day the switch never reads yet, so a run in that half hour would
 * see NO_ENCONTRADO (the midnight case has its own test below).
 */
async function arrive(code: string, monto: number, extra: Record<string, unknown> = {}, key = t.key): Promise<Receipt> {
  const res = await post(key, '/switch/v1/sandbox/pago-movil-entrante', {
    monto: { valor: monto, moneda: 'VES' },
    ...PAYER,
    cobrador: cobradorDe(code),
    hora: '00:00',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const verificar = (
  code: string,
  r: { referencia: string; fecha: string },
  monto: number,
  over: Record<string, unknown> = {},
  key = t.key,
) =>
  post(key, '/switch/v1/cobros/verificar', {
    idempotency_key: randomUUID(),
    monto: { valor: monto, moneda: 'VES' },
    ...PAYER,
    referencia: r.referencia,
    fecha: r.fecha,
    cobrador: cobradorDe(code),
    ...over,
  });

const BANKS = [
  { banco: 'bnc', code: '0191' },
  { banco: 'banco_plaza', code: '0138' },
  { banco: 'bancaribe', code: '0114' },
  { banco: 'banco_activo', code: '0171' },
] as const;

describe.each(BANKS)('verifying a pago móvil at $banco (test mode)', ({ banco, code }) => {
  it('VERIFICADO claims the movement; the same request again answers the same; the same receipt again is YA_RECLAMADO naming the first', async () => {
    const r = await arrive(code, 120.5);
    expect(r.banco).toBe(banco);
    expect(r.referencia).toMatch(/^[0-9]{12}$/);
    const body = {
      idempotency_key: randomUUID(),
      monto: { valor: 120.5, moneda: 'VES' },
      ...PAYER,
      referencia: r.referencia,
      fecha: r.fecha,
      cobrador: cobradorDe(code),
    };
    const first = await post(t.key, '/switch/v1/cobros/verificar', body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ estado: 'VERIFICADO', banco, monto_declarado: 120.5, monto_recibido: 120.5, reclamado_por: null });
    const again = await post(t.key, '/switch/v1/cobros/verificar', body);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    const conflict = await post(t.key, '/switch/v1/cobros/verificar', { ...body, monto: { valor: 120.51, moneda: 'VES' } });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error).toBe('IDEMPOTENCY_CONFLICT');
    const twice = await verificar(code, r, 120.5);
    expect(twice.json()).toMatchObject({ estado: 'YA_RECLAMADO', reclamado_por: { tipo: 'verificacion', id: first.json().id } });
  });

  it('a reference given with fewer digits still verifies', async () => {
    const r = await arrive(code, 33.1);
    const res = await verificar(code, { ...r, referencia: r.referencia.slice(-6) }, 33.1);
    expect(res.json()).toMatchObject({ estado: 'VERIFICADO' });
  });

  it('the wrong amount is MONTO_DISTINTO with both amounts, and claims nothing', async () => {
    const r = await arrive(code, 50);
    const res = await verificar(code, r, 500);
    expect(res.json()).toMatchObject({ estado: 'MONTO_DISTINTO', monto_declarado: 500, monto_recibido: 50 });
    expect((await verificar(code, r, 50)).json()).toMatchObject({ estado: 'VERIFICADO' });
  });

  it('a payment sent at 23:59 and booked the next day verifies with the day on the receipt', async () => {
    const r = await arrive(code, 23.59, { fecha: yesterday(), hora: '23:59' });
    expect(r).toMatchObject({ fecha: yesterday(), fecha_banco: today() });
    const res = await verificar(code, r, 23.59);
    expect(res.json()).toMatchObject({ estado: 'VERIFICADO', movimiento: { fecha: today() } });
  });

  it('a reference not in the statement is NO_ENCONTRADO, saying when to ask again', async () => {
    const res = await verificar(code, { referencia: '987654321012', fecha: today() }, 10);
    expect(res.json()).toMatchObject({ estado: 'NO_ENCONTRADO', reintentar_despues: expect.any(String) });
  });

  it("another merchant naming the same account never sees this merchant's payment", async () => {
    const r = await arrive(code, 61.25);
    const theirs = await verificar(code, r, 61.25, {}, otherKey);
    expect(theirs.json()).toMatchObject({ estado: 'NO_ENCONTRADO' });
    expect((await verificar(code, r, 61.25)).json()).toMatchObject({ estado: 'VERIFICADO' });
  });
});

describe.each(BANKS.filter((b) => b.banco !== 'bnc'))('a bank that cannot answer ($banco)', ({ banco, code }) => {
  it('is RECHAZADA with the usual motivo_rechazo, and a retry with the same key asks the bank again', async () => {
    const r = await arrive(code, 71);
    const emulator = t.emu[banco];
    emulator.controls.failNext(1, 503);
    const body = {
      idempotency_key: randomUUID(),
      monto: { valor: 71, moneda: 'VES' },
      ...PAYER,
      referencia: r.referencia,
      fecha: r.fecha,
      cobrador: cobradorDe(code),
    };
    const failed = await post(t.key, '/switch/v1/cobros/verificar', body);
    expect(failed.json()).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'BANCO_NO_DISPONIBLE' });
    const retried = await post(t.key, '/switch/v1/cobros/verificar', body);
    expect(retried.json()).toMatchObject({ estado: 'VERIFICADO' });
  });
});

describe('each movement is claimed once', () => {
  it('of 50 concurrent verifications of one movement exactly one is VERIFICADO, the others YA_RECLAMADO naming it', async () => {
    const r = await arrive('0138', 250);
    const answers = (await Promise.all(Array.from({ length: 50 }, () => verificar('0138', r, 250)))).map((res) => res.json());
    const won = answers.filter((a) => a.estado === 'VERIFICADO');
    expect(won).toHaveLength(1);
    const lost = answers.filter((a) => a.estado !== 'VERIFICADO');
    expect(lost).toHaveLength(49);
    for (const a of lost) expect(a).toMatchObject({ estado: 'YA_RECLAMADO', reclamado_por: { tipo: 'verificacion', id: won[0].id } });
  });
});

describe('live mode (BNC emulator, registered accounts)', () => {
  const bncPayment = (monto: number) => {
    const at = new Date();
    return t.emu.bnc.ledger.receivePagoMovil({ cuenta: LIVE_ACCOUNT, monto, bancoPagador: '0102', telefonoPagador: '04141234567', at });
  };
  const liveCobrador = (valor = LIVE_ACCOUNT) => ({ tipo: 'cuenta', valor, banco: '0191', identificacion: 'J000000191', nombre: 'Tienda' });

  it('verifies a payment to a registered account, by account or by its pago móvil phone', async () => {
    const a = bncPayment(15);
    const byAccount = await verificar('0191', a, 15, { cobrador: liveCobrador() }, liveKey);
    expect(byAccount.json()).toMatchObject({ estado: 'VERIFICADO', banco: 'bnc' });
    const b = bncPayment(16);
    const byPhone = await verificar('0191', b, 16, { cobrador: { ...liveCobrador(), tipo: 'telefono', valor: '04140000191' } }, liveKey);
    expect(byPhone.json()).toMatchObject({ estado: 'VERIFICADO' });
  });

  it("refuses an account that is not the caller's registered one, another merchant's included, asking no bank", async () => {
    const otherLive = (await issueKey(t.sw.store, 'otro', 'live')).switchKey;
    const a = bncPayment(17);
    const before = t.emu.bnc.controls.stats().calls;
    const res = await verificar('0191', a, 17, { cobrador: liveCobrador() }, otherLive);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'ACCOUNT_NOT_REGISTERED', detail: { cobrador: expect.any(String) } });
    const unknown = await verificar('0191', a, 17, { cobrador: liveCobrador(cuentaDe('0191', 9)) }, liveKey);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual({ ...res.json() });
    expect(t.emu.bnc.controls.stats().calls).toBe(before);
  });

  it('the sandbox is not there for a live key (404)', async () => {
    const res = await post(liveKey, '/switch/v1/sandbox/pago-movil-entrante', {
      monto: { valor: 1, moneda: 'VES' },
      ...PAYER,
      cobrador: liveCobrador(),
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('bad input', () => {
  const valid = () => ({
    idempotency_key: randomUUID(),
    monto: { valor: 10, moneda: 'VES' },
    ...PAYER,
    referencia: '123456',
    fecha: today(),
    cobrador: cobradorDe('0138'),
  });
  it.each([
    ['referencia', { referencia: '12a' }],
    ['banco_pagador', { banco_pagador: '12' }],
    ['fecha', { fecha: '2026-13-01' }],
    ['monto.valor', { monto: { valor: -1, moneda: 'VES' } }],
    ['telefono_pagador', { telefono_pagador: '4141234567' }],
    ['idempotency_key', { idempotency_key: 'x' }],
  ])('400 VALIDATION naming %s', async (field, over) => {
    const res = await post(t.key, '/switch/v1/cobros/verificar', { ...valid(), ...over });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('VALIDATION');
    expect(Object.keys(res.json().detail)).toContain(field);
  });
  it('400 naming telefono_pagador when neither the phone nor the id of the payer is given', async () => {
    const { telefono_pagador: _, ...body } = valid();
    const res = await post(t.key, '/switch/v1/cobros/verificar', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toHaveProperty('telefono_pagador');
  });
  it('400 naming fecha for a day in the future', async () => {
    const res = await post(t.key, '/switch/v1/cobros/verificar', { ...valid(), fecha: '2999-01-01' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toHaveProperty('fecha');
  });
});
