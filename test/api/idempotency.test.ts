import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import { idempotencyScope } from '@switch/core/contracts/operaciones';
import { SchemaViolation } from '@switch/core/contracts/errors';
import { TOPICS } from '@switch/core/contracts/topics';
import { CUENTA_ORDENANTE, cobrarBody, pagarBody, startTestSwitch, tokenBody, type TestSwitch } from './helpers';

/** DESIGN rule 5: scope merchant + mode + operation kind + key; a repeat returns the original result. */
describe('idempotency', () => {
  let t: TestSwitch;
  beforeAll(async () => {
    t = await startTestSwitch();
  });
  afterAll(async () => {
    await t.close();
  });

  it('the same key spelled in upper case is the same operation: original answer, not 409', async () => {
    const body = pagarBody({ via: 'pago_movil' });
    const first = await t.post('/switch/v1/pagar', body);
    const before = t.footprint();
    const again = await t.post('/switch/v1/pagar', { ...body, idempotency_key: body.idempotency_key.toUpperCase() });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    await t.expectNothingSince(before);
  });

  it('a repeat with the same key and body gets the identical answer, and nothing runs twice', async () => {
    const body = pagarBody({ via: 'credito_inmediato' });
    const first = await t.post('/switch/v1/pagar', body);
    expect(first.statusCode).toBe(200);
    const before = t.footprint();
    const second = await t.post('/switch/v1/pagar', body);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    await t.expectNothingSince(before);
    const scope = idempotencyScope(t.merchantId, 'test', 'pagar', body.idempotency_key);
    expect((await t.sw.store.idempotency.get(scope))?.txnId).toBe(first.json().id);
  });

  it('a repeat is marked `idempotent-replayed: true`; a first answer, a new key and a refusal are not', async () => {
    for (const [url, make] of [
      ['/switch/v1/pagar', () => pagarBody()],
      ['/switch/v1/cobrar/token', () => tokenBody()],
      ['/switch/v1/cobrar', () => cobrarBody()],
    ] as const) {
      const body = make();
      const first = await t.post(url, body);
      expect(first.statusCode, url).toBe(200);
      expect(first.headers['idempotent-replayed'], url).toBeUndefined();
      const again = await t.post(url, body);
      expect(again.headers['idempotent-replayed'], url).toBe('true');
      expect(again.json().id, url).toBe(first.json().id);
      // Same key, another body: refused, not a replay.
      const conflict = await t.post(url, { ...body, concepto: 'otro concepto' });
      expect(conflict.statusCode, url).toBe(409);
      expect(conflict.headers['idempotent-replayed'], url).toBeUndefined();
    }
    // The cobrar under a token's key is another operation (its own first answer), not a replay of the token.
    const token = tokenBody();
    await t.post('/switch/v1/cobrar/token', token);
    const cobro = await t.post('/switch/v1/cobrar', { ...token, otp: '12345678' });
    expect(cobro.statusCode).toBe(200);
    expect(cobro.headers['idempotent-replayed']).toBeUndefined();
  });

  it('concurrent repeats: one first answer, every other one marked replayed', async () => {
    const body = pagarBody();
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.post('/switch/v1/pagar', body)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
  });

  it('a repeat after the operation moved on returns its current state, still one operation', async () => {
    const body = pagarBody({ via: 'credito_inmediato' });
    const first = (await t.post('/switch/v1/pagar', body)).json();
    expect(first.estado).toBe('ACEPTADA');
    expect((await t.post('/switch/v1/consultar', { id: first.id })).json().estado).toBe('LIQUIDADA');
    const before = t.footprint();
    const again = (await t.post('/switch/v1/pagar', body)).json();
    expect(again).toMatchObject({ id: first.id, estado: 'LIQUIDADA', intentos: 1 });
    await t.expectNothingSince(before);
  });

  it('20 concurrent identical requests → 20 identical answers, one transaction, one bank order', async () => {
    const body = pagarBody();
    const before = t.footprint();
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.post('/switch/v1/pagar', body)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers[0]!.json()).toMatchObject({ estado: 'LIQUIDADA', intentos: 1 });
    await t.settle();
    const after = t.footprint();
    expect(after.transactions - before.transactions).toBe(1);
    expect(after.claims - before.claims).toBe(1);
    expect(after.bankOrders - before.bankOrders).toBe(1);
  });

  it('20 concurrent identical credito_inmediato requests also settle on one order', async () => {
    const body = cobrarBody();
    const before = t.footprint();
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.post('/switch/v1/cobrar', body)));
    expect(new Set(answers.map((a) => `${a.statusCode} ${a.body}`)).size).toBe(1);
    expect(answers[0]!.json().estado).toBe('ACEPTADA');
    await t.settle();
    expect(t.footprint().bankOrders - before.bankOrders).toBe(1);
    expect(t.footprint().transactions - before.transactions).toBe(1);
  });

  it('the same key with a different body → 409 IDEMPOTENCY_CONFLICT, and the original is untouched', async () => {
    const body = pagarBody();
    const first = (await t.post('/switch/v1/pagar', body)).json();
    const before = t.footprint();
    for (const changed of [
      { ...body, monto: { valor: 999, moneda: 'VES' } },
      { ...body, concepto: 'otro concepto' },
      { ...body, beneficiario: { ...body.beneficiario, valor: '04240000000' } },
      { ...body, via: 'credito_inmediato' },
    ]) {
      const res = await t.post('/switch/v1/pagar', changed);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: 'IDEMPOTENCY_CONFLICT', message: expect.any(String) });
    }
    await t.expectNothingSince(before);
    const again = await t.post('/switch/v1/pagar', body);
    expect(again.json()).toEqual(first);
  });

  it('key order and an omitted default (moneda) do not make a different body', async () => {
    const body = pagarBody();
    const first = await t.post('/switch/v1/pagar', body);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const { moneda: _m, ...montoSinMoneda } = body.monto as { valor: number; moneda: string };
    const second = await t.post('/switch/v1/pagar', { ...reordered, monto: montoSinMoneda });
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
  });

  it('the same key for token and cobrar is two operations (no 409)', async () => {
    const key = randomUUID();
    const token = await t.post('/switch/v1/cobrar/token', tokenBody({ idempotency_key: key }));
    const cobro = await t.post('/switch/v1/cobrar', cobrarBody({ idempotency_key: key, monto: { valor: 42, moneda: 'VES' } }));
    expect(token.statusCode).toBe(200);
    expect(cobro.statusCode).toBe(200);
    expect(cobro.json().id).not.toBe(token.json().id);
    // And each repeats on its own.
    expect((await t.post('/switch/v1/cobrar/token', tokenBody({ idempotency_key: key }))).json().id).toBe(token.json().id);
  });

  it('the same key from two merchants is two operations', async () => {
    await createMerchant(t.sw.store, { id: 'segundo', nombre: 'Segundo' });
    const other = await issueKey(t.sw.store, 'segundo', 'test');
    const body = pagarBody();
    const before = t.footprint();
    const a = (await t.post('/switch/v1/pagar', body)).json();
    const b = (await t.post('/switch/v1/pagar', body, other.switchKey)).json();
    expect(a.id).not.toBe(b.id);
    expect(a.estado).toBe('LIQUIDADA');
    expect(b.estado).toBe('LIQUIDADA');
    await t.settle();
    expect(t.footprint().transactions - before.transactions).toBe(2);
    expect(t.footprint().bankOrders - before.bankOrders).toBe(2);
    // The scope is the merchant, not the API key: another key of `segundo` with another body conflicts.
    const c = await t.post(
      '/switch/v1/pagar',
      { ...body, concepto: 'distinto' },
      (await issueKey(t.sw.store, 'segundo', 'test')).switchKey,
    );
    expect(c.statusCode).toBe(409);
  });

  it('the same key in test and live mode of one merchant are separate scopes', async () => {
    await createMerchant(t.sw.store, { id: 'modos', nombre: 'Modos' });
    const testKey = await issueKey(t.sw.store, 'modos', 'test');
    const liveKey = await issueKey(t.sw.store, 'modos', 'live');
    // Live money moves only through the merchant's own registered accounts.
    await t.sw.store.accounts.register({
      merchantId: 'modos',
      mode: 'live',
      banco: 'bnc',
      cuenta: CUENTA_ORDENANTE,
      telefono: null,
      createdAt: new Date().toISOString(),
    });
    const body = pagarBody();
    const test = (await t.post('/switch/v1/pagar', body, testKey.switchKey)).json();
    const live = await t.post('/switch/v1/pagar', { ...body, concepto: 'en vivo' }, liveKey.switchKey);
    expect(live.statusCode).toBe(200);
    // No live bank is enabled by default.
    expect(live.json()).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'BANCO_NO_DISPONIBLE' });
    expect(live.json().id).not.toBe(test.id);
    expect(test.estado).toBe('LIQUIDADA');
    expect((await t.sw.store.transactions.get(live.json().id))?.mode).toBe('live');
  });
});

