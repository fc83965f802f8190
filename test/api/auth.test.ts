import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import { fingerprint } from '@switch/core/contracts/operaciones';
import { announceKeyChange } from '@switch/gateway';
import { pagarBody, startTestSwitch, type TestSwitch } from './helpers';

/** SPEC 5: every refusal is 401 with exactly {"error":"unauthorized"}, and leaves nothing behind. */
describe('authentication (x-switch-key)', () => {
  let t: TestSwitch;
  let secret: string;
  beforeAll(async () => {
    t = await startTestSwitch();
    secret = t.key.slice(t.key.indexOf(':') + 1);
  });
  afterAll(async () => {
    await t.close();
  });

  async function expectUnauthorized(headers: Record<string, string>): Promise<void> {
    for (const [method, url, payload] of [
      ['GET', '/switch/v1/bancos', undefined],
      ['POST', '/switch/v1/pagar', pagarBody()],
      ['POST', '/switch/v1/consultar', { id: 'txn_x' }],
      ['GET', '/switch/v1/saldo?cuenta=01910000000000000001', undefined],
    ] as const) {
      const before = t.footprint();
      const res = await t.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.body).toBe('{"error":"unauthorized"}');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      await t.expectNothingSince(before);
    }
  }

  it('a valid key is accepted', async () => {
    expect((await t.get('/switch/v1/bancos')).statusCode).toBe(200);
  });

  it('missing header → 401', async () => {
    await expectUnauthorized({});
  });

  it.each([
    ['empty', () => ''],
    ['no colon', () => `demo${secret}`],
    ['empty merchant', () => `:${secret}`],
    ['empty secret', () => 'demo:'],
    ['wrong prefix', () => `demo:${secret.replace(/^sk_test_/, 'pk_test_')}`],
    ['secret only', () => secret],
    ['bearer style', () => `Bearer ${secret}`],
  ])('malformed (%s) → 401', async (_label, header) => {
    await expectUnauthorized({ 'x-switch-key': header() });
  });

  it('unknown merchant → 401', async () => {
    await expectUnauthorized({ 'x-switch-key': `nadie:${secret}` });
  });

  it('wrong secret → 401', async () => {
    const wrong = secret.slice(0, -2) + (secret.endsWith('AA') ? 'BB' : 'AA');
    await expectUnauthorized({ 'x-switch-key': `demo:${wrong}` });
    await expectUnauthorized({ 'x-switch-key': `demo:${secret.replace(/^sk_test_/, 'sk_live_')}` });
  });

  it('a key of another merchant → 401', async () => {
    await createMerchant(t.sw.store, { id: 'vecino', nombre: 'Vecino' });
    const other = await issueKey(t.sw.store, 'vecino', 'test');
    const otherSecret = other.switchKey.slice(other.switchKey.indexOf(':') + 1);
    await expectUnauthorized({ 'x-switch-key': `demo:${otherSecret}` });
  });

  it('revoked key → 401', async () => {
    await createMerchant(t.sw.store, { id: 'revocado', nombre: 'Revocado' });
    const { record, switchKey } = await issueKey(t.sw.store, 'revocado', 'test');
    expect((await t.get('/switch/v1/bancos', switchKey)).statusCode).toBe(200);
    await t.sw.store.apiKeys.revoke(record.id, new Date().toISOString());
    // Whoever revokes announces it (the admin API does); gateways forget the cached key at once.
    await announceKeyChange(t.sw.bus, undefined, 'revocado');
    await t.settle();
    await expectUnauthorized({ 'x-switch-key': switchKey });
  });

  it('inactive merchant → 401', async () => {
    await createMerchant(t.sw.store, { id: 'inactivo', nombre: 'Inactivo' });
    const { switchKey } = await issueKey(t.sw.store, 'inactivo', 'test');
    expect((await t.get('/switch/v1/bancos', switchKey)).statusCode).toBe(200);
    await t.sw.store.merchants.setActive('inactivo', false);
    await announceKeyChange(t.sw.bus, undefined, 'inactivo');
    await t.settle();
    await expectUnauthorized({ 'x-switch-key': switchKey });
  });

  it('authentication comes before the body: a bad body without a key is 401, not 400 or 415', async () => {
    const before = t.footprint();
    const bad = await t.inject({ method: 'POST', url: '/switch/v1/pagar', payload: { idempotency_key: 'x' } });
    expect(bad.statusCode).toBe(401);
    const text = await t.inject({ method: 'POST', url: '/switch/v1/pagar', headers: { 'content-type': 'text/plain' }, payload: 'hola' });
    expect(text.statusCode).toBe(401);
    expect(text.body).toBe('{"error":"unauthorized"}');
    await t.expectNothingSince(before);
  });

  describe('the mode comes from the key only (SPEC 5.3)', () => {
    it('a body field mode: "live" or test: false is ignored: still test mode, still the simulated bank', async () => {
      for (const extra of [{ mode: 'live' }, { test: false }, { mode: 'live', test: false }]) {
        const body = { ...pagarBody(), ...extra };
        const before = t.sw.bank.executedOrders;
        const res = await t.post('/switch/v1/pagar', body);
        expect(res.statusCode, res.body).toBe(200);
        const r = res.json();
        expect(r).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bnc', raw: expect.objectContaining({ simulated: true }) });
        expect(t.sw.bank.executedOrders).toBe(before + 1);
        const tx = await t.sw.store.transactions.get(r.id);
        expect(tx?.mode).toBe('test');
        // The field is not kept with the operation either.
        expect(tx?.request.body).not.toHaveProperty('mode');
        expect(tx?.request.body).not.toHaveProperty('test');
      }
    });

    it('an extra mode field does not change the idempotency fingerprint: same answer, not 409', async () => {
      const body = pagarBody();
      const first = await t.post('/switch/v1/pagar', body);
      const before = t.footprint();
      const withMode = await t.post('/switch/v1/pagar', { ...body, mode: 'live' });
      const withTest = await t.post('/switch/v1/pagar', { ...body, test: false });
      expect(withMode.statusCode).toBe(200);
      expect(withMode.body).toBe(first.body);
      expect(withTest.body).toBe(first.body);
      await t.expectNothingSince(before);
      const tx = await t.sw.store.transactions.get(first.json().id);
      const { idempotency_key: _k, ...identity } = body as typeof body & { idempotency_key: string };
      expect(tx?.fingerprint).toBe(fingerprint(identity));
    });
  });
});
