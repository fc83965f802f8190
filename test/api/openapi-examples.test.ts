import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { issueKey } from '@switch/usecases/onboarding';
import { startTestSwitch, type TestSwitch } from './helpers';

/**
 * The `/docs` "Try it out" examples, replayed: every request example of the served document, sent as
 * it is with a test key, must succeed; its answer must have the shape of the documented example.
 */
type Example = { value: unknown };
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; example?: string }[];
  requestBody?: { content: Record<string, { examples?: Record<string, Example> }> };
  responses: Record<string, { content?: Record<string, { examples?: Record<string, Example> }> }>;
};

type Response = Operation['responses'][string];
/** The documented answer's media: JSON, or the CSV of an export. */
const media = (r: Response | undefined) => r?.content?.['application/json'] ?? r?.content?.['text/csv'];
/** The success answer of an operation: 200, or 201/202 for a route that creates or queues. */
const success = (op: Operation): [string, Response | undefined] =>
  Object.entries(op.responses).find(([status]) => /^2\d\d$/.test(status)) ?? ['200', undefined];

let t: TestSwitch;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  t = await startTestSwitch();
  paths = (await t.get('/openapi.json', null)).json().paths;
});
afterAll(() => t?.close());

describe('every example of /openapi.json works against the switch with a test key', () => {
  it('the document has request examples for every operation with a body, and response examples for every operation', () => {
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (op.requestBody)
          expect(Object.keys(op.requestBody.content['application/json']?.examples ?? {}), `${method} ${path}`).not.toEqual([]);
        expect(Object.keys(media(success(op)[1])?.examples ?? {}), `${method} ${path}`).not.toEqual([]);
        for (const p of op.parameters ?? [])
          if ((p.in === 'query' && p.name !== 'cursor') || p.in === 'path') expect(p.example, `${path} ${p.name}`).toBeDefined();
      }
    }
  });

  it('each request example (sent twice: the second is a replay) succeeds', async () => {
    const sent: string[] = [];
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        const examples = Object.entries(op.requestBody?.content['application/json']?.examples ?? {});
        const [status, ok] = success(op);
        const responses = Object.values(media(ok)?.examples ?? {});
        // Fields every documented answer of the operation shows: a real answer has them all.
        const shown = responses.map((r) => Object.keys((Array.isArray(r.value) ? r.value[0] : r.value) as object));
        const send = async (label: string, body?: unknown) => {
          const query = (op.parameters ?? [])
            .filter((p) => p.in === 'query' && p.example !== undefined)
            .map((p) => `${p.name}=${encodeURIComponent(p.example!)}`);
          const filled = (op.parameters ?? [])
            .filter((p) => p.in === 'path')
            .reduce((url, p) => url.replace(`{${p.name}}`, encodeURIComponent(p.example ?? '')), path);
          const url = query.length ? `${filled}?${query.join('&')}` : filled;
          for (const attempt of [1, 2]) {
            const res = await t.inject({
              method: method.toUpperCase() as 'GET',
              url,
              headers: { 'x-switch-key': t.key },
              ...(body === undefined ? {} : { payload: body as object }),
            });
            expect(res.statusCode, `${op.operationId} ${label} (attempt ${attempt}): ${res.body}`).toBe(Number(status));
            // A CSV export: its header line is the documented one.
            if (ok?.content?.['text/csv']) {
              expect(res.headers['content-type']).toMatch(/^text\/csv/);
              expect(res.body.split('\r\n')[0], op.operationId).toBe((responses[0]!.value as string).split('\r\n')[0]);
              continue;
            }
            const answer = res.json();
            // An empty list (no endpoints yet on a fresh switch) is a success with nothing to compare.
            const first = Array.isArray(answer) ? answer[0] : answer;
            if (first === undefined) continue;
            const fields = Object.keys(first);
            expect(
              shown.some((documented) => documented.every((f) => fields.includes(f))),
              `${op.operationId} ${label}: ${fields}`,
            ).toBe(true);
            // A money example sent again is the same operation, said by the replay header. The
            // verification example finds nothing (NO_ENCONTRADO), an answer never kept: asked again.
            const kept = op.operationId !== 'reverso' && op.operationId !== 'verificarPago';
            if (attempt === 2 && (body as { idempotency_key?: string } | undefined)?.idempotency_key && kept) {
              expect(res.headers['idempotent-replayed'], `${op.operationId} ${label}`).toBe('true');
            }
          }
          sent.push(`${op.operationId}:${label}`);
        };
        if (examples.length === 0) await send('parameters');
        for (const [name, example] of examples) await send(name, example.value);
      }
    }
    expect(sent.map((s) => s.split(':')[0])).toEqual(
      expect.arrayContaining([
        'cobrarToken',
        'cobrar',
        'pagar',
        'reverso',
        'consultar',
        'listarBancos',
        'consultarSaldo',
        'listarMovimientos',
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
      ]),
    );
  });

  it('the sandbox example operation, endpoint and delivery exist for test keys only: a live key gets 404 for them', async () => {
    const live = (await issueKey(t.sw.store, t.merchantId, 'live')).switchKey;
    for (const id of ['txn_ejemplo', 'txn_ejemplo_reverso']) {
      expect((await t.post('/switch/v1/consultar', { id })).statusCode, id).toBe(200);
      const res = await t.post('/switch/v1/consultar', { id }, live);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
    }
    const reverse = await t.post('/switch/v1/reverso', { idempotency_key: randomUUID(), id: 'txn_ejemplo' }, live);
    expect(reverse.statusCode).toBe(404);
    for (const [method, url] of [
      ['GET', '/switch/v1/transacciones/txn_ejemplo'],
      ['GET', '/switch/v1/transacciones/txn_ejemplo/entregas'],
      ['PATCH', '/switch/v1/webhooks/we_ejemplo'],
      ['POST', '/switch/v1/webhooks/we_ejemplo/rotar-secreto'],
      ['DELETE', '/switch/v1/webhooks/we_ejemplo'],
      ['GET', '/switch/v1/webhooks/we_ejemplo/entregas'],
      ['POST', '/switch/v1/entregas/txn_ejemplo.v1.we_ejemplo/reenviar'],
    ] as const) {
      const res = await t.inject({
        method,
        url,
        headers: { 'x-switch-key': live },
        ...(method === 'PATCH' ? { payload: { active: false } } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json(), `${method} ${url}`).toMatchObject({ error: 'NOT_FOUND' });
    }
    // The sample endpoint is an answer, never one of the merchant's endpoints, even after a "delete".
    expect(
      (await t.inject({ method: 'DELETE', url: '/switch/v1/webhooks/we_ejemplo', headers: { 'x-switch-key': t.key } })).statusCode,
    ).toBe(200);
    expect((await t.get('/switch/v1/webhooks')).json().map((e: { id: string }) => e.id)).not.toContain('we_ejemplo');
    expect((await t.sw.store.webhooks.get('we_ejemplo')) ?? null).toBeNull();
    // Nothing is stored for the test-mode answers either.
    const before = t.footprint();
    await t.post('/switch/v1/reverso', { idempotency_key: randomUUID(), id: 'txn_ejemplo' });
    await t.expectNothingSince(before);
  });
});