describe('a publish the bus refuses releases the claim', () => {
  it('the refused request leaves no claim (it answered idempotent-replayed after), and a retry with the same key runs it', async () => {
    const t = await startTestSwitch();
    try {
      const bus = t.sw.bus as { publish: (...a: unknown[]) => Promise<void> };
      const publish = bus.publish.bind(bus);
      let refusals = 1;
      // The bus refuses the first execute command by its schema, before anything is sent.
      bus.publish = async (...a: unknown[]) => {
        const [topic, , value] = a as [{ name: string }, string, { type?: string }];
        if (topic.name === TOPICS.routerInbox.name && value.type === 'execute' && refusals-- > 0)
          throw new SchemaViolation(topic.name, ['/ refused for the test']);
        return publish(...a);
      };
      const body = pagarBody();
      const before = t.footprint();
      const refused = await t.post('/switch/v1/pagar', body);
      expect(refused.statusCode, refused.body).toBe(503);
      expect(await t.sw.store.idempotency.get(idempotencyScope(t.merchantId, 'test', 'pagar', body.idempotency_key))).toBeNull();
      await t.expectNothingSince(before);
      const retry = await t.post('/switch/v1/pagar', body);
      expect(retry.statusCode, retry.body).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect(retry.json()).toMatchObject({ estado: 'LIQUIDADA' });
    } finally {
      await t.close();
    }
  });
});
