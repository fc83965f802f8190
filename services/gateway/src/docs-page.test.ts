import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { docsPage, freshIdempotencyKey } from './docs-page';

describe('/docs works the first time', () => {
  it('gives every "Try it out" body a fresh idempotency key (as the page runs it: from its source)', () => {
    // The page gets the function as source text, as @fastify/swagger-ui serialises it.
    const inPage = new Function(`return ${freshIdempotencyKey.toString()}`)() as typeof freshIdempotencyKey;
    const example = JSON.stringify({ idempotency_key: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60', monto: { valor: 150.5 } });
    const first = JSON.parse(inPage({ method: 'POST', body: example }).body);
    const second = JSON.parse(inPage({ method: 'POST', body: example }).body);
    expect(first.idempotency_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.idempotency_key).not.toBe(second.idempotency_key);
    expect(first.monto).toEqual({ valor: 150.5 });
    // Bodies without a key, and GETs, are sent as written.
    expect(inPage({ method: 'POST', body: '{"id":"txn_1"}' }).body).toBe('{"id":"txn_1"}');
    const get: { method: string; body?: unknown } = { method: 'GET' };
    expect(inPage(get)).toEqual({ method: 'GET' });
  });

  it('serves the interceptor in the page and a logo wide enough for the whole name', async () => {
    const app = Fastify();
    await app.register(swagger, { openapi: { info: { title: 't', version: '1' } } });
    await app.register(swaggerUi, docsPage());
    await app.ready();
    const init = (await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' })).body;
    expect(init).toContain('requestInterceptor');
    expect(init).toContain('randomUUID');
    const logo = docsPage().logo;
    const svg = logo && 'content' in logo ? String(logo.content) : '';
    const width = Number(/viewBox="0 0 (\d+) 40"/.exec(svg)![1]);
    // 15 bold characters at 17 px from x=66 need about 66 + 15 × 10.5 px.
    expect(width).toBeGreaterThanOrEqual(66 + 15 * 10.5);
    await app.close();
  });
});
