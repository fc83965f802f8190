import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { basicAuthorization, RUTAS } from '../src/protocol';
import { startEmulator, DEFAULT_MERCHANT, type Emulator } from './server';

// SOAP answers are walked by path in the assertions; their shape is what the test checks.
// biome-ignore lint/suspicious/noExplicitAny: see above
type SoapBody = Record<string, any>;
const CREDENTIALS = { consumerKey: 'emu-key', consumerSecret: 'emu-secret' };

describe('Bancaribe emulator over HTTP', () => {
  let emulator: Emulator;
  let bankNow = Date.parse('2025-06-01T12:00:00Z');

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${emulator.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as SoapBody };
  };
  const tokenWith = (key: string, secret: string, grant = 'client_credentials') =>
    fetch(`${emulator.url}${RUTAS.token}`, {
      method: 'POST',
      headers: { authorization: basicAuthorization(key, secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=${grant}`,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as SoapBody }));
  const bearer = async () => ({
    authorization: `Bearer ${(await tokenWith(CREDENTIALS.consumerKey, CREDENTIALS.consumerSecret)).body.access_token as string}`,
  });
  const c2pBody = (numeroReferencia: string, otp: string, montoTransaccion = '10.00', telefonoPersona = '04265551111') => ({
    request: {
      rif: DEFAULT_MERCHANT.rif,
      telefonoCredito: DEFAULT_MERCHANT.telefono,
      telefonoPersona,
      identificadorPersona: 'V12345678',
      bancoPagador: '0102',
      otp,
      montoTransaccion,
      codigoMoneda: 928,
      anulacion: 'N',
      numeroReferencia,
    },
  });
  const out = (body: SoapBody) => body.Envelope.Body.registrarPagoC2pApiResponse.out as Record<string, unknown>;

  beforeAll(async () => {
    emulator = await startEmulator({ credentials: CREDENTIALS, settleDelayMs: 0, c2pKeyTtlMs: 120_000, now: () => bankNow });
  });
  afterAll(() => emulator.close());

  it('issues tokens only to the right client, with the WSO2 error shapes', async () => {
    expect(await tokenWith(CREDENTIALS.consumerKey, CREDENTIALS.consumerSecret)).toMatchObject({
      status: 200,
      body: { token_type: 'Bearer', expires_in: 3600, access_token: expect.any(String) },
    });
    expect(await tokenWith(CREDENTIALS.consumerKey, 'nope')).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: expect.any(String) },
    });
    expect(await tokenWith(CREDENTIALS.consumerKey, CREDENTIALS.consumerSecret, 'password')).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
  });

  it('refuses API calls without a valid token with the WSO2 fault', async () => {
    expect(await post(RUTAS.c2p, c2pBody('h-1', '12345678'))).toMatchObject({
      status: 401,
      body: { fault: { code: 900902, message: 'Missing Credentials' } },
    });
    expect(await post(RUTAS.c2p, c2pBody('h-1', '12345678'), { authorization: 'Bearer forged' })).toMatchObject({
      status: 401,
      body: { fault: { code: 900901, message: 'Invalid Credentials' } },
    });
    expect(emulator.controls.orderCount()).toBe(0);
  });

  it('rejects a token after its lifetime on the bank clock', async () => {
    const auth = await bearer();
    bankNow += 3600_000;
    expect((await post(RUTAS.saldo, {}, auth)).status).toBe(401);
  });

  it('checks a C2P key issued through the OTP route: wrong, right, used, expired', async () => {
    const auth = await bearer();
    const telefono = '04265551234';
    const issued = (await fetch(`${emulator.url}/__emulator/otp?telefono=${telefono}`).then((r) => r.json())) as { clave: string };
    expect(issued.clave).toMatch(/^[0-9]{8}$/);
    const wrongKey = issued.clave === '11111111' ? '22222222' : '11111111';
    expect(out((await post(RUTAS.c2p, c2pBody('k-1', wrongKey, '10.00', telefono), auth)).body)).toMatchObject({ codigoError: 5 });
    expect(out((await post(RUTAS.c2p, c2pBody('k-2', issued.clave, '10.00', telefono), auth)).body)).toMatchObject({
      codigoError: 0,
      secuencial: expect.any(Number),
    });
    expect(out((await post(RUTAS.c2p, c2pBody('k-3', '12345678', '10.00', telefono), auth)).body)).toMatchObject({ codigoError: 0 });
    const next = emulator.controls.issueC2pKey(telefono);
    bankNow += 120_001;
    expect(out((await post(RUTAS.c2p, c2pBody('k-4', next, '10.00', telefono), { ...(await bearer()) })).body)).toMatchObject({
      codigoError: 5,
    });
  });

  it('dedupes by numeroReferencia: the repeat gets the original answer and nothing moves twice', async () => {
    const auth = await bearer();
    const first = await post(RUTAS.c2p, c2pBody('d-1', '12345678', '3.00', '04265559999'), auth);
    const balance = emulator.ledger.balance('tel:04265559999');
    const again = await post(RUTAS.c2p, c2pBody('d-1', '12345678', '3.00', '04265559999'), auth);
    expect(again.body).toEqual(first.body);
    expect(emulator.ledger.balance('tel:04265559999')).toBe(balance);
    expect(emulator.controls.callCount('d-1')).toBe(2);
  });

  it('picks outcomes by magic amounts and opens magic accounts empty', async () => {
    const auth = await bearer();
    expect(out((await post(RUTAS.c2p, c2pBody('m-1', '12345678', '10.51'), auth)).body)).toMatchObject({
      codigoError: 51,
      descripcionError: 'FONDOS INSUFICIENTES',
    });
    expect(out((await post(RUTAS.c2p, c2pBody('m-2', '12345678', '10.00', '04265550000'), auth)).body)).toMatchObject({ codigoError: 51 });
  });

  it('is driven over its /__emulator routes: reject-next, settle-all, refuse for a while', async () => {
    const auth = await bearer();
    await fetch(`${emulator.url}/__emulator/reject-next`, { method: 'POST', body: JSON.stringify({ n: 1, code: '61' }) });
    expect(out((await post(RUTAS.c2p, c2pBody('r-1', '12345678'), auth)).body)).toMatchObject({
      codigoError: 61,
      descripcionError: 'EXCEDE LIMITE DE MONTO',
    });

    const ci = await post(
      RUTAS.creditoInmediato,
      {
        requestIniciarCredInmediato: {
          hash: DEFAULT_MERCHANT.hash,
          cedulaRifEmisor: 'J12114',
          monto: '8.00',
          cuentaDestino: '01020000000000007777',
          tipoCtaCele: 'CNTA',
          numeroReferencia: 'ci-1',
        },
      },
      auth,
    );
    expect(ci.body.Envelope.Body.iniciarCreditoInmediatoAPIResponse.out).toMatchObject({ codigoError: 0, endToEndId: expect.any(String) });
    expect(await fetch(`${emulator.url}/__emulator/settle-all`, { method: 'POST' }).then((r) => r.json())).toEqual({ settled: 1 });
    expect(emulator.ledger.order('ci-1')?.estatus).toBe('ACCP');

    expect(
      (await fetch(`${emulator.url}/__emulator/refuse`, { method: 'POST', body: JSON.stringify({ on: true, forMs: 300 }) })).status,
    ).toBe(200);
    await vi.waitFor(
      async () =>
        expect(
          await fetch(`${emulator.url}/__emulator/state`).then(
            () => 'open',
            (e: { cause?: { code?: string } }) => e.cause?.code,
          ),
        ).toBe('ECONNREFUSED'),
      { timeout: 5000, interval: 20 },
    );
    await vi.waitFor(async () => expect((await fetch(`${emulator.url}/__emulator/state`)).status).toBe(200), {
      timeout: 5000,
      interval: 50,
    });
  });
});
