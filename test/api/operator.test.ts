import { afterEach, describe, expect, it } from 'vitest';
import { PUBLIC_DESTINATIONS_ONLY } from '@switch/platform/config/webhooks';
import { startTestSwitch, type TestSwitch } from './helpers';

const ADMIN = 'operator-token-0123456789';
const bearer = { authorization: `Bearer ${ADMIN}` };

/** Hardening the edge, finding 4: operator surfaces live on their own port, guarded. */
describe('operator surfaces are not on the merchant port', () => {
  let t: TestSwitch | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('the merchant port answers 404 in the house body for /metrics, /admin, /healthz and /readyz', async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN } });
    for (const url of ['/metrics', '/admin/v1/merchants', '/admin', '/healthz', '/readyz']) {
      for (const headers of [{}, bearer]) {
        const res = await t.inject({ method: 'GET', url, headers });
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toEqual({ error: 'NOT_FOUND' });
      }
    }
    const created = await t.inject({ method: 'POST', url: '/admin/v1/merchants', headers: bearer, payload: { id: 'x', nombre: 'X' } });
    expect(created.statusCode).toBe(404);
    expect(await t.sw.store.merchants.get('x')).toBeNull();
    // The merchant API, docs and MCP stay where they were.
    expect((await t.get('/switch/v1/bancos')).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
  });

  it('the operator port serves /metrics, /healthz, /readyz and the admin API', async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN } });
    const metrics = await t.operator({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('http_requests_total');
    expect((await t.operator({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.operator({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    expect((await t.operator({ method: 'GET', url: '/admin/v1/merchants', headers: bearer })).statusCode).toBe(200);
    // The merchant API is not on the operator port.
    expect((await t.operator({ method: 'GET', url: '/switch/v1/bancos', headers: { 'x-switch-key': t.key } })).statusCode).toBe(404);
  });

  it('a key revoked through the admin API is refused at once, although the gateway had it cached', async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN } });
    const issued = await t.operator({
      method: 'POST',
      url: `/admin/v1/merchants/${t.merchantId}/keys`,
      headers: bearer,
      payload: { mode: 'test' },
    });
    expect(issued.statusCode).toBe(201);
    const { id, x_switch_key: key } = issued.json() as { id: string; x_switch_key: string };
    expect((await t.get('/switch/v1/bancos', key)).statusCode).toBe(200);
    const revoked = await t.operator({ method: 'DELETE', url: `/admin/v1/merchants/${t.merchantId}/keys/${id}`, headers: bearer });
    expect(revoked.statusCode).toBe(200);
    expect((await t.get('/switch/v1/bancos', key)).statusCode).toBe(401);
    // The merchant's other key keeps working.
    expect((await t.get('/switch/v1/bancos')).statusCode).toBe(200);
  });

  it('admin routes are not enumerable: an unknown /admin path answers exactly like a known one without the token', async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN } });
    const known = await t.operator({ method: 'GET', url: '/admin/v1/merchants' });
    for (const url of [
      '/admin/v1/nope',
      '/admin/v1/merchants/x/secret-thing',
      '/admin',
      '/admin/v2/merchants',
      '/admin/v1/merchants?x=1',
      '/%61dmin/v1/merchants',
      '//admin/v1/merchants',
      '/ADMIN/v1/merchants',
    ]) {
      const res = await t.operator({ method: 'GET', url, remoteAddress: '10.9.9.9' });
      expect(res.statusCode, url).toBe(known.statusCode);
      expect(res.body, url).toBe(known.body);
      expect(res.body).toBe('{"error":"unauthorized"}');
    }
    // With the token, an unknown path is simply not found.
    expect((await t.operator({ method: 'GET', url: '/admin/v1/nope', headers: bearer })).statusCode).toBe(404);
  });

  it('failed token attempts are limited per source address: 429 with retry-after; the right token still passes (it was locked out)', async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN, adminMaxFailures: 3, adminLockoutSeconds: 60 } });
    const from = (remoteAddress: string, headers: Record<string, string>) =>
      t!.operator({ method: 'GET', url: '/admin/v1/merchants', headers, remoteAddress });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7', { authorization: `Bearer guess-${i}` })).statusCode).toBe(401);
    const locked = await from('203.0.113.7', { authorization: 'Bearer guess-4' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ error: 'RATE_LIMITED' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    // The operator with the valid token is never locked out by bad tokens from the same address.
    expect((await from('203.0.113.7', bearer)).statusCode).toBe(200);
    expect((await from('203.0.113.7', { authorization: 'Bearer guess-5' })).statusCode).toBe(429);
    // Another address is not affected.
    expect((await from('203.0.113.8', bearer)).statusCode).toBe(200);
  });

  it("a merchant's nombre with a bidi override or a zero-width character → 400 naming it; Spanish names pass", async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN } });
    const create = (id: string, nombre: string) =>
      t!.operator({ method: 'POST', url: '/admin/v1/merchants', headers: bearer, payload: { id, nombre } });
    for (const nombre of ['Tienda\u202eodnum', 'Tienda\u200dX', '\ufeffTienda']) {
      const res = await create('invisible', nombre);
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().detail)).toEqual(['nombre']);
    }
    expect(await t.sw.store.merchants.get('invisible')).toBeNull();
    expect((await create('panaderia', 'Panadería Núñez & Güell, C.A.')).statusCode).toBe(201);
  });

  it('a webhook to an internal address is refused at registration, test mode too (finding 9, issue 26 item 6)', async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN, webhookDestinations: PUBLIC_DESTINATIONS_ONLY } });
    for (const url of [
      'http://[::ffff:127.0.0.1]/hooks',
      'http://[::ffff:a9fe:a9fe]/',
      'http://10.0.0.1/x',
      'http://198.18.0.1/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::]/',
    ]) {
      const res = await t.operator({
        method: 'POST',
        url: '/admin/v1/merchants/demo/webhooks',
        headers: bearer,
        payload: { mode: 'live', url },
      });
      expect(res.statusCode, url).toBe(422);
      expect(res.json(), url).toMatchObject({ error: 'DESTINATION_REFUSED' });
      const test = await t.operator({
        method: 'POST',
        url: '/admin/v1/merchants/demo/webhooks',
        headers: bearer,
        payload: { mode: 'test', url },
      });
      expect(test.statusCode, `test ${url}`).toBe(422);
    }
    expect(await t.sw.store.webhooks.listForMerchant('demo')).toEqual([]);
  });
});
