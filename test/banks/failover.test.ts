import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBankList } from '@switch/platform/config/routing';
import { registry } from '@switch/platform/telemetry/metrics';
import { EMULATED, othersThan, pagar, startBankSwitch, token, type BankSwitch, type Emulated } from './helpers';

/**
 * Failures of real banks, provoked at their emulators, and what the switch does with the money
 * (DESIGN money-safety rules 3 and 4): reroute a payout only when it provably never reached the bank;
 * never reroute an order whose outcome is unknown, a credential problem, or a collection.
 */
describe('failover through the real bank connectors (emulator mode)', () => {
  let t: BankSwitch;
  beforeAll(async () => {
    t = await startBankSwitch();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe.each(EMULATED)('%s', (banco) => {
    it('refuses connections → the payout is rerouted to another bank (intentos 2); the first bank executed nothing', async () => {
      const controls = t.emu[banco].controls;
      await controls.refuseConnections(true);
      try {
        const before = t.counts();
        const res = await t.post('/switch/v1/pagar', pagar({ banco_preferido: banco }));
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ estado: 'LIQUIDADA', intentos: 2 });
        expect(body.banco_usado).not.toBe(banco);
        const after = t.counts();
        expect(after[banco]).toEqual(before[banco]);
        const used = body.banco_usado as Emulated | 'bnc';
        expect(after[used].orders).toBe(before[used].orders + 1);
      } finally {
        await controls.refuseConnections(false);
      }
    });

    it('times out after accepting → DESCONOCIDA, intentos 1, no reroute; /consultar resolves it from the bank', async () => {
      const before = t.counts();
      t.emu[banco].controls.timeoutAfterAccept(1);
      const res = await t.post('/switch/v1/pagar', pagar({ banco_preferido: banco }));
      expect(res.statusCode, res.body).toBe(200);
      const unknown = res.json();
      expect(unknown).toMatchObject({ estado: 'DESCONOCIDA', banco_usado: banco, intentos: 1 });
      await t.sw.bus.drained();
      // The order reached the bank once; no other bank was asked to move the money.
      const after = t.counts();
      expect(after[banco].orders).toBe(before[banco].orders + 1);
      expect(othersThan(after, banco)).toEqual(othersThan(before, banco));

      const resolved = await t.post('/switch/v1/consultar', { id: unknown.id });
      expect(resolved.json()).toMatchObject({ id: unknown.id, estado: 'LIQUIDADA', banco_usado: banco, intentos: 1 });
      // Asking is not resending: still one order at the bank.
      expect(t.counts()[banco].orders).toBe(before[banco].orders + 1);
    });

    it('a collection is never rerouted: refused connection on cobrar → RECHAZADA BANCO_NO_DISPONIBLE', async () => {
      const controls = t.emu[banco].controls;
      await controls.refuseConnections(true);
      try {
        const before = t.counts();
        // A C2P with the key the payer got from his own bank (no token step).
        const res = await t.post('/switch/v1/cobrar', { ...token({ banco_preferido: banco }), otp: '12345678' });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'BANCO_NO_DISPONIBLE', banco_usado: banco, intentos: 1 });
        expect(t.counts()).toEqual(before);
      } finally {
        await controls.refuseConnections(false);
      }
    });
  });
});

describe('wrong bank credentials (emulator mode)', () => {
  let t: BankSwitch;
  beforeAll(async () => {
    t = await startBankSwitch({
      env: {
        PLAZA_TEST_API_SECRET: 'not-the-secret',
        BANCARIBE_TEST_CONSUMER_SECRET: 'not-the-secret',
        ACTIVO_TEST_API_KEY: 'not-the-key',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(EMULATED)('%s → RECHAZADA FIRMA_AUTH, not rerouted, no other bank asked', async (banco) => {
    const before = t.counts();
    const res = await t.post('/switch/v1/pagar', pagar({ banco_preferido: banco }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'FIRMA_AUTH', banco_usado: banco, intentos: 1 });
    const after = t.counts();
    expect(after[banco].orders).toBe(before[banco].orders);
    expect(othersThan(after, banco)).toEqual(othersThan(before, banco));
  });
});

describe('circuit breaker (emulator mode)', () => {
  let t: BankSwitch;
  beforeAll(async () => {
    // Opens after 3 calls in the window when half fail, and stays open for the whole test.
    t = await startBankSwitch({
      env: {
        PLAZA_BREAKER_VOLUME: '3',
        PLAZA_BREAKER_ERROR_PERCENT: '50',
        PLAZA_BREAKER_RESET_MS: '600000',
        PLAZA_BREAKER_WINDOW_MS: '600000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('opens after repeated failures, the router hears it, and the next payout goes around the bank without calling it', async () => {
    const plaza = t.sw.banks.services.banco_plaza!.connectors.test!;
    await t.emu.banco_plaza.controls.refuseConnections(true);
    for (let i = 0; i < 3; i++) {
      const res = await t.post('/switch/v1/pagar', pagar({ banco_preferido: 'banco_plaza' }));
      expect(res.json()).toMatchObject({ estado: 'LIQUIDADA', intentos: 2 });
    }
    await t.sw.bus.drained();
    expect(plaza.breakers.state('p2p')).toBe('open');
    expect(await registry.getSingleMetricAsString('switch_breaker_state')).toMatch(
      /switch_breaker_state\{bank="banco_plaza",operation="p2p"\} [1-9]/,
    );

    // The bank is back, but its breaker is open: the router does not even try it.
    await t.emu.banco_plaza.controls.refuseConnections(false);
    const before = t.counts();
    const res = await t.post('/switch/v1/pagar', pagar({ banco_preferido: 'banco_plaza' }));
    expect(res.json()).toMatchObject({ estado: 'LIQUIDADA', intentos: 1 });
    expect(res.json().banco_usado).not.toBe('banco_plaza');
    expect(t.counts().banco_plaza).toEqual(before.banco_plaza);
  });
});

describe('no capable bank enabled (emulator mode)', () => {
  let t: BankSwitch;
  beforeAll(async () => {
    // Every bank enabled, none for payouts (SPEC 4.10.6).
    const test = parseBankList(
      'SWITCH_TEST_BANKS',
      'bnc:saldo+movimientos,banco_plaza:cobrar+token,bancaribe:cobrar+consultar,banco_activo:saldo',
    );
    t = await startBankSwitch({ routing: { test, live: [] } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a payout → RECHAZADA BANCO_NO_DISPONIBLE, no bank asked', async () => {
    const before = t.counts();
    const res = await t.post('/switch/v1/pagar', pagar({ banco_preferido: 'banco_plaza' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'BANCO_NO_DISPONIBLE', banco_usado: null, intentos: 0 });
    await t.sw.bus.drained();
    expect(t.counts()).toEqual(before);
  });
});
