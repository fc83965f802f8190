import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createLogger } from '@switch/platform/telemetry/logger';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import { ERROR_CATALOGUE, type ErrorCode, HOUSE_ERROR_CODES, merchantCodesOf } from '@switch/core/contracts/errors';
import { idempotencyScope } from '@switch/core/contracts/operaciones';
import { loadRoutingTable } from '@switch/platform/config/routing';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { buildGateway, loadGatewayConfig } from '@switch/gateway';
import { seedDemoMerchant } from '@switch/embedded';
import { cobrarBody, pagarBody, startTestSwitch, telefono, tokenBody, type TestSwitch } from './helpers';
import { dereferenced } from './openapi-doc';

/**
 * Hardening the edge (the findings of an attack on `npm start`): no client input reaches a 5xx or
 * the banks unchecked, every error is in the house body, and refused requests are throttled before
 * any store work. Each test here failed on the code before the fix.
 */

/** An error response's body schema, as far as its `error` code goes. */
type ErrorSchema = { properties: { error: { const?: string; enum?: string[] } } };

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

  const INVISIBLE: [string, string][] = [
    ['U+202E (right-to-left override)', '\\u202e'],
    ['U+202A (left-to-right embedding)', '\\u202a'],
    ['U+2066 (isolate)', '\\u2066'],
    ['U+200F (right-to-left mark)', '\\u200f'],
    ['U+061C (Arabic letter mark)', '\\u061c'],
    ['U+200B (zero-width space)', '\\u200b'],
    ['U+200D (zero-width joiner)', '\\u200d'],
    ['U+2060 (word joiner)', '\\u2060'],
    ['U+FEFF (byte order mark)', '\\ufeff'],
    ['U+00AD (soft hyphen)', '\\u00ad'],
    ['U+FDD0 (noncharacter)', '\\ufdd0'],
    ['U+FFFF (noncharacter)', '\\uffff'],
    ['U+1FFFE (noncharacter, astral)', '\\ud83f\\udffe'],
    ['U+E000 (private use)', '\\ue000'],
    ['U+F0000 (private use, plane 15)', '\\udb80\\udc00'],
    ['U+E0041 (tag character)', '\\udb40\\udc41'],
    ['U+FFF9 (interlinear annotation)', '\\ufff9'],
  ];
  it.each(INVISIBLE)('%s in nombre or concepto → 400 naming the field (it reached bank messages and the panel)', async (_label, char) => {
    for (const [field, body] of [
      ['beneficiario.nombre', pagarBody({ beneficiario: telefono({ nombre: 'PLACEHOLDER' }) })],
      ['concepto', pagarBody({ concepto: 'PLACEHOLDER' })],
    ] as const) {
      const text = JSON.stringify(body).replace('PLACEHOLDER', `Ana${char}Pérez`);
      const json = await refusedRaw('/switch/v1/pagar', text, 400);
      expect(json.detail, field).toEqual({ [field]: expect.stringMatching(/invisible/) });
    }
  });

  it('Spanish text passes: accents, ñ, ü, spaces and common punctuation', async () => {
    const nombre = 'José Ñúñez-Güell, S.A. (Av. 5 #12)';
    const concepto = '¿Pago? ¡Sí! Factura nº 12/3 — 50%';
    const res = await t.post('/switch/v1/pagar', pagarBody({ beneficiario: telefono({ nombre }), concepto }));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a surrogate pair (an emoji) is text to the parser; a text field of the Basic Multilingual Plane refuses it, naming the field', async () => {
    // Bank messages carry BMP text, and beyond it hide tags and private-use glyphs (packages/core/src/contracts/fields.ts).
    const res = await t.post('/switch/v1/pagar', pagarBody({ beneficiario: telefono({ nombre: 'Ana 😀' }) }));
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().detail)).toEqual(['beneficiario.nombre']);
    // Outside the text fields (an unknown field, ignored) it is no error.
    const extra = await t.post('/switch/v1/pagar', { ...pagarBody(), nota: 'Ana 😀' });
    expect(extra.statusCode, extra.body).toBe(200);
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

  it.each([
    ['__proto__', '{"__proto__":{"x":1},'],
    ['beneficiario.__proto__', null],
    ['constructor', '{"constructor":{"prototype":{"x":1}},'],
    ['prototype', '{"prototype":{},'],
  ])("a %s key → 400 naming it, nothing claimed (it became the clone's prototype: 503 and a claim left behind)", async (path, prefix) => {
    const body = pagarBody();
    const text =
      prefix === null
        ? JSON.stringify(body).replace('"beneficiario":{', '"beneficiario":{"__proto__":{"tipo":"cuenta"},')
        : JSON.stringify(body).replace(/^\{/, prefix);
    const json = await refusedRaw('/switch/v1/pagar', text, 400);
    expect(json).toEqual({ error: 'VALIDATION', detail: { [path]: expect.stringMatching(/reserved/) } });
    expect(await t.sw.store.idempotency.get(idempotencyScope(t.merchantId, 'test', 'pagar', body.idempotency_key as string))).toBeNull();
    // The same key with a clean body then runs as a new operation, not a replay.
    const res = await t.post('/switch/v1/pagar', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('no idempotency claim for any refused request', async () => {
    const body = pagarBody();
    const text = JSON.stringify(body).replace(/"monto":\{[^}]*\}/, '"monto":{"valor":1},"monto":{"valor":99999}');
    await refusedRaw('/switch/v1/pagar', text, 400);
    expect(await t.sw.store.idempotency.get(idempotencyScope(t.merchantId, 'test', 'pagar', body.idempotency_key as string))).toBeNull();
  });
});

/** A well-formed key that no merchant holds. */
const WRONG = `nadie:sk_test_${'w'.repeat(32)}`;

describe('throttling never locks out a valid key', () => {
  let t: TestSwitch;
  beforeAll(async () => {
    t = await startTestSwitch({ config: { failureLimitPerIpPerMinute: 5 } });
  });
  afterAll(async () => {
    await t.close();
  });

  const from = (ip: string, key: string | null, over: Partial<InjectOptions> = {}) =>
    t.inject({ method: 'GET', url: '/switch/v1/bancos', headers: key === null ? {} : { 'x-switch-key': key }, remoteAddress: ip, ...over });

  it('130 wrong keys naming a merchant from one address: the real key from that address still passes (it got 429)', async () => {
    const ip = '203.0.113.7';
    const codes: number[] = [];
    for (let i = 0; i < 130; i++) codes.push((await from(ip, `${t.merchantId}:sk_test_wrong${String(i).padStart(24, '0')}`)).statusCode);
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(codes.slice(5))).toEqual(new Set([429]));
    const ok = await from(ip, t.key);
    expect(ok.statusCode, ok.body).toBe(200);
    // A payout too, not only a read.
    const paid = await t.inject({
      method: 'POST',
      url: '/switch/v1/pagar',
      payload: pagarBody(),
      headers: { 'x-switch-key': t.key },
      remoteAddress: ip,
    });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('wrong keys from one address: 429 RATE_LIMITED with retry-after once the budget is spent, nothing stored', async () => {
    const ip = '203.0.113.8';
    for (let i = 0; i < 5; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        payload: pagarBody(),
        headers: { 'x-switch-key': WRONG },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized' });
    }
    const before = t.footprint();
    const res = await t.inject({
      method: 'POST',
      url: '/switch/v1/pagar',
      payload: pagarBody(),
      headers: { 'x-switch-key': WRONG },
      remoteAddress: ip,
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error: 'RATE_LIMITED' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    // No key, or not the shape of one, guesses nothing and costs no lookup: still a plain 401.
    for (const key of [null, 'malformado', 'demo:', ':sk_test_x']) {
      const plain = await t.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        payload: pagarBody(),
        headers: key === null ? {} : { 'x-switch-key': key },
        remoteAddress: ip,
      });
      expect(plain.statusCode, String(key)).toBe(401);
      expect(plain.json()).toEqual({ error: 'unauthorized' });
    }
    await t.expectNothingSince(before);
    // Another address is not affected.
    expect((await from('203.0.113.9', WRONG)).statusCode).toBe(401);
  });

  it('requests without a key or with a malformed one are 401 however many arrive: they spend no budget', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < 200; i++) {
      const res = await t.inject({
        method: 'GET',
        url: '/switch/v1/bancos',
        headers: i % 2 ? { 'x-switch-key': `nokey${i}` } : {},
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(401);
    }
  });

  it("a merchant's own refused requests (400, 404, 422) never throttle its valid requests", async () => {
    await createMerchant(t.sw.store, { id: 'iterando', nombre: 'Comercio que itera' });
    const { switchKey } = await issueKey(t.sw.store, 'iterando', 'test');
    const ip = '192.0.2.1';
    for (let i = 0; i < 120; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        payload: { nada: i },
        headers: { 'x-switch-key': switchKey },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(400);
    }
    for (let i = 0; i < 10; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/consultar',
        payload: { id: `txn_${'0'.repeat(31)}${i}` },
        headers: { 'x-switch-key': switchKey },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(404);
    }
    const token = tokenBody();
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/switch/v1/cobrar/token',
          payload: token,
          headers: { 'x-switch-key': switchKey },
          remoteAddress: ip,
        })
      ).statusCode,
    ).toBe(200);
    for (let i = 0; i < 10; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/cobrar',
        payload: { ...token, otp: '12345678', monto: { valor: 1 + i, moneda: 'VES' } },
        headers: { 'x-switch-key': switchKey },
        remoteAddress: ip,
      });
      expect(res.statusCode, res.body).toBe(422);
    }
    const paid = await t.inject({
      method: 'POST',
      url: '/switch/v1/pagar',
      payload: pagarBody(),
      headers: { 'x-switch-key': switchKey },
      remoteAddress: ip,
    });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('an MCP request with a valid key passes from an address throttled for bad keys', async () => {
    const ip = '203.0.113.30';
    for (let i = 0; i < 6; i++) await from(ip, WRONG);
    expect((await from(ip, WRONG)).statusCode).toBe(429);
    const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const bad = await t.inject({
      method: 'POST',
      url: '/mcp',
      payload: rpc,
      headers: { ...headers, 'x-switch-key': WRONG },
      remoteAddress: ip,
    });
    expect(bad.statusCode).toBe(429);
    const ok = await t.inject({
      method: 'POST',
      url: '/mcp',
      payload: rpc,
      headers: { ...headers, authorization: `Bearer ${t.key}` },
      remoteAddress: ip,
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('request budget per key', () => {
  it('a valid key is limited by its own budget only, with RateLimit headers; wrong keys naming it and other keys spend none of it', async () => {
    const t = await startTestSwitch({ config: { rateLimitPerMinute: 4 } });
    try {
      await createMerchant(t.sw.store, { id: 'vecino', nombre: 'Comercio vecino' });
      const { switchKey: other } = await issueKey(t.sw.store, 'vecino', 'test');
      const ip = '198.51.100.77';
      // Wrong keys naming the merchant, and another merchant's key, from the same address.
      for (let i = 0; i < 10; i++)
        await t.inject({
          method: 'GET',
          url: '/switch/v1/bancos',
          headers: { 'x-switch-key': `${t.merchantId}:sk_test_wrong${String(i).padStart(24, '0')}` },
          remoteAddress: ip,
        });
      for (let i = 0; i < 4; i++)
        expect(
          (await t.inject({ method: 'GET', url: '/switch/v1/bancos', headers: { 'x-switch-key': other }, remoteAddress: ip })).statusCode,
        ).toBe(200);
      const codes: number[] = [];
      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await t.inject({ method: 'GET', url: '/switch/v1/bancos', headers: { 'x-switch-key': t.key }, remoteAddress: ip });
        codes.push(res.statusCode);
        remaining.push(String(res.headers['ratelimit-remaining']));
        expect(res.headers['ratelimit-limit']).toBe('4');
        expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
        if (res.statusCode === 429) {
          expect(res.json()).toMatchObject({ error: 'RATE_LIMITED' });
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
      }
      expect(codes).toEqual([200, 200, 200, 200, 429]);
      expect(remaining).toEqual(['3', '2', '1', '0', '0']);
    } finally {
      await t.close();
    }
  });

  it('the default budget lets hundreds of requests a minute through under one key (the acceptance suite)', async () => {
    // The failure budgets at their defaults (the helper lifts them out of other suites' way).
    const defaults = Object.entries(loadGatewayConfig({})).filter(([name]) => name.startsWith('failureLimit'));
    const t = await startTestSwitch({ config: Object.fromEntries(defaults) });
    try {
      // 400 requests, half of them refused bodies (a developer iterating): more than any failure budget.
      for (let i = 0; i < 400; i++) {
        const res = i % 2 ? await t.get('/switch/v1/bancos') : await t.post('/switch/v1/pagar', { nada: i });
        expect(res.statusCode).toBe(i % 2 ? 200 : 400);
      }
      expect((await t.post('/switch/v1/pagar', pagarBody())).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('behind a load balancer (SWITCH_TRUST_PROXY)', () => {
  it('the failure budget is per client address from x-forwarded-for, not per balancer', async () => {
    const t = await startTestSwitch({ config: { failureLimitPerIpPerMinute: 2, trustProxy: 1 } });
    try {
      const from = (client: string) => ({ 'x-forwarded-for': client, 'x-switch-key': WRONG });
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

describe('request budget per key across replicas', () => {
  it('each of N replicas enforces limit/N of SWITCH_RATE_LIMIT_PER_MINUTE', async () => {
    const t = await startTestSwitch({ config: { rateLimitPerMinute: 12, gatewayReplicas: 3 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) codes.push((await t.get('/switch/v1/bancos')).statusCode);
      expect(codes).toEqual([200, 200, 200, 200, 429, 429]);
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
    const config = { ...loadGatewayConfig({}), rateLimitPerMinute: 12 };
    expect(config.gatewayReplicas).toBe('auto');
    const gw = await buildGateway({
      store,
      bus,
      routing: loadRoutingTable({}),
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

  it('every error response names its codes from the catalogue, at the catalogue status; the description lists each code', async () => {
    const doc = dereferenced((await t.get('/openapi.json')).json()) as {
      info: { description: string };
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: ErrorSchema }> }> }>>;
    };
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          const error = response.content!['application/json']!.schema.properties.error;
          const codes = error.const !== undefined ? [error.const] : error.enum!;
          expect(codes, `${method} ${path} ${status}`).toEqual(merchantCodesOf(Number(status)));
          for (const code of codes) expect(ERROR_CATALOGUE[code as ErrorCode].status).toBe(Number(status));
        }
      }
    }
    for (const code of HOUSE_ERROR_CODES.filter((c) => !ERROR_CATALOGUE[c].operator)) {
      expect(doc.info.description).toContain(`\`${code}\` (${ERROR_CATALOGUE[code].status})`);
    }
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
