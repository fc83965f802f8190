import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { plazaJson, sign } from '../src/protocol';
import { startEmulator, type Emulator } from './server';

const credentials = { apiKey: 'emu-key', apiSecret: 'emu-secret' };
let emu: Emulator;
let clock = Date.parse('2025-03-10T15:00:00Z');
let nonce = 1_000;

interface Sent {
  status: number;
  codigo: string | null;
  sistema: string | null;
  body: Record<string, unknown> | null;
}

/** One raw call to the emulator, signed as the bank wants unless told otherwise. */
async function call(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: Record<string, unknown>,
  opts: { signPath?: string; nonce?: number; secret?: string; key?: string; signedBody?: string; headers?: false } = {},
): Promise<Sent> {
  const raw = body ? plazaJson(body) : '';
  const n = String(opts.nonce ?? ++nonce);
  const signPath = opts.signPath ?? path.split('?')[0]!;
  const headers: Record<string, string> =
    opts.headers === false
      ? {}
      : {
          'api-key': opts.key ?? credentials.apiKey,
          nonce: n,
          'api-signature': sign(opts.secret ?? credentials.apiSecret, signPath, n, opts.signedBody ?? raw),
          ...(body ? { 'content-type': 'application/json' } : {}),
        };
  const res = await fetch(`${emu.url}${path}`, { method, headers, ...(body ? { body: raw } : {}) });
  const text = await res.text();
  return {
    status: res.status,
    codigo: res.headers.get('codigoRespuesta'),
    sistema: res.headers.get('descripcionSistema'),
    body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}
const control = async (path: string, body: unknown = {}) =>
  (await fetch(`${emu.url}/__emulator/${path}`, { method: 'POST', body: JSON.stringify(body) })).json();

const p2p = (monto: number, idExterno: string) => ({
  banco: '0105',
  idBeneficiario: 'V00007654321',
  telefono: '04241112233',
  telefonoAfiliado: '04140000001',
  monto,
  motivo: 'vuelto',
  canal: '23',
  idExterno,
});
const diPayer = (telefono: string) => ({
  moneda: 'VES',
  canal: '23',
  Tvalidacion_p: 'T',
  identificacion_p: 'V00012345678',
  telefono_pagador: telefono,
  cod_banco_p: '0102',
  cuenta_cobrador: '01380000000000000001',
  monto: 15,
  direccion_ip: '127.0.0.1',
});
const pagoO = (monto: number, referencia: string) => ({
  moneda: 'VES',
  canal: '23',
  tipo_cce: 'E',
  tipo_proposito: '220',
  tipo_instrumento_b: 'C',
  identificacion_o: 'J00123456789',
  cuenta_origen: '01380000000000000001',
  cod_banco_d: '0138',
  nombre_d: 'Tienda',
  identificacion_b: 'V00007654321',
  cod_banco_a: '0105',
  nombre_a: 'Beto',
  cuenta_destino: '01050000000000000042',
  monto,
  concepto: 'pago',
  referencia,
  direccion_ip: '127.0.0.1',
});

beforeAll(async () => {
  emu = await startEmulator({ credentials, settleDelayMs: null, now: () => new Date(clock) });
});
afterAll(() => emu.close());

describe('authentication the emulator verifies', () => {
  const path = '/v1/cce/consultaLiq/J00123456789?cuenta=01380000000000000001&referencia=000000000001&monto=0.00&canal=23';

  it('accepts a call signed over the base path, "" as the body of a GET', async () => {
    expect(await call('GET', path, undefined, { signPath: '/v1/cce/consultaLiq' })).toMatchObject({ status: 404, codigo: '0025' });
  });

  it('also accepts "{}" as the signed body of a GET (an older client)', async () => {
    expect((await call('GET', path, undefined, { signPath: '/v1/cce/consultaLiq', signedBody: '{}' })).codigo).toBe('0025');
  });

  it('refuses missing headers, a wrong key, a wrong secret, and a path signed with its id (0401)', async () => {
    expect(await call('GET', path, undefined, { headers: false })).toMatchObject({ status: 401, codigo: '0401' });
    expect((await call('GET', path, undefined, { signPath: '/v1/cce/consultaLiq', key: 'other' })).codigo).toBe('0401');
    expect((await call('GET', path, undefined, { signPath: '/v1/cce/consultaLiq', secret: 'other' })).codigo).toBe('0401');
    expect((await call('GET', path, undefined, { signPath: '/v1/cce/consultaLiq/J00123456789' })).codigo).toBe('0401');
  });

  it('refuses a repeated nonce, or one below the window under the highest (0402), even with a valid signature', async () => {
    const n = ++nonce;
    expect((await call('GET', path, undefined, { signPath: '/v1/cce/consultaLiq', nonce: n })).codigo).toBe('0025');
    expect(await call('GET', path, undefined, { signPath: '/v1/cce/consultaLiq', nonce: n })).toMatchObject({
      status: 401,
      codigo: '0402',
    });
    // Within the window a fresh nonce below the highest is accepted once (requests crossing, replicas' clocks).
    nonce += 1_000_000;
    const high = nonce;
    expect((await call('GET', path, undefined, { signPath: '/v1/cce/consultaLiq', nonce: high })).codigo).toBe('0025');
    expect((await call('GET', path, undefined, { signPath: '/v1/cce/consultaLiq', nonce: high - 10 })).codigo).toBe('0025');
    expect((await call('GET', path, undefined, { signPath: '/v1/cce/consultaLiq', nonce: high - 10 })).codigo).toBe('0402');
  });

  it('refuses a nonce more than the window below the highest (0402)', async () => {
    const strict = await startEmulator({ credentials, nonceWindow: 100n });
    try {
      const get = (n: number) =>
        fetch(`${strict.url}${path}`, {
          headers: {
            'api-key': credentials.apiKey,
            nonce: String(n),
            'api-signature': sign(credentials.apiSecret, '/v1/cce/consultaLiq', String(n), ''),
          },
        }).then((r) => r.headers.get('codigoRespuesta'));
      expect(await get(1_000)).toBe('0025');
      expect(await get(950)).toBe('0025');
      expect(await get(900)).toBe('0402');
    } finally {
      await strict.close();
    }
  });

  it('refuses a body changed after signing', async () => {
    const r = await call('POST', '/v1/pagos/p2p/J00123456789', p2p(5, 'ext-tamper'), {
      signPath: '/v1/pagos/p2p',
      signedBody: plazaJson(p2p(6, 'ext-tamper')),
    });
    expect(r.codigo).toBe('0401');
    expect(emu.controls.callsFor('ext-tamper')).toBe(0);
  });

  it('accepts a P2P signed over its full path, as one client does', async () => {
    expect((await call('POST', '/v1/pagos/p2p/J00123456789', p2p(5, 'ext-full'))).codigo).toBe('0000');
  });
});

describe('orders', () => {
  it('validates the bank formats (v0 phones without the 0)', async () => {
    const body = { banco: '0102', id: 'V00012345678', telefonoPagador: '04141234567', monto: 10, token: '12345678' };
    expect(await call('POST', '/v0/pagos/c2p', body)).toMatchObject({
      status: 400,
      codigo: '0030',
      sistema: expect.stringMatching(/telefonoPagador/),
    });
  });

  it('Débito Inmediato with the OTP read over the test route; a repeated referencia_c is refused as a duplicate (0094), not executed', async () => {
    expect((await call('POST', '/v1/cce/debinm/tokenDI', diPayer('04145550001'))).codigo).toBe('0000');
    const { otp } = (await (await fetch(`${emu.url}/__emulator/otp?telefono=04145550001`)).json()) as { otp: string };
    const cobro = {
      ...diPayer('04145550001'),
      identificacion_b: 'J00123456789',
      nombre_p: 'Ana',
      concepto: 'pedido',
      Token_p: otp,
      referencia_c: '000000000777',
    };
    const orders = emu.controls.orderCount();
    const first = await call('POST', '/v1/cce/debinm/cobroDI/J00123456789', cobro, { signPath: '/v1/cce/debinm/cobroDI' });
    expect(first).toMatchObject({
      status: 200,
      codigo: '0000',
      sistema: expect.stringMatching(/^AC00/),
      body: { referencia_c: '000000000777', endtoend: expect.any(String) },
    });
    const again = await call('POST', '/v1/cce/debinm/cobroDI/J00123456789', cobro, { signPath: '/v1/cce/debinm/cobroDI' });
    expect(again).toMatchObject({ codigo: '0094' });
    expect(again.body).not.toEqual(first.body);
    expect(emu.controls.orderCount()).toBe(orders + 1);
    expect(emu.controls.callsFor('000000000777')).toBe(2);
  });

  it('an OTP used after 120 s is refused (0055)', async () => {
    expect((await call('POST', '/v1/cce/debinm/tokenDI', diPayer('04145550002'))).codigo).toBe('0000');
    const otp = emu.controls.otpFor('04145550002')!;
    clock += 121_000;
    const cobro = {
      ...diPayer('04145550002'),
      identificacion_b: 'J00123456789',
      nombre_p: 'Ana',
      concepto: 'pedido',
      Token_p: otp,
      referencia_c: '000000000778',
    };
    expect((await call('POST', '/v1/cce/debinm/cobroDI/J00123456789', cobro, { signPath: '/v1/cce/debinm/cobroDI' })).codigo).toBe('0055');
  });

  it('a credit settles as the magic amount says, by the test route; the state query reads it', async () => {
    expect((await call('POST', '/v1/cce/pagoO/J00123456789', pagoO(9.41, '000000000888'), { signPath: '/v1/cce/pagoO' })).codigo).toBe(
      '0000',
    );
    const q = '/v1/cce/consultaLiq/J00123456789?cuenta=01380000000000000001&referencia=000000000888&monto=0.00&canal=23';
    expect((await call('GET', q, undefined, { signPath: '/v1/cce/consultaLiq' })).sistema).toMatch(/^AC00/);
    expect(await control('settle', { referencia: '000000000888' })).toEqual({ settled: 1 });
    expect(await call('GET', q, undefined, { signPath: '/v1/cce/consultaLiq' })).toMatchObject({
      status: 200,
      codigo: 'RJCT',
      sistema: expect.stringMatching(/^AC01/),
    });
  });

  it('statements: unknown accounts open with the default balance; ...99999 does not exist', async () => {
    const q = (cuenta: string) => `/v0/cuentas/${cuenta}/movimientos?moneda=VES&fechaInicio=2025-03-01&fechafin=2025-03-31`;
    expect(await call('GET', q('01020000000000001234'), undefined, { signPath: '/v0/cuentas' })).toMatchObject({
      codigo: '0000',
      body: { saldoDisponible: 1_000_000, movimientos: [] },
    });
    expect(await call('GET', q('01020000000000099999'), undefined, { signPath: '/v0/cuentas' })).toMatchObject({
      status: 404,
      codigo: '0014',
    });
  });
});

describe('faults over the test routes', () => {
  it('reject, fail and state', async () => {
    await control('reject', { n: 1, code: '0061' });
    expect((await call('POST', '/v1/pagos/p2p/J00123456789', p2p(5, 'ext-r1'), { signPath: '/v1/pagos/p2p' })).codigo).toBe('0061');
    await control('fail', { n: 1, status: 503 });
    expect(await call('POST', '/v1/pagos/p2p/J00123456789', p2p(5, 'ext-r2'), { signPath: '/v1/pagos/p2p' })).toMatchObject({
      status: 503,
      codigo: null,
    });
    const state = (await (await fetch(`${emu.url}/__emulator/state`)).json()) as { orders: { merchantRef: string }[] };
    expect(state.orders.some((o) => o.merchantRef === 'ext-r2')).toBe(false);
  });

  it('refuse for a while, then accept again', async () => {
    await control('refuse', { on: true, forMs: 300 });
    await vi.waitFor(
      async () =>
        expect(
          await fetch(`${emu.url}/__emulator/state`).then(
            () => 'up',
            (e: Error) => (e.cause as { code?: string })?.code,
          ),
        ).toBe('ECONNREFUSED'),
      { timeout: 5_000, interval: 20 },
    );
    await vi.waitFor(async () => expect((await fetch(`${emu.url}/__emulator/state`)).status).toBe(200), { timeout: 5_000, interval: 50 });
  });

  it('settles by itself after settleDelayMs', async () => {
    const auto = await startEmulator({ credentials, settleDelayMs: 20 });
    try {
      const raw = plazaJson(pagoO(3, '000000000999'));
      const res = await fetch(`${auto.url}/v1/cce/pagoO/J00123456789`, {
        method: 'POST',
        headers: { 'api-key': credentials.apiKey, nonce: '1', 'api-signature': sign(credentials.apiSecret, '/v1/cce/pagoO', '1', raw) },
        body: raw,
      });
      expect(res.headers.get('codigoRespuesta')).toBe('0000');
      await vi.waitFor(() => expect(auto.ledger.byMerchantRef('pagoO', '000000000999')?.state).toBe('settled'), {
        timeout: 5_000,
        interval: 20,
      });
    } finally {
      await auto.close();
    }
  });
});
