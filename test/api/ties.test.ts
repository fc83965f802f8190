import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import type { Resultado } from '@switch/core/contracts/operaciones';
import { cobrarBody, cuenta, pagarBody, startTestSwitch, telefono, tokenBody, type TestSwitch } from './helpers';

/** Hardening the edge, finding 7: a collection is tied to its token, a reverse to a settled operation. */
describe('collections and reversals are tied to what they refer to', () => {
  let t: TestSwitch;
  beforeAll(async () => {
    t = await startTestSwitch();
  });
  afterAll(async () => {
    await t.close();
  });
  const ok = (res: { statusCode: number; body: string; json(): unknown }) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Resultado;
  };

  describe('a cobrar must match its token', () => {
    it('another amount → 422 TOKEN_MISMATCH naming monto; nothing stored, nothing sent', async () => {
      const key = randomUUID();
      ok(await t.post('/switch/v1/cobrar/token', tokenBody({ idempotency_key: key, monto: { valor: 75, moneda: 'VES' } })));
      const before = t.footprint();
      const res = await t.post('/switch/v1/cobrar', cobrarBody({ idempotency_key: key, monto: { valor: 9999, moneda: 'VES' } }));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ error: 'TOKEN_MISMATCH', detail: { monto: expect.any(String) } });
      expect(Object.keys((res.json() as { detail: object }).detail)).toEqual(['monto']);
      await t.expectNothingSince(before);
    });

    it('another payer or another collecting account → 422 naming each field', async () => {
      const key = randomUUID();
      ok(await t.post('/switch/v1/cobrar/token', tokenBody({ idempotency_key: key })));
      const before = t.footprint();
      const res = await t.post(
        '/switch/v1/cobrar',
        cobrarBody({
          idempotency_key: key,
          pagador: telefono({ valor: '04149999999' }),
          cobrador: cuenta({ valor: '01910000000000000999' }),
        }),
      );
      expect(res.statusCode).toBe(422);
      const body = res.json() as { error: string; detail: Record<string, string>; message: string };
      expect(body.error).toBe('TOKEN_MISMATCH');
      expect(Object.keys(body.detail).sort()).toEqual(['cobrador', 'pagador']);
      await t.expectNothingSince(before);
    });

    it('the same amount, payer and account → collected as before', async () => {
      const key = randomUUID();
      ok(await t.post('/switch/v1/cobrar/token', tokenBody({ idempotency_key: key, monto: { valor: 75, moneda: 'VES' } })));
      const r = ok(
        await t.post(
          '/switch/v1/cobrar',
          cobrarBody({ idempotency_key: key, monto: { valor: 75, moneda: 'VES' }, concepto: 'otro concepto' }),
        ),
      );
      expect(r.estado).toBe('ACEPTADA');
    });

    it("another merchant's token under the same key does not bind this merchant's cobrar", async () => {
      await createMerchant(t.sw.store, { id: 'ties-otro', nombre: 'Otro' });
      const other = await issueKey(t.sw.store, 'ties-otro', 'test');
      const key = randomUUID();
      ok(
        await t.post('/switch/v1/cobrar/token', tokenBody({ idempotency_key: key, monto: { valor: 75, moneda: 'VES' } }), other.switchKey),
      );
      expect(ok(await t.post('/switch/v1/cobrar', cobrarBody({ idempotency_key: key, monto: { valor: 10, moneda: 'VES' } }))).estado).toBe(
        'ACEPTADA',
      );
    });
  });

  describe('a reverso only of a settled pagar or cobrar', () => {
    const reverse = async (id: string) => {
      const before = t.sw.bank.executedOrders;
      const r = ok(await t.post('/switch/v1/reverso', { idempotency_key: randomUUID(), id }));
      await t.settle();
      return { r, sent: t.sw.bank.executedOrders - before };
    };

    it('of a token → RECHAZADA NO_SOPORTADO, nothing sent to a bank', async () => {
      const token = ok(await t.post('/switch/v1/cobrar/token', tokenBody()));
      const { r, sent } = await reverse(token.id);
      expect(r).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'NO_SOPORTADO', intentos: 0 });
      expect(sent).toBe(0);
    });

    it('of a reverso → RECHAZADA NO_SOPORTADO, nothing sent to a bank', async () => {
      const pago = ok(await t.post('/switch/v1/pagar', pagarBody()));
      expect(pago.estado).toBe('LIQUIDADA');
      const first = await reverse(pago.id);
      const { r, sent } = await reverse(first.r.id);
      expect(r).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'NO_SOPORTADO', intentos: 0 });
      expect(sent).toBe(0);
    });

    it('of an operation not settled (ACEPTADA) → RECHAZADA NO_SOPORTADO, nothing sent to a bank', async () => {
      const pago = ok(await t.post('/switch/v1/pagar', pagarBody({ via: 'credito_inmediato' })));
      expect(pago.estado).toBe('ACEPTADA');
      const { r, sent } = await reverse(pago.id);
      expect(r).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'NO_SOPORTADO', intentos: 0 });
      expect(sent).toBe(0);
    });

    it('of a settled payout → goes to its bank (which answers for its rail)', async () => {
      const pago = ok(await t.post('/switch/v1/pagar', pagarBody()));
      const { r, sent } = await reverse(pago.id);
      expect(r).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'NO_SOPORTADO', banco_usado: 'bnc', intentos: 1 });
      expect(sent).toBe(1);
    });
  });
});
