import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import type { Movimiento } from '@switch/core/contracts/bancos';
import { OPENING_BALANCE } from '@switch/bank-sim';
import {
  CUENTA_ORDENANTE,
  cobrarBody,
  cuenta,
  pagarBody,
  startTestSwitch,
  telefono,
  tokenBody,
  venezuelanDay,
  type TestSwitch,
} from './helpers';

const ADMIN = 'operator-token-0123456789';
const bearer = { authorization: `Bearer ${ADMIN}` };

/** Hardening the edge, finding 1: accounts belong to a merchant. */
describe('merchant accounts', () => {
  let t: TestSwitch;
  let otherKey: string;
  beforeAll(async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN } });
    await createMerchant(t.sw.store, { id: 'segundo', nombre: 'Segundo comercio' });
    otherKey = (await issueKey(t.sw.store, 'segundo', 'test')).switchKey;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('test mode: each merchant has its own simulated ledger', () => {
    it("a second merchant never sees the demo merchant's balance or movements of the same account number", async () => {
      const pago = await t.post('/switch/v1/pagar', pagarBody({ monto: { valor: 321.5, moneda: 'VES' } }));
      expect(pago.json().estado).toBe('LIQUIDADA');
      const mine = await t.get(`/switch/v1/movimientos?cuenta=${CUENTA_ORDENANTE}&desde=${venezuelanDay()}`);
      expect(mine.statusCode).toBe(200);
      expect(mine.json().movimientos.some((m: Movimiento) => m.referencia === pago.json().referencia_banco)).toBe(true);
      expect((await t.get(`/switch/v1/saldo?cuenta=${CUENTA_ORDENANTE}`)).json().disponible).toBeLessThan(OPENING_BALANCE);

      const theirs = await t.get(`/switch/v1/movimientos?cuenta=${CUENTA_ORDENANTE}&desde=${venezuelanDay()}`, otherKey);
      expect(theirs.statusCode).toBe(200);
      expect(theirs.json()).toMatchObject({ movimientos: [], siguiente: null });
      expect((await t.get(`/switch/v1/saldo?cuenta=${CUENTA_ORDENANTE}`, otherKey)).json().disponible).toBe(OPENING_BALANCE);
    });
  });

  describe('operator API and live mode', () => {
    let liveKey: string;
    let otherLive: string;
    beforeAll(async () => {
      await createMerchant(t.sw.store, { id: 'vivo', nombre: 'Comercio en vivo' });
      liveKey = (await issueKey(t.sw.store, 'vivo', 'live')).switchKey;
      otherLive = (await issueKey(t.sw.store, 'segundo', 'live')).switchKey;
    });

    it('registers accounts per bank and mode; one holder per account number; lists them', async () => {
      const add = (merchant: string, payload: Record<string, unknown>) =>
        t.operator({ method: 'POST', url: `/admin/v1/merchants/${merchant}/accounts`, headers: bearer, payload });
      const created = await add('vivo', { mode: 'live', banco: 'bnc', cuenta: CUENTA_ORDENANTE, telefono: '04140000191' });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({
        merchantId: 'vivo',
        mode: 'live',
        banco: 'bnc',
        cuenta: CUENTA_ORDENANTE,
        telefono: '04140000191',
      });
      expect((await add('vivo', { mode: 'live', banco: 'bnc', cuenta: CUENTA_ORDENANTE })).statusCode).toBe(409);
      // Another merchant cannot claim it.
      const stolen = await add('segundo', { mode: 'live', banco: 'bnc', cuenta: CUENTA_ORDENANTE });
      expect(stolen.statusCode).toBe(409);
      expect(stolen.json()).toMatchObject({ error: 'ALREADY_EXISTS' });
      // The account number must be one of that bank's.
      const wrongBank = await add('segundo', { mode: 'live', banco: 'banco_plaza', cuenta: '01910000000000000777' });
      expect(wrongBank.statusCode).toBe(400);
      expect(wrongBank.json()).toMatchObject({ error: 'VALIDATION', detail: { cuenta: expect.any(String) } });
      const bad = await add('segundo', { mode: 'live', banco: 'bnc', cuenta: '123' });
      expect(bad.statusCode).toBe(400);
      // The holder's RIF (BNC acts for it) is kept; a malformed one is refused naming the field.
      const withRif = await add('segundo', { mode: 'live', banco: 'bnc', cuenta: '01910000000000000778', rif: 'J000000778' });
      expect(withRif.statusCode, withRif.body).toBe(201);
      expect(await t.sw.store.accounts.find('live', '01910000000000000778')).toMatchObject({ merchantId: 'segundo', rif: 'J000000778' });
      const badRif = await add('segundo', { mode: 'live', banco: 'bnc', cuenta: '01910000000000000779', rif: 'J-0000-779' });
      expect(badRif.statusCode).toBe(400);
      expect(badRif.json()).toMatchObject({ error: 'VALIDATION', detail: { rif: expect.any(String) } });
      expect(await t.sw.store.accounts.find('live', '01910000000000000779')).toBeNull();
      expect((await add('nadie', { mode: 'live', banco: 'bnc', cuenta: CUENTA_ORDENANTE })).statusCode).toBe(404);
      expect((await add('segundo', { mode: 'live', banco: 'bnc', cuenta: '01910000000000000888' })).statusCode).toBe(201);

      const listed = await t.operator({ method: 'GET', url: '/admin/v1/merchants/vivo/accounts?mode=live', headers: bearer });
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toEqual([expect.objectContaining({ cuenta: CUENTA_ORDENANTE, banco: 'bnc' })]);
      expect((await t.operator({ method: 'GET', url: '/admin/v1/merchants/vivo/accounts?mode=test', headers: bearer })).json()).toEqual([]);
    });

    it('live pagar out of an account not registered to the caller → 422 ACCOUNT_NOT_REGISTERED naming ordenante; nothing stored or sent', async () => {
      const before = t.footprint();
      // `segundo` pays out of the account `vivo` registered.
      const res = await t.post('/switch/v1/pagar', pagarBody({ ordenante: cuenta({ valor: CUENTA_ORDENANTE }) }), otherLive);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'ACCOUNT_NOT_REGISTERED', detail: { ordenante: expect.any(String) } });
      // An account nobody registered, and a phone of none of its accounts.
      expect(
        (await t.post('/switch/v1/pagar', pagarBody({ ordenante: cuenta({ valor: '01910000000000000555' }) }), liveKey)).json(),
      ).toMatchObject({ error: 'ACCOUNT_NOT_REGISTERED' });
      expect(
        (await t.post('/switch/v1/pagar', pagarBody({ ordenante: telefono({ valor: '04149999999', banco: '0191' }) }), liveKey)).statusCode,
      ).toBe(422);
      await t.expectNothingSince(before);
    });

    it('live cobrar and cobrar/token into an account not registered to the caller → 422 naming cobrador; nothing stored', async () => {
      const before = t.footprint();
      for (const [url, body] of [
        ['/switch/v1/cobrar/token', tokenBody({ cobrador: cuenta({ valor: CUENTA_ORDENANTE }) })],
        ['/switch/v1/cobrar', cobrarBody({ cobrador: cuenta({ valor: CUENTA_ORDENANTE }) })],
      ] as const) {
        const res = await t.post(url, body, otherLive);
        expect(res.statusCode, url).toBe(422);
        expect(res.json(), url).toMatchObject({ error: 'ACCOUNT_NOT_REGISTERED', detail: { cobrador: expect.any(String) } });
      }
      await t.expectNothingSince(before);
    });

    it("live /saldo and /movimientos of another merchant's (or nobody's) account → 422 naming cuenta, no bank asked", async () => {
      for (const key of [otherLive, liveKey]) {
        const cuentaAjena = key === otherLive ? CUENTA_ORDENANTE : '01910000000000000555';
        const saldo = await t.get(`/switch/v1/saldo?cuenta=${cuentaAjena}`, key);
        expect(saldo.statusCode).toBe(422);
        expect(saldo.json()).toMatchObject({ error: 'ACCOUNT_NOT_REGISTERED', detail: { cuenta: expect.any(String) } });
        const movs = await t.get(`/switch/v1/movimientos?cuenta=${cuentaAjena}&desde=${venezuelanDay()}`, key);
        expect(movs.statusCode).toBe(422);
        expect(movs.json()).toMatchObject({ error: 'ACCOUNT_NOT_REGISTERED' });
      }
    });

    it('live operations with the caller’s own registered account (by number or by its phone) pass the check', async () => {
      // No live bank is enabled here: the operation reaches routing, which finds none.
      const byAccount = await t.post('/switch/v1/pagar', pagarBody({ ordenante: cuenta({ valor: CUENTA_ORDENANTE }) }), liveKey);
      expect(byAccount.statusCode, byAccount.body).toBe(200);
      expect(byAccount.json()).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'BANCO_NO_DISPONIBLE' });
      const byPhone = await t.post(
        '/switch/v1/cobrar/token',
        tokenBody({ cobrador: telefono({ valor: '04140000191', banco: '0191' }) }),
        liveKey,
      );
      expect(byPhone.statusCode, byPhone.body).toBe(200);
      const saldo = await t.get(`/switch/v1/saldo?cuenta=${CUENTA_ORDENANTE}`, liveKey);
      expect(saldo.json()).toMatchObject({ error: 'BANCO_NO_DISPONIBLE' });
    });
  });
});
