import { afterEach, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { API_SCHEMAS } from '@switch/core/contracts/api';
import { createLogger } from '@switch/platform/telemetry/logger';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import { cobrarBody, pagarBody, startTestSwitch, tokenBody, type TestSwitch } from './helpers';
import { dereferenced } from './openapi-doc';

let t: TestSwitch | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('rate limit (429)', () => {
  it('the request over the per-minute budget gets 429 RATE_LIMITED with retry-after', async () => {
    t = await startTestSwitch({ config: { rateLimitPerMinute: 2 } });
    expect((await t.get('/switch/v1/bancos')).statusCode).toBe(200);
    expect((await t.post('/switch/v1/pagar', pagarBody())).statusCode).toBe(200);
    const before = t.footprint();
    const third = await t.post('/switch/v1/pagar', pagarBody());
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toMatch(/^[0-9]+$/);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(third.json()).toMatchObject({ error: 'RATE_LIMITED', message: expect.any(String) });
    expect(Object.keys(third.json()).sort()).toEqual(['error', 'message']);
    await t.expectNothingSince(before);
  });

  it('the budget is per merchant and mode: another merchant is not throttled', async () => {
    t = await startTestSwitch({ config: { rateLimitPerMinute: 1 } });
    await createMerchant(t.sw.store, { id: 'otro', nombre: 'Otro' });
    const other = await issueKey(t.sw.store, 'otro', 'test');
    expect((await t.get('/switch/v1/bancos')).statusCode).toBe(200);
    expect((await t.get('/switch/v1/bancos')).statusCode).toBe(429);
    expect((await t.get('/switch/v1/bancos', other.switchKey)).statusCode).toBe(200);
  });
});

describe('documentation', () => {
  const PATHS = {
    '/switch/v1/cobrar/token': 'post',
    '/switch/v1/cobrar': 'post',
    '/switch/v1/pagar': 'post',
    '/switch/v1/consultar': 'post',
    '/switch/v1/reverso': 'post',
    '/switch/v1/bancos': 'get',
    '/switch/v1/saldo': 'get',
    '/switch/v1/movimientos': 'get',
    '/switch/v1/cobros/verificar': 'post',
  } as const;
  /** The merchant objects (transaction list, webhook endpoints, deliveries): test/api/merchant-api.test.ts checks them. */
  const MERCHANT_OBJECT_PATHS = [
    '/switch/v1/transacciones',
    '/switch/v1/transacciones.csv',
    '/switch/v1/transacciones/{id}',
    '/switch/v1/transacciones/{id}/entregas',
    '/switch/v1/webhooks',
    '/switch/v1/webhooks/{id}',
    '/switch/v1/webhooks/{id}/rotar-secreto',
    '/switch/v1/webhooks/{id}/entregas',
    '/switch/v1/entregas/{id}/reenviar',
    // Test mode's sandbox (test/banks/verification.test.ts): it moves no money and takes no key.
    '/switch/v1/sandbox/pago-movil-entrante',
    '/switch/v1/cobros/esperados',
    '/switch/v1/cobros/esperados/{id}',
  ];

  it('/openapi.json (no key) is OpenAPI 3.1 with every path, its request schema, 200 response and the key scheme', async () => {
    t = await startTestSwitch({ config: { adminToken: 'operator-token-0123456789' } });
    const res = await t.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    // Named schemas are references to components.schemas: read through them.
    const doc = dereferenced(res.json());
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.components.securitySchemes.switchKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-switch-key' });
    expect(Object.keys(doc.paths).sort()).toEqual([...Object.keys(PATHS), ...MERCHANT_OBJECT_PATHS].sort());
    for (const [path, method] of Object.entries(PATHS)) {
      const op = doc.paths[path][method];
      expect(op, path).toBeDefined();
      expect(op.security, path).toEqual([{ switchKey: [] }]);
      expect(op.responses['200'], path).toBeDefined();
      expect(op.responses['200'].content['application/json'].schema, path).toBeTypeOf('object');
      expect(op.responses['401'], path).toBeDefined();
      if (method === 'post') {
        const schema = op.requestBody.content['application/json'].schema;
        expect(schema.type, path).toBe('object');
        expect(schema.required, path).toContain(path === '/switch/v1/consultar' ? 'id' : 'idempotency_key');
        expect(op.responses['400'], path).toBeDefined();
      }
    }
    // Query parameters of the account reads.
    const names = (path: string) => doc.paths[path].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(names('/switch/v1/saldo')).toEqual(expect.arrayContaining(['query:cuenta', 'query:moneda']));
    expect(names('/switch/v1/movimientos')).toEqual(
      expect.arrayContaining(['query:cuenta', 'query:desde', 'query:hasta', 'query:limite', 'query:cursor']),
    );
    // The money contract in the request schemas.
    const pagar = doc.paths['/switch/v1/pagar'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(pagar.properties)).toEqual(
      expect.arrayContaining([
        'idempotency_key',
        'monto',
        'concepto',
        'canal',
        'banco_preferido',
        'ordenante',
        'beneficiario',
        'proposito',
        'via',
      ]),
    );
    expect(doc.paths['/switch/v1/cobrar'].post.requestBody.content['application/json'].schema.required).toContain('otp');
    // Operator and internal routes are not part of the merchant API.
    const text = res.body;
    expect(text).not.toContain('/admin');
    expect(text).not.toContain('/healthz');
    expect(text).not.toContain('/openapi.json');
  });

  it('/docs (no key) serves the interactive documentation, titled as this switch, loading the published document', async () => {
    t = await startTestSwitch();
    for (const url of ['/docs/', '/docs']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body.toLowerCase(), url).toContain('<html');
      expect(res.body, url).toContain('<title>Switch de pagos API — documentation</title>');
      expect(res.body, url).not.toContain('Swagger UI');
    }
    // The page loads ./json: the same document as /openapi.json (named schemas, examples, webhooks).
    const page = (await t.inject({ method: 'GET', url: '/docs/json' })).json();
    const served = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(page).toEqual(served);
  });

  it('/openapi.json: operationIds, named components with $refs, the replay header, webhooks, server, contact, license', async () => {
    t = await startTestSwitch();
    const doc = (await t.inject({ method: 'GET', url: '/openapi.json', headers: { host: 'pagos.test:8443' } })).json();
    const operations = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
      Object.values(item),
    );
    expect(operations.map((o) => o.operationId).sort()).toEqual(
      [
        'cobrar',
        'cobrarToken',
        'consultar',
        'consultarSaldo',
        'listarBancos',
        'listarMovimientos',
        'pagar',
        'reverso',
        'listarTransacciones',
        'exportarTransacciones',
        'detalleTransaccion',
        'listarEntregasTransaccion',
        'listarWebhooks',
        'crearWebhook',
        'actualizarWebhook',
        'rotarSecretoWebhook',
        'eliminarWebhook',
        'listarEntregasWebhook',
        'reenviarEntrega',
        'verificarPago',
        'simularPagoMovilEntrante',
        'crearCobroEsperado',
        'listarCobrosEsperados',
        'detalleCobroEsperado',
      ].sort(),
    );
    expect(Object.keys(doc.components.schemas).sort()).toEqual(Object.keys(API_SCHEMAS).sort());
    const pagar = doc.paths['/switch/v1/pagar'].post;
    expect(pagar.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PagarRequest' });
    expect(pagar.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Resultado' });
    expect(pagar.responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/IdempotencyConflictError' });
    expect(doc.components.schemas.PagarRequest.properties.ordenante).toEqual({ $ref: '#/components/schemas/Instrumento' });
    expect(doc.components.schemas.PagarRequest.properties.monto).toEqual({ $ref: '#/components/schemas/Monto' });
    const crear = doc.paths['/switch/v1/webhooks'].post;
    expect(crear.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookEndpointCreateRequest' });
    expect(crear.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookEndpointWithSecret' });
    expect(doc.paths['/switch/v1/transacciones'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Transacciones',
    });
    expect(doc.paths['/switch/v1/transacciones/{id}/entregas'].get.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/WebhookEntrega' },
    });
    expect(pagar.responses['200'].headers['idempotent-replayed'].schema).toEqual({ type: 'string', enum: ['true'] });
    // Not a money operation: no replay header, only the key's request budget (and retry-after on 429).
    expect(Object.keys(doc.paths['/switch/v1/consultar'].post.responses['200'].headers)).toEqual([
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
    ]);
    expect(Object.keys(doc.paths['/switch/v1/consultar'].post.responses['429'].headers)).toEqual([
      'retry-after',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
    ]);
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'cobro_esperado.pago_parcial',
      'cobro_esperado.recibido',
      'cobro_esperado.sobrepago',
      'cobro_esperado.vencido',
      'transaccion.aprobada',
      'transaccion.liquidada',
      'transaccion.rechazada',
    ]);
    expect(doc.webhooks['cobro_esperado.recibido'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/WebhookCobroEsperado',
    });
    const esperado = doc.paths['/switch/v1/cobros/esperados'].post;
    expect(esperado.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CobroEsperadoRequest' });
    expect(esperado.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CobroEsperado' });
    const headers = doc.webhooks['transaccion.liquidada'].post.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(headers).toEqual([
      'header:x-service-event',
      'header:x-service-signature',
      'header:webhook-id',
      'header:webhook-timestamp',
      'header:webhook-signature',
    ]);
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://pagos.test:8443' })]);
    expect(doc.info.contact).toMatchObject({ url: 'http://pagos.test:8443/docs' });
    expect(doc.info.license).toEqual({ name: 'Apache 2.0', identifier: 'Apache-2.0' });
  });
});

describe('gateway /readyz (operator port)', () => {
  it('answers 200 when the store answers, and 503 in the house body when its ping never resolves', async () => {
    t = await startTestSwitch();
    expect((await t.operator({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    t.sw.store.ping = () => new Promise<void>(() => {}); // a store behind a dead link: no answer, no error
    const res = await t.operator({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
  });
});

describe('admin / onboarding API', () => {
  const ADMIN = 'operator-token-0123456789';
  const bearer = { authorization: `Bearer ${ADMIN}` };

  it('creates a merchant, issues a key that works, revokes it (then 401), registers a webhook', async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN } });
    const merchant = await t.operator({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: bearer,
      payload: { id: 'tienda', nombre: 'Tienda Uno' },
    });
    expect(merchant.statusCode, merchant.body).toBe(201);
    expect(merchant.json()).toMatchObject({ id: 'tienda', nombre: 'Tienda Uno', active: true });
    const dup = await t.operator({
      method: 'POST',
      url: '/admin/v1/merchants',
      headers: bearer,
      payload: { id: 'tienda', nombre: 'Otra' },
    });
    expect(dup.statusCode).toBe(409);

    const issued = await t.operator({ method: 'POST', url: '/admin/v1/merchants/tienda/keys', headers: bearer, payload: { mode: 'test' } });
    expect(issued.statusCode, issued.body).toBe(201);
    const key = issued.json();
    expect(key.x_switch_key).toMatch(/^tienda:sk_test_/);
    expect(key).not.toHaveProperty('secretHash');
    expect((await t.get('/switch/v1/bancos', key.x_switch_key)).statusCode).toBe(200);

    const listed = await t.operator({ method: 'GET', url: '/admin/v1/merchants/tienda/keys', headers: bearer });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([expect.objectContaining({ id: key.id, mode: 'test', active: true })]);
    const secret = key.x_switch_key.slice('tienda:'.length);
    expect(listed.body).not.toContain(secret);
    expect(listed.body).not.toContain('secretHash');

    const revoked = await t.operator({ method: 'DELETE', url: `/admin/v1/merchants/tienda/keys/${key.id}`, headers: bearer });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ id: key.id, active: false });
    const after = await t.get('/switch/v1/bancos', key.x_switch_key);
    expect(after.statusCode).toBe(401);
    expect(after.body).toBe('{"error":"unauthorized"}');
    expect((await t.operator({ method: 'DELETE', url: '/admin/v1/merchants/tienda/keys/key_nope', headers: bearer })).statusCode).toBe(404);

    const hook = await t.operator({
      method: 'POST',
      url: '/admin/v1/merchants/tienda/webhooks',
      headers: bearer,
      payload: { mode: 'test', url: 'https://tienda.invalid/hooks', events: ['transaccion.liquidada'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const endpoint = hook.json();
    expect(endpoint.secret).toMatch(/^whsec_.{16,}/);
    expect(endpoint).toMatchObject({ url: 'https://tienda.invalid/hooks', events: ['transaccion.liquidada'], mode: 'test' });
    const hooks = await t.operator({ method: 'GET', url: '/admin/v1/merchants/tienda/webhooks', headers: bearer });
    expect(hooks.statusCode).toBe(200);
    expect(hooks.json()).toEqual([expect.objectContaining({ id: endpoint.id, url: 'https://tienda.invalid/hooks' })]);
    expect(hooks.json()[0]).not.toHaveProperty('secret');
    expect(hooks.body).not.toContain(endpoint.secret);

    // A bad request to the admin API is a 400 in the house style; an unknown merchant a 404.
    const bad = await t.operator({
      method: 'POST',
      url: '/admin/v1/merchants/tienda/webhooks',
      headers: bearer,
      payload: { mode: 'test', url: 'ftp://x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'VALIDATION', detail: { url: expect.any(String) } });
    expect(
      (await t.operator({ method: 'POST', url: '/admin/v1/merchants/nadie/keys', headers: bearer, payload: { mode: 'test' } })).statusCode,
    ).toBe(404);
  });

  it('a wrong or missing bearer token → 401, and nothing is created', async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN, adminMaxFailures: 100 } });
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: ADMIN },
      { authorization: `Bearer ${ADMIN}x` },
      { authorization: `Basic ${ADMIN}` },
    ]) {
      const res = await t.operator({ method: 'POST', url: '/admin/v1/merchants', headers, payload: { id: 'intruso', nombre: 'Intruso' } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized' });
      expect((await t.operator({ method: 'GET', url: '/admin/v1/merchants', headers })).statusCode).toBe(401);
    }
    expect(await t.sw.store.merchants.get('intruso')).toBeNull();
    // A merchant key is not an operator token.
    expect((await t.operator({ method: 'GET', url: '/admin/v1/merchants', headers: { 'x-switch-key': t.key } })).statusCode).toBe(401);
  });

  it('is closed (401 to every request) when no admin token is configured', async () => {
    t = await startTestSwitch({ config: { adminToken: undefined } });
    for (const headers of [{}, bearer]) {
      const res = await t.operator({ method: 'POST', url: '/admin/v1/merchants', headers, payload: { id: 'tienda', nombre: 'Tienda' } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'unauthorized' });
      expect((await t.operator({ method: 'GET', url: '/admin/v1/merchants', headers })).statusCode).toBe(401);
    }
    expect(await t.sw.store.merchants.get('tienda')).toBeNull();
  });
});

describe('logs', () => {
  it('never contain the API secret, an OTP or a webhook secret; request lines carry a reqId', async () => {
    let captured = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        captured += chunk.toString();
        done();
      },
    });
    const ADMIN = 'operator-token-0123456789';
    t = await startTestSwitch({ log: createLogger('test', 'trace', sink), config: { logRequests: true, adminToken: ADMIN } });
    const secret = t.key.slice(t.key.indexOf(':') + 1);
    const OTP = '73915248';

    await t.get('/switch/v1/bancos');
    await t.post('/switch/v1/cobrar/token', tokenBody());
    await t.post('/switch/v1/cobrar', cobrarBody({ otp: OTP }));
    await t.post('/switch/v1/cobrar', cobrarBody({ otp: OTP, monto: { valor: -1 } })); // refused: 400
    await t.post('/switch/v1/pagar', pagarBody(), `demo:${secret.slice(0, -1)}X`); // refused: 401
    await t.inject({ method: 'GET', url: '/switch/v1/bancos', headers: { 'x-switch-key': t.key, authorization: `Bearer ${secret}` } });
    const hook = await t.inject({
      method: 'POST',
      url: '/admin/v1/merchants/demo/webhooks',
      headers: { authorization: `Bearer ${ADMIN}` },
      payload: { mode: 'test', url: 'https://demo.invalid/h' },
    });
    const webhookSecret = hook.json().secret as string;
    const issued = await t.operator({
      method: 'POST',
      url: '/admin/v1/merchants/demo/keys',
      headers: { authorization: `Bearer ${ADMIN}` },
      payload: { mode: 'live' },
    });
    const liveSecret = (issued.json().x_switch_key as string).split(':')[1]!;
    await t.settle();

    expect(captured.length).toBeGreaterThan(0);
    for (const [label, value] of [
      ['API secret', secret],
      ['API secret body', secret.slice('sk_test_'.length)],
      ['OTP', OTP],
      ['admin token', ADMIN],
      ['webhook secret', webhookSecret],
      ['issued live secret', liveSecret],
    ] as const) {
      expect(captured.includes(value), `${label} found in the logs`).toBe(false);
    }
    const lines = captured
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const requestLines = lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed');
    expect(requestLines.length).toBeGreaterThanOrEqual(2 * 8);
    for (const l of requestLines) expect(l.reqId, JSON.stringify(l)).toMatch(/^req_/);
    // Each request's two lines share one id, and ids differ between requests.
    const ids = new Set(requestLines.map((l) => l.reqId));
    expect(ids.size).toBe(requestLines.length / 2);
  });
});

describe('request ids and metrics', () => {
  it('answers with a request id (the caller’s own when sane) and exports HTTP and operation metrics', async () => {
    const { startEmbeddedSwitch, seedDemoMerchant } = await import('@switch/embedded');
    const sw = await startEmbeddedSwitch({ log: createLogger('t', 'silent'), reconciler: { intervalMs: 3_600_000 } });
    try {
      const { switchKey } = await seedDemoMerchant(sw.store);
      const own = await sw.gateway.app.inject({
        method: 'GET',
        url: '/switch/v1/bancos',
        headers: { 'x-switch-key': switchKey, 'x-request-id': 'merchant-trace-42' },
      });
      expect(own.headers['x-request-id']).toBe('merchant-trace-42');
      const generated = await sw.gateway.app.inject({
        method: 'GET',
        url: '/switch/v1/bancos',
        headers: { 'x-switch-key': switchKey, 'x-request-id': 'bad id with spaces' },
      });
      expect(generated.headers['x-request-id']).toMatch(/^req_[0-9a-f]{16}$/);
      const metricsText = (await sw.gateway.operator.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metricsText).toMatch(
        /http_requests_total\{service="gateway",route="\/switch\/v1\/bancos",method="GET",status_code="200"\} [1-9]/,
      );
      expect(metricsText).toContain('http_request_duration_seconds_bucket');
      expect(metricsText).toContain('process_cpu_seconds_total');
    } finally {
      await sw.close();
    }
  });
});
