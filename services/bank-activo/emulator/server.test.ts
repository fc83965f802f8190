import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type Emulator } from './server';

const KEY = 'emu-key';
let clock = new Date('2024-05-10T15:00:00Z').getTime();
let emu: Emulator;
let auto: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, credentials: { apiKey: KEY }, settleDelayMs: null, now: () => new Date(clock) });
  auto = await startEmulator({ port: 0, credentials: { apiKey: KEY }, settleDelayMs: 20 });
});
afterAll(async () => {
  await emu.close();
  await auto.close();
});

const post = async (e: Emulator, path: string, body: unknown, apikey: string | null = KEY) => {
  const res = await fetch(`${e.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apikey === null ? {} : { apikey }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const control = async (e: Emulator, path: string, body?: unknown) => {
  const res = await fetch(`${e.controlUrl}/__emulator${path}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  return (await res.json()) as Record<string, unknown>;
};

let n = 0;
const p2p = (monto = '10,00') => ({
  usuario: 'J080066227',
  cedula_pagador: 'J080066227',
  telefono_pagador: '584140000001',
  area_origen: '0414',
  ip: '127.0.0.1',
  monto,
  cedula_benef: 'V12345678',
  telefono_benef: `58412${String(1_000_000 + ++n).slice(-7)}`,
  bco_benef: '0102',
  motivo: 'vuelto',
  tipo_cuenta: '001',
  locator: `loc-${n}`,
});
const credito = (monto = '10,00') => ({
  cedula_benef: 'V12345678',
  nombre_benef: 'Ana',
  cuenta_benef: `0102${String(++n).padStart(16, '0')}`,
  tipo_instrumento: 'CNTA',
  bco_benef: '0102',
  monto,
  concepto: 'pago',
  locator: `loc-${n}`,
});

describe('Banco Activo emulator', () => {
  it('answers like the WSO2 gateway: unknown resource, missing and wrong key', async () => {
    expect(await post(emu, '/pago/nada/1.0.0/nada', {})).toMatchObject({ status: 404, body: { fault: { code: 900906 } } });
    expect(await post(emu, '/pago/p2p/1.0.0/p2p', p2p(), null)).toMatchObject({
      status: 401,
      body: { fault: { code: 900902, message: 'Missing Credentials' } },
    });
    expect(await post(emu, '/pago/p2p/1.0.0/p2p', p2p(), 'nope')).toMatchObject({
      status: 401,
      body: { fault: { code: 900901, message: 'Invalid Credentials' } },
    });
  });

  it('refuses amounts, phones and ids not in the bank format', async () => {
    expect(await post(emu, '/pago/p2p/1.0.0/p2p', { ...p2p(), monto: '10.00' })).toMatchObject({
      status: 400,
      body: { code: '400', descripcion: 'Campo inválido: monto' },
    });
    expect(await post(emu, '/pago/p2p/1.0.0/p2p', { ...p2p(), telefono_benef: '04121234567' })).toMatchObject({ body: { code: '400' } });
    expect(await post(emu, '/pago/p2p/1.0.0/p2p', { ...p2p(), cedula_pagador: 'J80066227' })).toMatchObject({ body: { code: '400' } });
    const { locator: _omit, ...noLocator } = credito();
    expect(await post(emu, '/pago/credito/1.0.0/credito', noLocator)).toMatchObject({
      body: { code: '400', descripcion: 'Campo requerido: locator' },
    });
  });

  it('answers the old P2P path too, and a repeated locator with the first answer', async () => {
    const body = p2p();
    const first = await post(emu, '/pago/p2c/1.0.0/p2c', body);
    expect(first.body).toMatchObject({ code: '200', nroReferencia: expect.any(String) });
    expect(await post(emu, '/pago/p2p/1.0.0/p2p', body)).toEqual(first);
    expect(emu.controls.callsFor(body.locator)).toBe(2);
  });

  it('an OTP expires after its validity', async () => {
    const tel = '584149990001';
    const otpReq = {
      rif_comercio: 'J080066227',
      cedula_pago: 'V1',
      nombre_pago: 'A',
      telefono_pago: tel,
      bco_pago: '0102',
      monto: '5,00',
      concepto: 'x',
      locator: 'otp-exp',
    };
    const sent = await post(emu, '/cobro/otp/1.0.0/otp', otpReq);
    const otp = (await control(emu, `/otp?telefono=${tel}`)).otp as string;
    clock += 121_000;
    const debit = {
      id_solicitud: sent.body.id_solicitud,
      otp,
      cedula_pago: 'V1',
      nombre_pago: 'A',
      telefono_pago: tel,
      bco_pago: '0102',
      monto: '5,00',
      concepto: 'x',
      locator: 'deb-exp',
    };
    expect(await post(emu, '/cobro/debito/1.0.0/debito', debit)).toMatchObject({ body: { code: '410' } });
  });

  it('is driven over HTTP: reject, fail, settle, stats, refuse and reopen', async () => {
    await control(emu, '/reject', { n: 1, code: '413' });
    expect((await post(emu, '/pago/p2p/1.0.0/p2p', p2p())).body).toMatchObject({ code: '413' });
    await control(emu, '/fail', { n: 1, status: 502 });
    const failed = await fetch(`${emu.url}/pago/p2p/1.0.0/p2p`, { method: 'POST', headers: { apikey: KEY }, body: JSON.stringify(p2p()) });
    expect(failed.status).toBe(502);
    const c = credito();
    expect((await post(emu, '/pago/credito/1.0.0/credito', c)).body).toMatchObject({ estatus: 'AC00' });
    expect(await control(emu, '/settle', { ref: c.locator, estatus: 'RJCT', motivo: 'AC06' })).toMatchObject({ settled: true });
    expect((await post(emu, '/consulta/operacion/1.0.0/operacion', { locator: c.locator })).body).toMatchObject({
      code: '200',
      estatus: 'RJCT',
      motivo: 'AC06',
    });
    expect(await control(emu, '/stats')).toMatchObject({ ok: true, orders: expect.any(Number), requests: expect.any(Number) });
    await control(emu, '/refuse', { on: true });
    await expect(fetch(`${emu.url}/consulta/saldo/1.0.0/saldo`, { method: 'POST' })).rejects.toThrow();
    await control(emu, '/refuse', { on: false });
    expect((await post(emu, '/consulta/saldo/1.0.0/saldo', { cuenta: '01710001000000000001' })).body).toMatchObject({
      code: '200',
      moneda: 'VES',
    });
  });

  it('settles pending credits on its own after settleDelayMs', async () => {
    const c = credito();
    expect((await post(auto, '/pago/credito/1.0.0/credito', c)).body).toMatchObject({ estatus: 'AC00' });
    await vi.waitFor(() => expect(auto.ledger.orders.get(c.locator)?.estatus).toBe('ACCP'), { timeout: 5_000, interval: 20 });
    const late = credito('10,62');
    await post(auto, '/pago/credito/1.0.0/credito', late);
    await vi.waitFor(() => expect(auto.ledger.orders.get(late.locator)).toMatchObject({ estatus: 'RJCT', motivo: 'AC01' }), {
      timeout: 5_000,
      interval: 20,
    });
  });
});
