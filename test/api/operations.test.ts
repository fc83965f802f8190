import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import { Resultado } from '@switch/core/contracts/operaciones';
import { validatorFor } from '@switch/core/contracts/validation';
import { cobrarBody, cuenta, pagarBody, startTestSwitch, telefono, tokenBody, type TestSwitch } from './helpers';

const isResultado = validatorFor(Resultado);
function resultado(res: { statusCode: number; json(): unknown; body: string }) {
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Resultado;
  expect(isResultado(body), JSON.stringify(isResultado.errors)).toBe(true);
  return body;
}

describe('money operations with the simulated bank (test mode)', () => {
  let t: TestSwitch;
  beforeAll(async () => {
    t = await startTestSwitch();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /switch/v1/pagar', () => {
    it('pago_movil to a telefono settles at once, with the exact SPEC 4.10 shape', async () => {
      const body = pagarBody({ via: 'pago_movil', beneficiario: telefono() });
      const r = resultado(await t.post('/switch/v1/pagar', body));
      expect(r).toEqual({
        id: expect.stringMatching(/^txn_[0-9a-f]{32}$/),
        estado: 'LIQUIDADA',
        banco_usado: 'bnc',
        referencia_banco: `TEST-${body.idempotency_key.slice(0, 8)}`,
        endtoend: null,
        motivo_rechazo: null,
        intentos: 1,
        raw: expect.objectContaining({ simulated: true }),
      });
      // The stored transaction went straight from (new) to LIQUIDADA by the bank's answer.
      const tx = await t.sw.store.transactions.get(r.id);
      expect(tx?.history.map((h) => [h.from, h.to, h.cause])).toEqual([[null, 'LIQUIDADA', 'bank_outcome']]);
      expect(tx?.rail).toBe('pago_movil');
    });

    it('credito_inmediato answers ACEPTADA, then /consultar settles it', async () => {
      const body = pagarBody({ via: 'credito_inmediato' });
      const r = resultado(await t.post('/switch/v1/pagar', body));
      expect(r).toMatchObject({ estado: 'ACEPTADA', banco_usado: 'bnc', endtoend: null, motivo_rechazo: null, intentos: 1 });
      expect(r.referencia_banco).toBe(`TEST-${body.idempotency_key.slice(0, 8)}`);
      const q = resultado(await t.post('/switch/v1/consultar', { id: r.id }));
      expect(q).toMatchObject({
        id: r.id,
        estado: 'LIQUIDADA',
        banco_usado: 'bnc',
        referencia_banco: r.referencia_banco,
        intentos: 1,
        motivo_rechazo: null,
      });
      expect(q.raw).toMatchObject({ simulated: true });
      // Final: a further query answers the same state without asking the bank again.
      const again = resultado(await t.post('/switch/v1/consultar', { id: r.id }));
      expect(again).toEqual(q);
      const tx = await t.sw.store.transactions.get(r.id);
      expect(tx?.statusChecks).toBe(1);
      expect(tx?.history.map((h) => h.to)).toEqual(['ACEPTADA', 'LIQUIDADA']);
    });

    it('a cuenta destination goes by credito_inmediato even when via is pago_movil', async () => {
      const r = resultado(
        await t.post('/switch/v1/pagar', pagarBody({ via: 'pago_movil', beneficiario: cuenta({ valor: '01020000000000000002' }) })),
      );
      expect(r.estado).toBe('ACEPTADA');
      expect((await t.sw.store.transactions.get(r.id))?.rail).toBe('credito_inmediato');
      expect(resultado(await t.post('/switch/v1/consultar', { id: r.id })).estado).toBe('LIQUIDADA');
    });

    it('a telefono without via goes by credito_inmediato (the default)', async () => {
      const { via: _v, ...body } = pagarBody();
      const r = resultado(await t.post('/switch/v1/pagar', body));
      expect(r.estado).toBe('ACEPTADA');
      expect((await t.sw.store.transactions.get(r.id))?.rail).toBe('credito_inmediato');
    });

    it('honours banco_preferido bnc and accepts optional fields left out', async () => {
      const { canal: _c, proposito: _p, ...body } = pagarBody({ banco_preferido: 'bnc', monto: { valor: 0.01 } });
      const r = resultado(await t.post('/switch/v1/pagar', body));
      expect(r).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bnc' });
    });

    it('a banco_preferido that is not enabled is only a hint: routing picks the enabled bank', async () => {
      const r = resultado(await t.post('/switch/v1/pagar', pagarBody({ banco_preferido: 'banco_plaza' })));
      expect(r).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bnc' });
    });
  });

  describe('collections', () => {
    it('token → ACEPTADA; cobrar with the same key → ACEPTADA, another id, same bank; consultar settles only the cobrar', async () => {
      const key = randomUUID();
      const token = resultado(await t.post('/switch/v1/cobrar/token', tokenBody({ idempotency_key: key })));
      expect(token).toMatchObject({
        estado: 'ACEPTADA',
        banco_usado: 'bnc',
        referencia_banco: `TEST-${key.slice(0, 8)}`,
        endtoend: null,
        motivo_rechazo: null,
        intentos: 1,
        raw: expect.objectContaining({ simulated: true }),
      });

      const cobro = resultado(await t.post('/switch/v1/cobrar', cobrarBody({ idempotency_key: key })));
      expect(cobro).toMatchObject({
        estado: 'ACEPTADA',
        banco_usado: token.banco_usado,
        referencia_banco: `TEST-${key.slice(0, 8)}`,
        intentos: 1,
      });
      expect(cobro.id).not.toBe(token.id);
      // The cobrar records the token step of its key.
      const stored = await t.sw.store.transactions.get(cobro.id);
      expect(stored?.relatedId).toBe(token.id);
      expect(stored?.rail).toBe('debito_inmediato');

      expect(resultado(await t.post('/switch/v1/consultar', { id: cobro.id })).estado).toBe('LIQUIDADA');
      // Token operations move no money and are not reconciled: they stay ACEPTADA.
      const tokenAfter = resultado(await t.post('/switch/v1/consultar', { id: token.id }));
      expect(tokenAfter).toEqual(token);
      expect((await t.sw.store.transactions.get(token.id))?.statusChecks).toBe(0);
    });

    it('cobrar without a token step is a C2P with the payer OTP', async () => {
      const r = resultado(await t.post('/switch/v1/cobrar', cobrarBody({ otp: '123456' })));
      expect(r).toMatchObject({ estado: 'ACEPTADA', banco_usado: 'bnc', intentos: 1 });
      const stored = await t.sw.store.transactions.get(r.id);
      expect(stored?.relatedId).toBeNull();
      expect(stored?.rail).toBe('c2p');
    });
  });

  describe('POST /switch/v1/reverso', () => {
    it('of an existing payout → RECHAZADA NO_SOPORTADO on the simulated rail', async () => {
      const pago = resultado(await t.post('/switch/v1/pagar', pagarBody()));
      const r = resultado(await t.post('/switch/v1/reverso', { idempotency_key: randomUUID(), id: pago.id }));
      expect(r).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'NO_SOPORTADO', banco_usado: 'bnc', intentos: 1 });
      expect(r.id).not.toBe(pago.id);
      // The payout itself is untouched.
      expect(resultado(await t.post('/switch/v1/consultar', { id: pago.id })).estado).toBe('LIQUIDADA');
    });

    it('of an unknown id → 404 and nothing stored', async () => {
      const before = t.footprint();
      const res = await t.post('/switch/v1/reverso', { idempotency_key: randomUUID(), id: 'txn_doesnotexist' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
      await t.expectNothingSince(before);
    });

    it("of another merchant's id → 404 and nothing stored", async () => {
      await createMerchant(t.sw.store, { id: 'otro', nombre: 'Otro' });
      const other = await issueKey(t.sw.store, 'otro', 'test');
      const pago = resultado(await t.post('/switch/v1/pagar', pagarBody(), other.switchKey));
      const before = t.footprint();
      const res = await t.post('/switch/v1/reverso', { idempotency_key: randomUUID(), id: pago.id });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
      await t.expectNothingSince(before);
    });
  });

  describe('POST /switch/v1/consultar', () => {
    it('an unknown id → 404 NOT_FOUND', async () => {
      const res = await t.post('/switch/v1/consultar', { id: 'txn_00000000000000000000000000000000' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
    });

    it('a missing id → 400 VALIDATION naming id', async () => {
      const res = await t.post('/switch/v1/consultar', {});
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'VALIDATION', detail: { id: expect.any(String) } });
    });

    it("another merchant's id → 404, exactly as an unknown one", async () => {
      await createMerchant(t.sw.store, { id: 'ajeno', nombre: 'Ajeno' });
      const other = await issueKey(t.sw.store, 'ajeno', 'test');
      const pago = resultado(await t.post('/switch/v1/pagar', pagarBody(), other.switchKey));
      const mine = await t.post('/switch/v1/consultar', { id: pago.id });
      const unknown = await t.post('/switch/v1/consultar', { id: 'txn_unknown' });
      expect(mine.statusCode).toBe(404);
      expect(mine.json().error).toBe('NOT_FOUND');
      expect(Object.keys(mine.json())).toEqual(Object.keys(unknown.json()));
    });

    it("the same merchant's test-mode id with a live key → 404", async () => {
      await createMerchant(t.sw.store, { id: 'dual', nombre: 'Dual' });
      const testKey = await issueKey(t.sw.store, 'dual', 'test');
      const liveKey = await issueKey(t.sw.store, 'dual', 'live');
      const pago = resultado(await t.post('/switch/v1/pagar', pagarBody(), testKey.switchKey));
      const res = await t.post('/switch/v1/consultar', { id: pago.id }, liveKey.switchKey);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('NOT_FOUND');
      expect((await t.post('/switch/v1/consultar', { id: pago.id }, testKey.switchKey)).statusCode).toBe(200);
    });
  });

  describe('GET /switch/v1/bancos', () => {
    it('lists the enabled banks of the key mode', async () => {
      const res = await t.get('/switch/v1/bancos');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([{ banco: 'bnc', capabilities: [...CAPABILITIES] }]);
    });

    it('a live key sees the live catalogue (none enabled by default)', async () => {
      await createMerchant(t.sw.store, { id: 'vivo', nombre: 'Vivo' });
      const live = await issueKey(t.sw.store, 'vivo', 'live');
      const res = await t.get('/switch/v1/bancos', live.switchKey);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });
  });
});

