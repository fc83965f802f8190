import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, DEFAULT_MERCHANT, type Emulator } from '../emulator';
import { RUTAS } from './protocol';
import { BancaribeConnector } from './connector';
import { c2p, connectorConfig, CREDENTIALS, pagar, ref, statusOf } from '../test/fixtures';

const pagoMovil = (tag: string, monto = 5) => pagar(ref(tag), monto, 'pago_movil', { tipo: 'telefono', valor: '04125550100' });

describe('Bancaribe connector: tokens, credentials and faults', () => {
  let emulator: Emulator;
  /** The bank's clock and the switch's clock, moved by hand. */
  let bankNow = Date.parse('2025-05-05T15:00:00Z');
  let switchNow = bankNow;
  const connectors: BancaribeConnector[] = [];
  const make = (overrides: Parameters<typeof connectorConfig>[1] = {}) => {
    const c = new BancaribeConnector(connectorConfig(emulator, overrides), { now: () => new Date(switchNow) });
    connectors.push(c);
    return c;
  };

  beforeAll(async () => {
    emulator = await startEmulator({ credentials: CREDENTIALS, settleDelayMs: 0, tokenTtlSeconds: 3600, now: () => bankNow });
  });
  afterEach(() => emulator.controls.reset());
  afterAll(async () => {
    await Promise.all(connectors.map((c) => c.close()));
    await emulator.close();
  });

  describe('token lifecycle', () => {
    it('reuses the token, and renews it before expiry (at 90% of expires_in) without a refusal', async () => {
      const connector = make();
      const issued = emulator.controls.tokensIssued();
      const refused = emulator.controls.unauthorizedCount();
      await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta });
      switchNow += 3000_000; // 83% of the lifetime: still good
      await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta });
      expect(emulator.controls.tokensIssued()).toBe(issued + 1);
      switchNow += 300_000; // 92%: renewed before use
      expect((await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta })).ok).toBe(true);
      expect(emulator.controls.tokensIssued()).toBe(issued + 2);
      expect(emulator.controls.unauthorizedCount()).toBe(refused);
    });

    it('renews once on a 401 from the gateway (tokens revoked) and sends that same order once more', async () => {
      const connector = make();
      await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta });
      emulator.controls.revokeTokens();
      const issued = emulator.controls.tokensIssued();
      const orders = emulator.controls.orderCount();
      const o = c2p(ref('revoked'), 9);
      expect(await connector.execute(o)).toMatchObject({ type: 'settled' });
      expect(emulator.controls.tokensIssued()).toBe(issued + 1);
      expect(emulator.controls.callCount(o.orderRef)).toBe(2); // refused at the gateway, then accepted
      expect(emulator.controls.orderCount()).toBe(orders + 1);
    });

    it('renews on a 401 when the bank sees the token expired before the switch does', async () => {
      const connector = make();
      await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta });
      const refused = emulator.controls.unauthorizedCount();
      bankNow += 3601_000;
      expect(await connector.execute(pagoMovil('expired'))).toMatchObject({ type: 'settled' });
      expect(emulator.controls.unauthorizedCount()).toBe(refused + 1);
    });

    it('shares one token request among concurrent calls', async () => {
      const connector = make();
      const issued = emulator.controls.tokensIssued();
      await Promise.all([1, 2, 3].map(() => connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta })));
      expect(emulator.controls.tokensIssued()).toBe(issued + 1);
    });
  });

  describe('credential failures → FIRMA_AUTH, never rerouted', () => {
    it('wrong consumer secret: the token endpoint refuses, no API call is made', async () => {
      const connector = make({ consumerSecret: 'wrong' });
      const before = emulator.controls.requestCount();
      expect(await connector.execute(pagoMovil('badsecret'))).toMatchObject({
        type: 'rejected',
        motivo: 'FIRMA_AUTH',
        raw: {
          status: 401,
          codigo: 'invalid_client',
          descripcion: expect.stringContaining('OAuth client'),
          body: { error: 'invalid_client' },
        },
      });
      expect(await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta })).toMatchObject({ ok: false, motivo: 'FIRMA_AUTH' });
      expect(emulator.controls.requestCount()).toBe(before);
    });

    it('a token refused twice: FIRMA_AUTH with the WSO2 fault, nothing executed', async () => {
      const connector = make();
      emulator.controls.invalidTokensNext(2);
      const orders = emulator.controls.orderCount();
      const o = c2p(ref('refused-twice'), 9);
      expect(await connector.execute(o)).toMatchObject({
        type: 'rejected',
        motivo: 'FIRMA_AUTH',
        raw: {
          status: 401,
          codigo: '900901',
          descripcion: 'Invalid Credentials',
          body: { fault: { code: 900901, message: 'Invalid Credentials' } },
        },
      });
      expect(emulator.controls.callCount(o.orderRef)).toBe(2);
      expect(emulator.controls.orderCount()).toBe(orders);
    });

    it('a status query refused for credentials proves nothing: unknown', async () => {
      const connector = make();
      emulator.controls.invalidTokensNext(2);
      expect((await connector.status(statusOf(c2p(ref('st-auth'), 1)))).type).toBe('unknown');
    });

    it('wrong client hash: the crédito inmediato is refused (63) and the balance does not know the client (103000)', async () => {
      const connector = make({ comercio: { ...connectorConfig(emulator).comercio, hash: 'not-the-hash' } });
      expect(
        await connector.execute(pagar(ref('hash'), 5, 'credito_inmediato', { tipo: 'cuenta', valor: '01020000000000001234' })),
      ).toMatchObject({
        type: 'rejected',
        motivo: 'FIRMA_AUTH',
        raw: { codigo: '63' },
      });
      expect(await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta })).toMatchObject({
        ok: false,
        motivo: 'FIRMA_AUTH',
        raw: { codigo: '103000' },
      });
    });
  });

  describe('transport faults', () => {
    it('timeout after acceptance: unknown, one order executed, no second call; the status query resolves it', async () => {
      const connector = make();
      await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta }); // token in hand
      const orders = emulator.controls.orderCount();
      emulator.controls.timeoutAfterAccept(1);
      const o = pagoMovil('cut');
      expect(await connector.execute(o)).toMatchObject({ type: 'unknown', raw: { orderRef: o.orderRef } });
      expect(emulator.controls.orderCount()).toBe(orders + 1);
      expect(emulator.controls.callCount(o.orderRef)).toBe(1);
      expect(await connector.status(statusOf(o))).toMatchObject({ type: 'settled' });
      expect(emulator.controls.callCount(o.orderRef)).toBe(2); // the query, not a resend
      expect(emulator.controls.orderCount()).toBe(orders + 1);
    });

    it('a slow answer beyond the timeout is unknown', async () => {
      const connector = make({ timeoutMs: 200 });
      await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta });
      emulator.controls.delayNext(1, 1500);
      expect((await connector.execute(pagoMovil('slow'))).type).toBe('unknown');
    });

    it('refused connection: not_processed (may be rerouted)', async () => {
      const connector = make();
      await emulator.controls.refuseConnections(true);
      try {
        expect(await connector.execute(pagoMovil('refused'))).toMatchObject({
          type: 'not_processed',
          raw: { reason: expect.stringContaining('ECONNREFUSED') },
        });
        expect(await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta })).toMatchObject({
          ok: false,
          motivo: 'BANCO_NO_DISPONIBLE',
        });
        expect((await connector.status(statusOf(pagoMovil('refused-status')))).type).toBe('unknown');
      } finally {
        await emulator.controls.refuseConnections(false);
      }
      expect((await connector.execute(pagoMovil('reopened'))).type).toBe('settled');
    });

    it('a 5xx without proof is unknown for a money order; nothing was booked', async () => {
      const connector = make();
      await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta });
      const orders = emulator.controls.orderCount();
      emulator.controls.failNext(1, 500);
      expect(await connector.execute(pagoMovil('500'))).toMatchObject({ type: 'unknown', raw: { status: 500, codigo: '101500' } });
      expect(emulator.controls.orderCount()).toBe(orders);
    });

    it("the gateway's 'cannot reach the backend' proves not processed", async () => {
      const connector = make();
      emulator.controls.backendDown(true);
      expect(await connector.execute(c2p(ref('backend'), 3))).toMatchObject({
        type: 'not_processed',
        raw: { status: 503, codigo: '101503' },
      });
    });

    it('a token endpoint that fails means the order was never sent', async () => {
      const connector = make();
      const before = emulator.controls.requestCount();
      emulator.controls.failNext(1, 503, 'token');
      expect(await connector.execute(pagoMovil('tokenfail'))).toMatchObject({
        type: 'not_processed',
        raw: { reason: expect.stringContaining('token') },
      });
      expect(emulator.controls.requestCount()).toBe(before);
    });
  });

  describe('circuit breaker', () => {
    it('opens after repeated failures, keeps calls away from the bank, and closes after its reset timeout', async () => {
      const connector = make({
        breaker: { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 300, rollingCountTimeoutMs: 10_000 },
      });
      await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta });
      emulator.controls.failNext(10, 502);
      expect((await connector.execute(pagoMovil('br1'))).type).toBe('unknown');
      expect((await connector.execute(pagoMovil('br2'))).type).toBe('unknown');
      expect(connector.breakers.state('pagoB2p')).toBe('open');
      const reached = emulator.controls.requestCount(RUTAS.pagoB2p);
      expect(await connector.execute(pagoMovil('br3'))).toMatchObject({
        type: 'not_processed',
        raw: { reason: expect.stringContaining('circuit breaker open') },
      });
      expect(emulator.controls.requestCount(RUTAS.pagoB2p)).toBe(reached);
      emulator.controls.reset();
      // Other operations keep their own breaker.
      expect((await connector.execute(c2p(ref('br-c2p'), 2))).type).toBe('settled');
      await vi.waitFor(() => expect(connector.breakers.state('pagoB2p')).toBe('half_open'), { timeout: 5000, interval: 25 });
      expect((await connector.execute(pagoMovil('br4'))).type).toBe('settled');
      expect(connector.breakers.state('pagoB2p')).toBe('closed');
    });
  });
});
