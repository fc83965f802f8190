import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLogger,
  createMerchant,
  envReader,
  idempotencyScope,
  issueKey,
  loadRoutingTable,
  MemoryBus,
  MemoryStore,
  SecretBox,
} from '@switch/shared';
import { buildGateway, loadGatewayConfig } from '@switch/gateway';
import { seedDemoMerchant } from '@switch/embedded';
import { cobrarBody, pagarBody, startTestSwitch, telefono, tokenBody, type TestSwitch } from './helpers';
import { dereferenced } from './openapi-doc';

/**
 * Hardening the edge (the findings of an attack on `npm start`): no client input reaches a 5xx or
 * the banks unchecked, every error is in the house body, and refused requests are throttled before
 * any store work. Each test here failed on the code before the fix.
 */

const MONEY_PATHS = ['/switch/v1/pagar', '/switch/v1/cobrar', '/switch/v1/cobrar/token', '/switch/v1/reverso'] as const;
const bodyFor = (path: string): Record<string, unknown> =>
  path.endsWith('/pagar')
    ? pagarBody()
    : path.endsWith('/cobrar')
      ? cobrarBody()
      : path.endsWith('/token')
        ? tokenBody()
        : { idempotency_key: pagarBody().idempotency_key, id: 'txn_x', concepto: 'Reverso' };

