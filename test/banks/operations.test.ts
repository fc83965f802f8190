import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@switch/platform/telemetry/logger';
import { issueKey } from '@switch/usecases/onboarding';
import { Movimientos, Saldo } from '@switch/core/contracts/bancos';
import { parseBankList } from '@switch/platform/config/routing';
import { SANDBOX } from '@switch/core/sandbox';
import { validatorFor } from '@switch/core/contracts/validation';
import { EMULATOR_TEST_BANKS, seedDemoMerchant, startEmbeddedSwitch } from '@switch/embedded';
import { startEmulator as startPlazaEmulator } from '@switch/bank-plaza/emulator';
import {
  CODE,
  cuentaBeneficiario,
  cuentaDe,
  EMULATED,
  ordenante,
  othersThan,
  otpFrom,
  pagar,
  settleAt,
  startBankSwitch,
  telefono,
  token,
  type BankSwitch,
} from './helpers';

const isSaldo = validatorFor(Saldo);
const isMovimientos = validatorFor(Movimientos);

/** The Venezuelan calendar day (UTC-4), the one bank statements use. */
const venezuelanDay = (offsetDays = 0) => new Date(Date.now() - 4 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * Every operation through each real connector, against its bank's emulator, on the embedded switch
 * driven through the public API (SPEC 4, test mode).
 */
describe('operations through the real bank connectors (emulator mode)', () => {
  let t: BankSwitch;
  beforeAll(async () => {
    t = await startBankSwitch();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /bancos lists the enabled banks with their capabilities', async () => {
    const res = await t.get('/switch/v1/bancos');
    expect(res.statusCode).toBe(200);
    // The emulated banks also list their sandbox's magic amounts (test/banks/sandbox.test.ts).
    expect(res.json()).toEqual([
      { banco: 'bnc', capabilities: ['cobrar', 'pagar', 'token', 'consultar', 'saldo', 'movimientos'] },
      {
        banco: 'banco_plaza',
        capabilities: ['cobrar', 'pagar', 'token', 'consultar', 'saldo', 'movimientos'],
        sandbox: SANDBOX.banco_plaza,
      },
      { banco: 'bancaribe', capabilities: ['cobrar', 'pagar', 'consultar', 'saldo', 'movimientos'], sandbox: SANDBOX.bancaribe },
      {
        banco: 'banco_activo',
        capabilities: ['cobrar', 'pagar', 'token', 'consultar', 'saldo', 'movimientos'],
        sandbox: SANDBOX.banco_activo,
      },
    ]);
  });

  describe.each(EMULATED)('%s', (banco) => {
    it('pago móvil payout → LIQUIDADA at once, through that bank only', async () => {
      const before = t.counts();
      const res = await t.post(
        '/switch/v1/pagar',
        pagar({
          banco_preferido: banco,
          via: 'pago_movil',
          ordenante: { ...pagar().ordenante, valor: cuentaDe(CODE[banco]), banco: CODE[banco] },
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        estado: 'LIQUIDADA',
        banco_usado: banco,
        intentos: 1,
        motivo_rechazo: null,
        referencia_banco: expect.any(String),
      });
      const after = t.counts();
      expect(after[banco].orders).toBe(before[banco].orders + 1);
      expect(othersThan(after, banco)).toEqual(othersThan(before, banco));
    });

    it('crédito inmediato payout → ACEPTADA; once the bank settles it, /consultar → LIQUIDADA', async () => {
      const res = await t.post(
        '/switch/v1/pagar',
        pagar({
          banco_preferido: banco,
          via: 'credito_inmediato',
          beneficiario: cuentaBeneficiario(),
          monto: { valor: 250, moneda: 'VES' },
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
      const accepted = res.json();
      expect(accepted).toMatchObject({ estado: 'ACEPTADA', banco_usado: banco, intentos: 1 });

      // Not settled yet: the bank still says pending, so the state stays.
      const early = await t.post('/switch/v1/consultar', { id: accepted.id });
      expect(['ACEPTADA', 'PENDIENTE']).toContain(early.json().estado);

      expect(settleAt(t.emu, banco)).toBeGreaterThanOrEqual(1);
      const settled = await t.post('/switch/v1/consultar', { id: accepted.id });
      expect(settled.statusCode).toBe(200);
      expect(settled.json()).toMatchObject({ id: accepted.id, estado: 'LIQUIDADA', banco_usado: banco });
    });

    it('a bank rejection code → RECHAZADA with its motivo, the raw bank code kept', async () => {
      const code = { banco_plaza: '0051', bancaribe: '51', banco_activo: '402' }[banco];
      const reject = t.emu[banco].controls.rejectNext.bind(t.emu[banco].controls);
      reject(1, code);
      const res = await t.post('/switch/v1/pagar', pagar({ banco_preferido: banco }));
      const body = res.json();
      expect(body).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'SALDO_INSUFICIENTE', banco_usado: banco, intentos: 1 });
      expect(JSON.stringify(body.raw)).toContain(`"${code}"`);
    });

    it('GET /saldo and /movimientos of an account of this bank are answered by its connector', async () => {
      const cuenta = cuentaDe(CODE[banco], 7);
      const saldo = await t.get(`/switch/v1/saldo?cuenta=${cuenta}&moneda=VES`);
      expect(saldo.statusCode, saldo.body).toBe(200);
      expect(isSaldo(saldo.json()), JSON.stringify(isSaldo.errors)).toBe(true);
      expect(saldo.json()).toMatchObject({ cuenta, banco, moneda: 'VES' });

      const mov = await t.get(`/switch/v1/movimientos?cuenta=${cuenta}&desde=${venezuelanDay(-3)}`);
      expect(mov.statusCode, mov.body).toBe(200);
      expect(isMovimientos(mov.json()), JSON.stringify(isMovimientos.errors)).toBe(true);
      expect(mov.json()).toMatchObject({ cuenta, banco, moneda: 'VES' });
    });
  });

  describe.each(['banco_plaza', 'banco_activo'] as const)('%s collection with a token step', (banco) => {
    it('token → ACEPTADA (OTP sent); cobrar with that OTP → ACEPTADA on the same bank', async () => {
      const before = t.counts();
      const body = token();
      const tok = await t.post('/switch/v1/cobrar/token', { ...body, banco_preferido: banco });
      expect(tok.statusCode, tok.body).toBe(200);
      expect(tok.json()).toMatchObject({ estado: 'ACEPTADA', banco_usado: banco });

      const otp = otpFrom(t.emu, banco);
      // No banco_preferido on the collection itself: it follows its token step.
      const cobro = await t.post('/switch/v1/cobrar', { ...body, otp });
      expect(cobro.statusCode, cobro.body).toBe(200);
      expect(cobro.json()).toMatchObject({ estado: 'ACEPTADA', banco_usado: banco, intentos: 1 });
      expect(cobro.json().id).not.toBe(tok.json().id);
      expect(othersThan(t.counts(), banco)).toEqual(othersThan(before, banco));
    });
  });

  it('bancaribe collection is a C2P with the key the payer got from his bank → LIQUIDADA', async () => {
    const before = t.counts();
    const otp = otpFrom(t.emu, 'bancaribe');
    const res = await t.post('/switch/v1/cobrar', { ...token({ banco_preferido: 'bancaribe' }), otp });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bancaribe', intentos: 1, referencia_banco: expect.any(String) });
    expect(othersThan(t.counts(), 'bancaribe')).toEqual(othersThan(before, 'bancaribe'));
  });

  it('a token request with bancaribe preferred goes to a bank that has a token step', async () => {
    const res = await t.post('/switch/v1/cobrar/token', token({ banco_preferido: 'bancaribe', pagador: telefono('04241110000') }));
    expect(res.json()).toMatchObject({ estado: 'ACEPTADA' });
    expect(res.json().banco_usado).not.toBe('bancaribe');
  });
});

describe('BNC live connector against its emulator (emulator mode, SWITCH_LIVE_BANKS=bnc)', () => {
  let t: BankSwitch;
  let liveKey: string;
  beforeAll(async () => {
    t = await startBankSwitch({
      routing: { test: parseBankList('SWITCH_TEST_BANKS', EMULATOR_TEST_BANKS), live: parseBankList('SWITCH_LIVE_BANKS', 'bnc') },
    });
    liveKey = (await issueKey(t.sw.store, t.merchantId, 'live')).switchKey;
    // Live money moves only through the merchant's registered accounts (the ordenante of pagar()),
    // and at BNC in the merchant's own books: the account's holder RIF is its ChildClientID.
    t.emu.bnc.controls.addChild({ clientId: 'J000000191', account: ordenante().valor });
    await t.sw.store.accounts.register({
      merchantId: t.merchantId,
      mode: 'live',
      banco: 'bnc',
      cuenta: ordenante().valor,
      telefono: null,
      rif: 'J000000191',
      createdAt: new Date().toISOString(),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a live pago móvil payout goes to the BNC emulator, not to the simulated bank', async () => {
    const [orders, simulated] = [t.emu.bnc.controls.orderCount(), t.sw.bank.executedOrders];
    const res = await t.sw.gateway.app.inject({
      method: 'POST',
      url: '/switch/v1/pagar',
      headers: { 'x-switch-key': liveKey },
      payload: pagar({ via: 'pago_movil' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bnc', intentos: 1, referencia_banco: expect.any(String) });
    expect(res.json().raw?.simulated).toBeUndefined();
    expect(t.emu.bnc.controls.orderCount()).toBe(orders + 1);
    expect(t.sw.bank.executedOrders).toBe(simulated);
  });

  it("a live payout moves the money in the merchant's own BNC account, and /saldo reads it as that merchant", async () => {
    const cuenta = ordenante().valor;
    const [own, switchOwn] = [t.emu.bnc.ledger.balanceOf(cuenta), t.emu.bnc.ledger.balanceOf(t.emu.bnc.ledger.merchantAccount)];
    const headers = { 'x-switch-key': liveKey };
    const res = await t.sw.gateway.app.inject({ method: 'POST', url: '/switch/v1/pagar', headers, payload: pagar({ via: 'pago_movil' }) });
    expect(res.json()).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bnc' });
    const monto = pagar({ via: 'pago_movil' }).monto.valor;
    expect(t.emu.bnc.ledger.balanceOf(cuenta)).toBeCloseTo(own - monto, 2);
    expect(t.emu.bnc.ledger.balanceOf(t.emu.bnc.ledger.merchantAccount)).toBeCloseTo(switchOwn, 2);
    const saldo = await t.sw.gateway.app.inject({ method: 'GET', url: `/switch/v1/saldo?cuenta=${cuenta}`, headers });
    expect(saldo.statusCode, saldo.body).toBe(200);
    expect(saldo.json()).toMatchObject({ cuenta, disponible: t.emu.bnc.ledger.balanceOf(cuenta) });
  });
});

describe('bank connectors from the environment (no emulator mode)', () => {
  it('without bank variables: the simulated bank only, no connector, no emulator', async () => {
    const sw = await startEmbeddedSwitch({ log: createLogger('test', 'silent'), env: {} });
    try {
      expect(sw.emulators).toBeNull();
      expect(sw.banks.connected).toEqual({ test: [], live: [] });
      expect(sw.routing.test.map((b) => b.banco)).toEqual(['bnc']);
    } finally {
      await sw.close();
    }
  });

  it('a bank whose variables are set is served: PLAZA_TEST_* pointing at a Plaza emulator started apart', async () => {
    const emulator = await startPlazaEmulator({
      port: 0,
      credentials: { apiKey: 'env-key', apiSecret: 'env-secret' },
      settleDelayMs: null,
    });
    const sw = await startEmbeddedSwitch({
      log: createLogger('test', 'silent'),
      env: {
        SWITCH_TEST_BANKS: 'banco_plaza',
        PLAZA_TEST_URL: emulator.url,
        PLAZA_TEST_API_KEY: 'env-key',
        PLAZA_TEST_API_SECRET: 'env-secret',
        PLAZA_TEST_RIF: 'J123456789',
        PLAZA_TEST_ACCOUNT: '01380000000000000001',
        PLAZA_TEST_PHONE: '04140000138',
      },
    });
    try {
      expect(sw.emulators).toBeNull();
      expect(sw.banks.connected).toEqual({ test: ['banco_plaza'], live: [] });
      const { switchKey } = await seedDemoMerchant(sw.store);
      const res = await sw.gateway.app.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        headers: { 'x-switch-key': switchKey },
        payload: pagar(),
      });
      expect(res.json()).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'banco_plaza', intentos: 1 });
      expect(emulator.controls.orderCount()).toBe(1);
    } finally {
      await sw.close();
      await emulator.close();
    }
  });
});