describe('with every bank disabled (SPEC 4.10.6)', () => {
  let t: TestSwitch;
  afterEach(async () => {
    await t.close();
  });

  it('GET /bancos is empty and every money operation is RECHAZADA BANCO_NO_DISPONIBLE, with no bank order', async () => {
    t = await startTestSwitch({ routing: { test: [], live: [] } });
    const bancos = await t.get('/switch/v1/bancos');
    expect(bancos.statusCode).toBe(200);
    expect(bancos.json()).toEqual([]);

    const rejected = {
      estado: 'RECHAZADA',
      motivo_rechazo: 'BANCO_NO_DISPONIBLE',
      banco_usado: null,
      referencia_banco: null,
      endtoend: null,
      intentos: 0,
    };
    const pago = resultado(await t.post('/switch/v1/pagar', pagarBody()));
    expect(pago).toMatchObject(rejected);
    expect(resultado(await t.post('/switch/v1/pagar', pagarBody({ via: 'credito_inmediato' })))).toMatchObject(rejected);
    expect(resultado(await t.post('/switch/v1/cobrar/token', tokenBody()))).toMatchObject(rejected);
    expect(resultado(await t.post('/switch/v1/cobrar', cobrarBody()))).toMatchObject(rejected);
    // Final: a query does not change it.
    expect(resultado(await t.post('/switch/v1/consultar', { id: pago.id }))).toMatchObject(rejected);
    // Nothing reached a bank, so there is nothing to reverse.
    expect(resultado(await t.post('/switch/v1/reverso', { idempotency_key: randomUUID(), id: pago.id }))).toMatchObject({
      estado: 'RECHAZADA',
      motivo_rechazo: 'NO_SOPORTADO',
    });
    expect(t.sw.bank.executedOrders).toBe(0);

    // Account reads find no bank either.
    const saldo = await t.get('/switch/v1/saldo?cuenta=01910000000000000001');
    expect(saldo.statusCode).toBe(422);
    expect(saldo.json()).toMatchObject({ error: 'BANCO_NO_DISPONIBLE' });
  });

  it('a bank enabled without a capability is not used for that operation', async () => {
    t = await startTestSwitch({ routing: { test: [{ banco: 'bnc', capabilities: ['pagar', 'consultar'] }], live: [] } });
    expect((await t.get('/switch/v1/bancos')).json()).toEqual([{ banco: 'bnc', capabilities: ['pagar', 'consultar'] }]);
    expect(resultado(await t.post('/switch/v1/cobrar/token', tokenBody()))).toMatchObject({
      estado: 'RECHAZADA',
      motivo_rechazo: 'BANCO_NO_DISPONIBLE',
    });
    expect(resultado(await t.post('/switch/v1/pagar', pagarBody()))).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bnc' });
    expect(t.sw.bank.executedOrders).toBe(1);
  });
});