describe('hostile bodies', () => {
  let t: TestSwitch;
  beforeAll(async () => {
    t = await startTestSwitch();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Sends raw bytes as JSON, expects `status` with the house body, and that nothing was stored. */
  async function refusedRaw(url: string, payload: string | Buffer, status: number, contentType = 'application/json') {
    const before = t.footprint();
    const res = await t.inject({ method: 'POST', url, payload, headers: { 'x-switch-key': t.key, 'content-type': contentType } });
    expect(res.statusCode, res.body).toBe(status);
    await t.expectNothingSince(before);
    return res.json() as { error: string; message?: string; detail?: Record<string, string> };
  }

  it.each(MONEY_PATHS)('JSON nested 3,500 levels deep in a field of %s → 400 VALIDATION, not 500', async (path) => {
    const body = JSON.stringify(bodyFor(path)).replace(/^\{/, `{"extra":${'['.repeat(3500)}${']'.repeat(3500)},`);
    const json = await refusedRaw(path, body, 400);
    expect(json.error).toBe('VALIDATION');
    expect(Object.keys(json.detail!)).toEqual([`extra${'.0'.repeat(31)}`]);
    expect(Object.values(json.detail!).join(' ')).toMatch(/deeper than 32/);
  });

  it('nesting within the bound is parsed as before (33 levels refused, 32 not)', async () => {
    const nest = (n: number) => `${'['.repeat(n - 1)}${']'.repeat(n - 1)}`;
    const ok = JSON.stringify(pagarBody()).replace(/^\{/, `{"extra":${nest(31)},`);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/switch/v1/pagar',
          payload: ok,
          headers: { 'x-switch-key': t.key, 'content-type': 'application/json' },
        })
      ).statusCode,
    ).toBe(200);
    await refusedRaw('/switch/v1/pagar', JSON.stringify(pagarBody()).replace(/^\{/, `{"extra":${nest(33)},`), 400);
  });

  it('invalid UTF-8 in nombre → 400 naming the field (it was replaced by U+FFFD and paid)', async () => {
    const text = JSON.stringify(pagarBody({ beneficiario: telefono({ nombre: 'Ana XX' }) }));
    const at = Buffer.from(text).indexOf('XX');
    const raw = Buffer.from(text);
    raw[at] = 0xc3; // a lead byte followed by an ASCII byte: not UTF-8
    const json = await refusedRaw('/switch/v1/pagar', raw, 400);
    expect(json).toEqual({ error: 'VALIDATION', detail: { 'beneficiario.nombre': 'must be valid UTF-8' } });
  });

  it.each([
    ['a lone surrogate', '"Ana \\ud800 Pérez"', /lone surrogate/],
    ['NUL', '"Ana\\u0000Pérez"', /control characters/],
    ['CR LF', '"Ana\\r\\nX-Header: 1"', /control characters/],
    ['a C1 control', '"Ana\\u0085"', /control characters/],
    ['DEL', '"Ana\\u007f"', /control characters/],
    ['U+2028', '"Ana\\u2028"', /control characters/],
  ])('%s in nombre → 400 naming the field', async (_label, nombre, reason) => {
    const text = JSON.stringify(pagarBody({ ordenante: telefono({ nombre: 'PLACEHOLDER' }) })).replace('"PLACEHOLDER"', nombre);
    const json = await refusedRaw('/switch/v1/pagar', text, 400);
    expect(Object.keys(json.detail!)).toEqual(['ordenante.nombre']);
    expect(json.detail!['ordenante.nombre']).toMatch(reason);
  });

  it.each([
    ['NUL', '\\u0000'],
    ['a C1 control (NEL)', '\\u0085'],
    ['a C1 control (CSI)', '\\u009b'],
    ['U+2028', '\\u2028'],
    ['U+2029', '\\u2029'],
  ])('%s in concepto → 400 naming the field (C1 and the separators were paid)', async (_label, char) => {
    const text = JSON.stringify(pagarBody({ concepto: 'PLACEHOLDER' })).replace('PLACEHOLDER', `Pago${char}x`);
    const json = await refusedRaw('/switch/v1/pagar', text, 400);
    expect(json.detail).toEqual({ concepto: expect.stringMatching(/control characters/) });
  });

  it('a surrogate pair (an emoji) is text, not an error', async () => {
    const res = await t.post('/switch/v1/pagar', pagarBody({ beneficiario: telefono({ nombre: 'Ana 😀' }) }));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('duplicate keys → 400 naming the key path (last-one-wins paid 99,999)', async () => {
    const text = JSON.stringify(pagarBody()).replace(/"monto":\{[^}]*\}/, '"monto":{"valor":1},"monto":{"valor":99999}');
    expect(await refusedRaw('/switch/v1/pagar', text, 400)).toEqual({ error: 'VALIDATION', detail: { monto: 'duplicate key' } });
    const nested = JSON.stringify(pagarBody()).replace('"valor":125.5', '"valor":1,"valor":99999');
    expect(await refusedRaw('/switch/v1/pagar', nested, 400)).toEqual({ error: 'VALIDATION', detail: { 'monto.valor': 'duplicate key' } });
    // The same key spelled with an escape is the same key.
    const escaped = JSON.stringify(pagarBody()).replace('"concepto"', '"concepto":"x","\\u0063oncepto"');
    expect((await refusedRaw('/switch/v1/pagar', escaped, 400)).detail).toEqual({ concepto: 'duplicate key' });
  });

  it.each(['application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json;charset="UTF-16LE"'])(
    'content-type %s → 415 UNSUPPORTED_MEDIA_TYPE',
    async (contentType) => {
      const body = Buffer.from(JSON.stringify(pagarBody()), contentType.includes('16') ? 'utf16le' : 'latin1');
      const json = await refusedRaw('/switch/v1/pagar', body, 415, contentType);
      expect(json.error).toBe('UNSUPPORTED_MEDIA_TYPE');
    },
  );

  it('a second charset parameter naming another charset → 415 (the first one alone was read)', async () => {
    const json = await refusedRaw('/switch/v1/pagar', JSON.stringify(pagarBody()), 415, 'application/json; charset=utf-8; charset=latin1');
    expect(json.error).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('charset=utf-8 (any case) is accepted', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/switch/v1/pagar',
      payload: JSON.stringify(pagarBody()),
      headers: { 'x-switch-key': t.key, 'content-type': 'application/json; charset=UTF-8' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('malformed JSON → 400 in the house body, nothing stored', async () => {
    expect(await refusedRaw('/switch/v1/pagar', '{"monto":', 400)).toEqual({ error: 'VALIDATION', detail: { body: 'must be valid JSON' } });
  });

  it('405 on DELETE /switch/v1/pagar, with allow and the house body', async () => {
    const res = await t.inject({ method: 'DELETE', url: '/switch/v1/pagar', headers: { 'x-switch-key': t.key } });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.json()).toMatchObject({ error: 'METHOD_NOT_ALLOWED' });
  });

  it('QUERY or PUT with a bad body on a known path → 405 all the same', async () => {
    for (const method of ['QUERY', 'PUT'] as const) {
      const res = await t.inject({
        method,
        url: '/switch/v1/bancos',
        payload: '{',
        headers: { 'x-switch-key': t.key, 'content-type': 'application/json' },
      });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
    const bare = await t.inject({ method: 'QUERY', url: '/switch/v1/bancos', headers: { 'x-switch-key': t.key } });
    expect(bare.statusCode).toBe(405);
  });

  it('control characters in an unknown (ignored) field are not refused', async () => {
    const res = await t.post('/switch/v1/pagar', { ...pagarBody(), nota: 'a\u0000b\r\n' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a URL that cannot be decoded → 400 in the house body', async () => {
    const res = await t.inject({ method: 'GET', url: '/switch/v1/%E0%A4%A', headers: { 'x-switch-key': t.key } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'VALIDATION', detail: { url: 'is not a valid URL' } });
  });

  it('every answer carries cache-control: no-store (200, 400, 401, 404, 405)', async () => {
    const answers = [
      await t.post('/switch/v1/pagar', pagarBody()),
      await t.post('/switch/v1/pagar', { nada: 1 }),
      await t.post('/switch/v1/pagar', pagarBody(), null),
      await t.get('/switch/v1/nada'),
      await t.inject({ method: 'PUT', url: '/switch/v1/pagar' }),
      await t.get('/switch/v1/bancos'),
    ];
    for (const res of answers) expect(res.headers['cache-control'], `${res.statusCode}`).toBe('no-store');
  });

  it('no idempotency claim for any refused request', async () => {
    const body = pagarBody();
    const text = JSON.stringify(body).replace(/"monto":\{[^}]*\}/, '"monto":{"valor":1},"monto":{"valor":99999}');
    await refusedRaw('/switch/v1/pagar', text, 400);
    expect(await t.sw.store.idempotency.get(idempotencyScope(t.merchantId, 'test', 'pagar', body.idempotency_key as string))).toBeNull();
  });
});

describe('throttling before authentication and validation', () => {
  let t: TestSwitch;
  beforeAll(async () => {
    t = await startTestSwitch({ config: { failureLimitPerIpPerMinute: 5, failureLimitPerMerchantPerMinute: 8 } });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Counts store reads of keys: a throttled request must not reach the store. */
  function countKeyLookups(): () => number {
    const store = t.sw.store as unknown as { merchants?: Record<string, (...a: unknown[]) => Promise<unknown>> };
    let n = 0;
    for (const name of Object.keys(store.merchants ?? {})) {
      const original = store.merchants![name]!;
      store.merchants![name] = async (...a: unknown[]) => {
        n++;
        return original.apply(store.merchants, a);
      };
    }
    return () => n;
  }

  it('401s from one address: after the budget, 429 RATE_LIMITED with retry-after, before any store work', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < 5; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        payload: pagarBody(),
        headers: { 'x-switch-key': 'nadie:sk_test_wrong' },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized' });
    }
    const lookups = countKeyLookups();
    const before = t.footprint();
    // Throttled whatever the key, even the right one: the address spent its budget.
    for (const key of ['nadie:sk_test_wrong', t.key]) {
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        payload: pagarBody(),
        headers: { 'x-switch-key': key },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ error: 'RATE_LIMITED' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    expect(lookups()).toBe(0);
    await t.expectNothingSince(before);
    // Another address is not affected.
    expect(
      (await t.inject({ method: 'GET', url: '/switch/v1/bancos', headers: { 'x-switch-key': t.key }, remoteAddress: '203.0.113.8' }))
        .statusCode,
    ).toBe(200);
  });

  it('400s from one address are throttled the same way', async () => {
    const ip = '203.0.113.9';
    for (let i = 0; i < 5; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        payload: { nada: 1 },
        headers: { 'x-switch-key': `otro${i}:sk_test_x` },
        remoteAddress: ip,
      });
      expect([400, 401]).toContain(res.statusCode);
    }
    const res = await t.inject({ method: 'GET', url: '/switch/v1/bancos', headers: { 'x-switch-key': t.key }, remoteAddress: ip });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('failures naming one merchant id from many addresses: throttled per merchant id', async () => {
    const merchant = 'victima';
    for (let i = 0; i < 8; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        payload: pagarBody(),
        headers: { 'x-switch-key': `${merchant}:sk_test_guess${i}` },
        remoteAddress: `198.51.100.${i + 1}`,
      });
      expect(res.statusCode).toBe(401);
    }
    const lookups = countKeyLookups();
    const res = await t.inject({
      method: 'POST',
      url: '/switch/v1/pagar',
      payload: pagarBody(),
      headers: { 'x-switch-key': `${merchant}:sk_test_guess9` },
      remoteAddress: '198.51.100.200',
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error: 'RATE_LIMITED' });
    expect(res.headers['retry-after']).toBeDefined();
    expect(lookups()).toBe(0);
  });

  it('400s of an authenticated merchant are throttled per merchant id', async () => {
    const ips = Array.from({ length: 8 }, (_, i) => `192.0.2.${i + 1}`);
    for (const ip of ips) {
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        payload: { nada: 1 },
        headers: { 'x-switch-key': t.key },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(400);
    }
    const res = await t.inject({
      method: 'POST',
      url: '/switch/v1/pagar',
      payload: pagarBody(),
      headers: { 'x-switch-key': t.key },
      remoteAddress: '192.0.2.100',
    });
    expect(res.statusCode).toBe(429);
  });
  it('404s (unknown routes and unknown ids) from one address are throttled too: scans and id guesses cost the client', async () => {
    const ip = '203.0.113.40';
    // A merchant of its own: the demo merchant spent its failure budget in the test above.
    await createMerchant(t.sw.store, { id: 'adivino', nombre: 'Comercio adivino' });
    const { switchKey } = await issueKey(t.sw.store, 'adivino', 'test');
    for (let i = 0; i < 5; i++) {
      const url = i % 2 ? '/switch/v1/nada' : '/switch/v1/consultar';
      const res =
        i % 2
          ? await t.inject({ method: 'GET', url, headers: { 'x-switch-key': 'escaner:sk_test_x' }, remoteAddress: ip })
          : await t.inject({
              method: 'POST',
              url,
              payload: { id: `txn_${'0'.repeat(31)}${i}` },
              headers: { 'x-switch-key': switchKey },
              remoteAddress: ip,
            });
      expect(res.statusCode, res.body).toBe(404);
    }
    const res = await t.inject({ method: 'GET', url: '/switch/v1/nada', remoteAddress: ip });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('422s refusing the input (a cobrar that does not match its token) spend the merchant failure budget', async () => {
    await createMerchant(t.sw.store, { id: 'desalineado', nombre: 'Comercio desalineado' });
    const { switchKey } = await issueKey(t.sw.store, 'desalineado', 'test');
    const token = tokenBody();
    const first = await t.inject({
      method: 'POST',
      url: '/switch/v1/cobrar/token',
      payload: token,
      headers: { 'x-switch-key': switchKey },
    });
    expect(first.statusCode, first.body).toBe(200);
    for (let i = 0; i < 8; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/cobrar',
        payload: { ...token, otp: '12345678', monto: { valor: 1 + i, moneda: 'VES' } },
        headers: { 'x-switch-key': switchKey },
        remoteAddress: `198.51.100.${50 + i}`,
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ error: 'TOKEN_MISMATCH' });
    }
    const res = await t.inject({
      method: 'GET',
      url: '/switch/v1/bancos',
      headers: { 'x-switch-key': switchKey },
      remoteAddress: '198.51.100.99',
    });
    expect(res.statusCode).toBe(429);
  });
});

describe('behind a load balancer (SWITCH_TRUST_PROXY)', () => {
  it('the failure budget is per client address from x-forwarded-for, not per balancer', async () => {
    const t = await startTestSwitch({ config: { failureLimitPerIpPerMinute: 2, trustProxy: 1 } });
    try {
      const from = (client: string) => ({ 'x-forwarded-for': client, 'x-switch-key': 'nadie:sk_test_x' });
      for (let i = 0; i < 2; i++)
        expect(
          (await t.inject({ method: 'GET', url: '/switch/v1/bancos', headers: from('198.51.100.1'), remoteAddress: '10.0.0.5' }))
            .statusCode,
        ).toBe(401);
      expect(
        (await t.inject({ method: 'GET', url: '/switch/v1/bancos', headers: from('198.51.100.1'), remoteAddress: '10.0.0.5' })).statusCode,
      ).toBe(429);
      // Another client through the same balancer is not throttled.
      expect(
        (
          await t.inject({
            method: 'GET',
            url: '/switch/v1/bancos',
            headers: { 'x-forwarded-for': '198.51.100.2', 'x-switch-key': t.key },
            remoteAddress: '10.0.0.5',
          })
        ).statusCode,
      ).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('request budget per merchant across replicas', () => {
  it('each of N replicas enforces limit/N of SWITCH_RATE_LIMIT_PER_MINUTE, counted before authentication', async () => {
    const t = await startTestSwitch({ config: { rateLimitPerMinute: 12, gatewayReplicas: 3 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) codes.push((await t.get('/switch/v1/bancos')).statusCode);
      expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
      // A request naming the merchant with a wrong key spends the same budget and never reaches the store.
      const res = await t.get('/switch/v1/bancos', `${t.merchantId}:sk_test_wrong`);
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBeDefined();
    } finally {
      await t.close();
    }
  });
});

describe('request budget shared by the live gateways (SWITCH_GATEWAY_REPLICAS=auto)', () => {
  it('with two other gateways beating in the store, a gateway enforces a third of the limit', async () => {
    const store = new MemoryStore();
    const now = new Date().toISOString();
    await store.gatewayReplicas.beat('gw-other-1', now, 15_000);
    await store.gatewayReplicas.beat('gw-other-2', now, 15_000);
    const { switchKey } = await seedDemoMerchant(store);
    const bus = new MemoryBus({});
    const config = { ...loadGatewayConfig(envReader({})), rateLimitPerMinute: 12 };
    expect(config.gatewayReplicas).toBe('auto');
    const gw = await buildGateway({
      store,
      bus,
      routing: loadRoutingTable(envReader({})),
      log: createLogger('test', 'silent'),
      config,
      secrets: SecretBox.ephemeral(),
    });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 6; i++)
        codes.push((await gw.app.inject({ method: 'GET', url: '/switch/v1/bancos', headers: { 'x-switch-key': switchKey } })).statusCode);
      expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await gw.close();
    }
  });
});

describe('OpenAPI states what the server answers', () => {
  let t: TestSwitch;
  beforeAll(async () => {
    t = await startTestSwitch();
  });
  afterAll(async () => {
    await t.close();
  });

  it('every route lists its statuses, with house bodies', async () => {
    const doc = (await t.get('/openapi.json')).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path]![method]!.responses).sort();
    for (const path of ['/switch/v1/pagar', '/switch/v1/cobrar', '/switch/v1/cobrar/token']) {
      expect(statuses(path, 'post')).toEqual(['200', '400', '401', '409', '413', '415', '422', '429', '503']);
    }
    expect(statuses('/switch/v1/reverso', 'post')).toEqual(['200', '400', '401', '404', '409', '413', '415', '429', '503']);
    expect(statuses('/switch/v1/consultar', 'post')).toContain('429');
    expect(statuses('/switch/v1/bancos', 'get')).toEqual(['200', '400', '401', '429', '503']);
    expect(statuses('/switch/v1/movimientos', 'get')).toContain('429');
  });

  it('money precision in a standard keyword, and the statement window in the schema', async () => {
    const text = (await t.get('/openapi.json')).body;
    const doc = dereferenced(JSON.parse(text)) as {
      paths: Record<string, Record<string, { parameters?: { name: string; description?: string }[]; requestBody?: unknown }>>;
    };
    const valor = JSON.stringify(doc.paths['/switch/v1/pagar']!.post!.requestBody);
    expect(valor).toContain('"multipleOf":0.01');
    const params = doc.paths['/switch/v1/movimientos']!.get!.parameters!;
    expect(params.find((p) => p.name === 'desde')!.description).toMatch(/future/);
    expect(params.find((p) => p.name === 'hasta')!.description).toMatch(/31 days/);
  });
});
