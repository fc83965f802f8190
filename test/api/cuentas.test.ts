import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Movimientos, Saldo, type Movimiento } from '@switch/core/contracts/bancos';
import { validatorFor } from '@switch/core/contracts/validation';
import { CUENTA_ORDENANTE, cuenta, pagarBody, startTestSwitch, venezuelanDay, type TestSwitch } from './helpers';

const isSaldo = validatorFor(Saldo);
const isMovimientos = validatorFor(Movimientos);

describe('account reads with the simulated bank', () => {
  let t: TestSwitch;
  beforeAll(async () => {
    t = await startTestSwitch();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /switch/v1/saldo', () => {
    it('answers a body matching the Saldo schema', async () => {
      const res = await t.get(`/switch/v1/saldo?cuenta=${CUENTA_ORDENANTE}&moneda=VES`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(isSaldo(body), JSON.stringify(isSaldo.errors)).toBe(true);
      expect(body).toMatchObject({ cuenta: CUENTA_ORDENANTE, banco: 'bnc', moneda: 'VES' });
      expect(new Date(body.consultado_en).toISOString()).toBe(body.consultado_en);
    });

    it('moves with a payout from the account', async () => {
      const cuentaPropia = '01910000000000000777';
      const before = (await t.get(`/switch/v1/saldo?cuenta=${cuentaPropia}`)).json();
      await t.post('/switch/v1/pagar', pagarBody({ ordenante: cuenta({ valor: cuentaPropia }), monto: { valor: 10.25, moneda: 'VES' } }));
      const after = (await t.get(`/switch/v1/saldo?cuenta=${cuentaPropia}`)).json();
      expect(after.disponible).toBeCloseTo(before.disponible - 10.25, 2);
    });

    it.each([
      ['missing cuenta', '', ['cuenta']],
      ['cuenta of 19 digits', `?cuenta=${'1'.repeat(19)}`, ['cuenta']],
      ['cuenta with letters', `?cuenta=0191000000000000000X`, ['cuenta']],
      ['moneda USD', `?cuenta=${CUENTA_ORDENANTE}&moneda=USD`, ['moneda']],
    ])('%s → 400 VALIDATION naming the field', async (_label, query, fields) => {
      const before = t.footprint();
      const res = await t.get(`/switch/v1/saldo${query}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('VALIDATION');
      expect(Object.keys(res.json().detail).sort()).toEqual(fields);
      await t.expectNothingSince(before);
    });
  });

  describe('GET /switch/v1/movimientos', () => {
    const cuentaMov = '01910000000000000555';
    const url = (q: Record<string, string | number>) =>
      `/switch/v1/movimientos?${new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]))}`;

    it('shows the debit of a payout from the account, in a body matching the Movimientos schema', async () => {
      const pago = await t.post(
        '/switch/v1/pagar',
        pagarBody({ ordenante: cuenta({ valor: cuentaMov }), monto: { valor: 33.33, moneda: 'VES' }, concepto: 'Nómina marzo' }),
      );
      expect(pago.statusCode).toBe(200);
      const res = await t.get(url({ cuenta: cuentaMov, desde: venezuelanDay(-1) }));
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(isMovimientos(body), JSON.stringify(isMovimientos.errors)).toBe(true);
      expect(body).toMatchObject({
        cuenta: cuentaMov,
        banco: 'bnc',
        moneda: 'VES',
        desde: venezuelanDay(-1),
        hasta: venezuelanDay(),
        siguiente: null,
      });
      const debit = body.movimientos.find((m: Movimiento) => m.referencia === pago.json().referencia_banco);
      expect(debit).toMatchObject({ tipo: 'debito', monto: 33.33, concepto: 'Nómina marzo', fecha: venezuelanDay() });
    });

    it('pages with limite=1, following siguiente until null', async () => {
      const cuentaPag = '01910000000000000444';
      const refs: string[] = [];
      for (let i = 0; i < 3; i++) {
        refs.push(
          (
            await t.post('/switch/v1/pagar', pagarBody({ ordenante: cuenta({ valor: cuentaPag }), monto: { valor: i + 1, moneda: 'VES' } }))
          ).json().referencia_banco,
        );
      }
      const seen: Movimiento[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await t.get(url({ cuenta: cuentaPag, desde: venezuelanDay(), limite: 1, ...(cursor ? { cursor } : {}) }));
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(isMovimientos(body)).toBe(true);
        expect(body.movimientos.length).toBeLessThanOrEqual(1);
        seen.push(...body.movimientos);
        cursor = body.siguiente;
        pages++;
        expect(pages).toBeLessThanOrEqual(3);
      } while (cursor !== null);
      expect(seen.map((m) => m.monto)).toEqual([1, 2, 3]);
      expect(seen.map((m) => m.referencia)).toEqual(refs);
    });

    it('an empty window is an empty page', async () => {
      const res = await t.get(url({ cuenta: '01910000000000000333', desde: venezuelanDay(-3), hasta: venezuelanDay(-2) }));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ movimientos: [], siguiente: null });
    });

    it('accepts a window of exactly 31 days and limite 1 and 500', async () => {
      expect((await t.get(url({ cuenta: cuentaMov, desde: venezuelanDay(-30) }))).statusCode).toBe(200);
      expect((await t.get(url({ cuenta: cuentaMov, desde: venezuelanDay(-1), limite: 500 }))).statusCode).toBe(200);
    });

    it.each([
      ['desde missing', { cuenta: cuentaMov }, ['desde']],
      ['desde not a date', { cuenta: cuentaMov, desde: 'ayer' }, ['desde']],
      ['desde impossible', { cuenta: cuentaMov, desde: '2024-02-30' }, ['desde']],
      ['desde in another format', { cuenta: cuentaMov, desde: '01/03/2024' }, ['desde']],
      ['hasta before desde', { cuenta: cuentaMov, desde: venezuelanDay(-2), hasta: venezuelanDay(-3) }, ['hasta']],
      ['a window over 31 days', { cuenta: cuentaMov, desde: venezuelanDay(-31) }, ['hasta']],
      ['a window over 31 days with hasta', { cuenta: cuentaMov, desde: venezuelanDay(-60), hasta: venezuelanDay(-20) }, ['hasta']],
      ['desde in the future', { cuenta: cuentaMov, desde: venezuelanDay(2) }, ['desde']],
      ['limite 0', { cuenta: cuentaMov, desde: venezuelanDay(), limite: 0 }, ['limite']],
      ['limite 501', { cuenta: cuentaMov, desde: venezuelanDay(), limite: 501 }, ['limite']],
      ['limite not a number', { cuenta: cuentaMov, desde: venezuelanDay(), limite: 'diez' }, ['limite']],
      ['limite negative', { cuenta: cuentaMov, desde: venezuelanDay(), limite: -1 }, ['limite']],
      ['a bad cuenta', { cuenta: '123', desde: venezuelanDay() }, ['cuenta']],
      ['a missing cuenta', { desde: venezuelanDay() }, ['cuenta']],
      ['a bad cursor', { cuenta: cuentaMov, desde: venezuelanDay(), cursor: 'no/vale' }, ['cursor']],
      ['a well-formed cursor the bank never gave', { cuenta: cuentaMov, desde: venezuelanDay(), cursor: 'bm9wZQ' }, ['cursor']],
      ['several bad fields', { cuenta: '1', desde: 'x', limite: 0 }, ['cuenta', 'desde', 'limite']],
    ])('%s → 400 VALIDATION naming the field', async (_label, query, fields) => {
      const before = t.footprint();
      const res = await t.get(url(query as Record<string, string>));
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['detail', 'error']);
      expect(body.error).toBe('VALIDATION');
      expect(Object.keys(body.detail).sort()).toEqual(fields);
      await t.expectNothingSince(before);
    });
  });
});
