import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import { verifyStandardWebhook, verifyWebhook } from '@switch/core/contracts/webhook';
import { pagarBody, startTestSwitch, venezuelanDay, type TestSwitch } from './helpers';

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A local webhook receiver answering `status` (changeable), keeping every request it got. */
async function receiver(): Promise<{ url: string; received: Received[]; status: { code: number }; close(): Promise<void> }> {
  const received: Received[] = [];
  const status = { code: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(status.code).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received, status, close: () => new Promise((r) => server.close(() => r())) };
}

/** The merchant API behind the panel: transactions, webhook endpoints and deliveries (issue: merchant panel). */
describe('merchant API: transacciones, webhooks, entregas', () => {
  let t: TestSwitch;
  let otherKey: string;
  let liveKey: string;
  let hook: Awaited<ReturnType<typeof receiver>>;
  const json = (method: string, url: string, payload?: unknown, key?: string) =>
    t.inject({
      method: method as 'GET',
      url,
      headers: { 'x-switch-key': key ?? t.key },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  beforeAll(async () => {
    t = await startTestSwitch({ config: { webhookRotationOverlapSeconds: 3600 } });
    await createMerchant(t.sw.store, { id: 'otro', nombre: 'Otro comercio' });
    otherKey = (await issueKey(t.sw.store, 'otro', 'test')).switchKey;
    liveKey = (await issueKey(t.sw.store, t.merchantId, 'live')).switchKey;
    hook = await receiver();
  });
  afterAll(async () => {
    await t?.close();
    await hook?.close();
  });

  describe('GET /switch/v1/transacciones', () => {
    const ids: string[] = [];
    const keys: string[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 3; i++) {
        const body = pagarBody();
        const r = await t.post('/switch/v1/pagar', body);
        expect(r.statusCode).toBe(200);
        ids.push(r.json().id);
        keys.push(body.idempotency_key);
      }
    });

    it('lists the payouts newest first with their summary', async () => {
      const r = await json('GET', '/switch/v1/transacciones');
      expect(r.statusCode).toBe(200);
      const page = r.json();
      expect(page.transacciones.slice(0, 3).map((x: { id: string }) => x.id)).toEqual([...ids].reverse());
      expect(page.transacciones[0]).toMatchObject({
        operacion: 'pagar',
        estado: 'LIQUIDADA',
        banco_usado: 'bnc',
        monto: 125.5,
        moneda: 'VES',
        idempotency_key: keys[2],
      });
      expect(page.siguiente).toBeNull();
    });

    it('filters by id, idempotency key, kind, state, bank and day', async () => {
      const only = async (q: string) =>
        (await json('GET', `/switch/v1/transacciones?${q}`)).json().transacciones.map((x: { id: string }) => x.id);
      expect(await only(`id=${ids[1]}`)).toEqual([ids[1]]);
      expect(await only(`idempotency_key=${keys[0]}`)).toEqual([ids[0]]);
      expect(await only('operacion=cobrar')).toEqual([]);
      expect(await only('estado=RECHAZADA')).toEqual([]);
      expect(await only('banco=banco_plaza')).toEqual([]);
      expect(
        (await only(`estado=LIQUIDADA&banco=bnc&operacion=pagar&desde=${venezuelanDay()}&hasta=${venezuelanDay()}`)).length,
      ).toBeGreaterThanOrEqual(3);
      expect(await only(`desde=${venezuelanDay(1)}`)).toEqual([]);
    });

    it('pages through a cursor: every operation once', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const r = await json('GET', `/switch/v1/transacciones?limite=1${cursor ? `&cursor=${cursor}` : ''}`);
        expect(r.statusCode).toBe(200);
        seen.push(...r.json().transacciones.map((x: { id: string }) => x.id));
        cursor = r.json().siguiente;
      } while (cursor);
      expect(seen).toEqual([...new Set(seen)]);
      expect(seen).toEqual(expect.arrayContaining(ids));
    });

    it("never shows another merchant's or the other mode's operations", async () => {
      expect((await json('GET', '/switch/v1/transacciones', undefined, otherKey)).json()).toEqual({ transacciones: [], siguiente: null });
      expect((await json('GET', '/switch/v1/transacciones', undefined, liveKey)).json()).toEqual({ transacciones: [], siguiente: null });
      expect((await json('GET', `/switch/v1/transacciones?id=${ids[0]}`, undefined, otherKey)).json().transacciones).toEqual([]);
      expect((await json('GET', `/switch/v1/transacciones/${ids[0]}`, undefined, otherKey)).statusCode).toBe(404);
      expect((await json('GET', `/switch/v1/transacciones/${ids[0]}`, undefined, liveKey)).json()).toMatchObject({ error: 'NOT_FOUND' });
    });

    it('refuses bad filters with 400 VALIDATION naming the field, and no key with 401', async () => {
      const bad = async (q: string, field: string) => {
        const r = await json('GET', `/switch/v1/transacciones?${q}`);
        expect(r.statusCode, q).toBe(400);
        expect(r.json().error).toBe('VALIDATION');
        expect(Object.keys(r.json().detail).join(' '), q).toContain(field);
      };
      await bad('estado=FOO', 'estado');
      await bad('operacion=retiro', 'operacion');
      await bad('banco=x', 'banco');
      await bad('limite=0', 'limite');
      await bad('limite=101', 'limite');
      await bad('desde=2026-13-01', 'desde');
      await bad('idempotency_key=nope', 'idempotency_key');
      await bad('cursor=not-ours', 'cursor');
      await bad(`desde=${venezuelanDay()}&hasta=${venezuelanDay(-1)}`, 'hasta');
      await bad('estatus=LIQUIDADA', 'query');
      expect((await t.get('/switch/v1/transacciones', null)).statusCode).toBe(401);
    });

    it('details one operation: Resultado, history with causes, attempts', async () => {
      const r = await json('GET', `/switch/v1/transacciones/${ids[0]}`);
      expect(r.statusCode).toBe(200);
      const d = r.json();
      expect(d.resultado).toMatchObject({ id: ids[0], estado: 'LIQUIDADA', banco_usado: 'bnc' });
      expect(d.historial.at(-1)).toMatchObject({ hacia: 'LIQUIDADA' });
      expect(d.historial[0].causa).toEqual(expect.any(String));
      expect(d.intentos[0]).toMatchObject({ n: 1, banco: 'bnc' });
      expect(d.solicitud).toMatchObject({ idempotency_key: keys[0] });
      expect((await json('GET', '/switch/v1/transacciones/txn_nope')).statusCode).toBe(404);
      expect((await json('GET', '/switch/v1/transacciones/bad%20id')).statusCode).toBe(400);
    });
  });

  describe('webhook endpoints', () => {
    it('registers an endpoint (secret shown once), lists it without secret, changes events, disables, deletes', async () => {
      const created = await json('POST', '/switch/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['transaccion.rechazada'] });
      expect(created.statusCode).toBe(201);
      const e = created.json();
      expect(e).toMatchObject({ url: 'http://127.0.0.1:9/hooks', events: ['transaccion.rechazada'], active: true, rotacion_hasta: null });
      expect(e.secret).toMatch(/^whsec_/);
      const listed = (await json('GET', '/switch/v1/webhooks')).json();
      expect(listed.find((x: { id: string }) => x.id === e.id)).toEqual({
        id: e.id,
        url: e.url,
        events: e.events,
        active: true,
        rotacion_hasta: null,
        creado: e.creado,
      });
      expect(JSON.stringify(listed)).not.toContain('whsec_');

      const patched = await json('PATCH', `/switch/v1/webhooks/${e.id}`, {
        events: ['transaccion.liquidada', 'transaccion.aprobada'],
        active: false,
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({ events: ['transaccion.liquidada', 'transaccion.aprobada'], active: false });

      expect((await json('DELETE', `/switch/v1/webhooks/${e.id}`)).json()).toEqual({ id: e.id, eliminado: true });
      expect((await json('GET', '/switch/v1/webhooks')).json().some((x: { id: string }) => x.id === e.id)).toBe(false);
      expect((await json('PATCH', `/switch/v1/webhooks/${e.id}`, { active: true })).statusCode).toBe(404);
    });

    it('caps a merchant at 10 endpoints per mode: the 11th is refused with 422 ENDPOINT_LIMIT, storing nothing', async () => {
      await createMerchant(t.sw.store, { id: 'muchos', nombre: 'Muchos endpoints' });
      const key = (await issueKey(t.sw.store, 'muchos', 'test')).switchKey;
      for (let i = 0; i < 10; i++)
        expect((await json('POST', '/switch/v1/webhooks', { url: `http://127.0.0.1:9/hook${i}` }, key)).statusCode).toBe(201);
      const refused = await json('POST', '/switch/v1/webhooks', { url: 'http://127.0.0.1:9/hook11' }, key);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({ error: 'ENDPOINT_LIMIT' });
      expect((await json('GET', '/switch/v1/webhooks', undefined, key)).json()).toHaveLength(10);
    });

    it('refuses bad endpoints with 400 (field named) and internal destinations with 422 in both modes, storing nothing', async () => {
      const before = (await json('GET', '/switch/v1/webhooks')).json().length;
      const bad = async (payload: unknown, field: string, key?: string) => {
        const r = await json('POST', '/switch/v1/webhooks', payload, key);
        expect(r.statusCode, JSON.stringify(payload)).toBe(400);
        expect(Object.keys(r.json().detail).join(' ')).toContain(field);
      };
      await bad({ url: 'ftp://example.test/x' }, 'url');
      await bad({ url: 'https://user:pw@example.test/x' }, 'url');
      await bad({ url: 'https://example.test/x', events: [] }, 'events');
      await bad({ url: 'https://example.test/x', events: ['transaccion.creada'] }, 'events');
      await bad({ url: 'https://example.test/x', extra: 1 }, 'body');
      await bad({}, 'url');
      await bad({ url: 'http://example.test/x' }, 'url', liveKey);
      const internal = await json('POST', '/switch/v1/webhooks', { url: 'https://169.254.169.254/x' }, liveKey);
      expect(internal.statusCode).toBe(422);
      expect(internal.json().error).toBe('DESTINATION_REFUSED');
      // Test mode follows the same rule (issue 26 item 6): the embedded switch allows loopback
      // receivers, never the switch's own ports (operator 9100, merchant 3000) nor other internal addresses.
      for (const url of [
        'http://127.0.0.1:9100/admin/v1/merchants',
        'http://0x7f000001:3000/switch/v1/pagar',
        'http://[::ffff:127.0.0.1]:9100/admin',
        'http://169.254.169.254/latest/meta-data',
        'http://10.0.0.1/x',
        'http://0.0.0.0:8080/x',
      ]) {
        const r = await json('POST', '/switch/v1/webhooks', { url });
        expect(r.statusCode, url).toBe(422);
        expect(r.json().error, url).toBe('DESTINATION_REFUSED');
      }
      expect((await json('GET', '/switch/v1/webhooks')).json()).toHaveLength(before);
      expect((await json('GET', '/switch/v1/webhooks', undefined, liveKey)).json()).toEqual([]);
      expect((await json('PATCH', '/switch/v1/webhooks/we_x', {})).statusCode).toBe(400);
    });

    it("answers 404 for another merchant's or mode's endpoint on every route", async () => {
      const e = (await json('POST', '/switch/v1/webhooks', { url: 'http://127.0.0.1:9/mine' })).json();
      for (const key of [otherKey, liveKey]) {
        expect((await json('PATCH', `/switch/v1/webhooks/${e.id}`, { active: false }, key)).statusCode).toBe(404);
        expect((await json('POST', `/switch/v1/webhooks/${e.id}/rotar-secreto`, undefined, key)).statusCode).toBe(404);
        expect((await json('DELETE', `/switch/v1/webhooks/${e.id}`, undefined, key)).statusCode).toBe(404);
        expect((await json('GET', `/switch/v1/webhooks/${e.id}/entregas`, undefined, key)).statusCode).toBe(404);
        expect((await json('GET', '/switch/v1/webhooks', undefined, key)).json().some((x: { id: string }) => x.id === e.id)).toBe(false);
      }
      expect((await json('GET', `/switch/v1/webhooks/${e.id}`)).statusCode).toBe(404);
      await json('DELETE', `/switch/v1/webhooks/${e.id}`);
    });
  });

  describe('deliveries and secret rotation', () => {
    it('lists deliveries by transaction and endpoint with each attempt, redelivers, and signs with both secrets during a rotation', async () => {
      const e = (await json('POST', '/switch/v1/webhooks', { url: hook.url, events: ['transaccion.liquidada'] })).json();
      hook.status.code = 500;
      const pago = (await t.post('/switch/v1/pagar', pagarBody())).json();
      await vi.waitFor(
        async () => {
          const list = (await json('GET', `/switch/v1/transacciones/${pago.id}/entregas`)).json();
          expect(list[0]?.intentos.length).toBe(1);
        },
        { timeout: 20_000, interval: 50 },
      );
      const [failed] = (await json('GET', `/switch/v1/transacciones/${pago.id}/entregas`)).json();
      expect(failed).toMatchObject({ endpoint_id: e.id, transaccion_id: pago.id, evento: 'transaccion.liquidada', estado: 'pending' });
      expect(failed.intentos[0]).toMatchObject({ n: 1, codigo_http: 500, error: 'HTTP 500' });
      expect(failed.proximo_intento).toEqual(expect.any(String));
      expect((await json('GET', `/switch/v1/webhooks/${e.id}/entregas`)).json().map((d: { id: string }) => d.id)).toEqual([failed.id]);

      // Rotate, then redeliver: the receiver gets the new signature in x-service-signature, both in webhook-signature.
      const rotated = await json('POST', `/switch/v1/webhooks/${e.id}/rotar-secreto`);
      expect(rotated.statusCode).toBe(200);
      expect(rotated.json().secret).not.toBe(e.secret);
      expect(rotated.json().rotacion_hasta).toEqual(expect.any(String));
      hook.status.code = 204;
      const again = await json('POST', `/switch/v1/entregas/${failed.id}/reenviar`);
      expect(again.statusCode).toBe(202);
      expect(again.json()).toMatchObject({ id: failed.id, estado: 'pending' });
      await vi.waitFor(
        async () => {
          const [d] = (await json('GET', `/switch/v1/transacciones/${pago.id}/entregas`)).json();
          expect(d.estado).toBe('delivered');
          expect(d.intentos.map((a: { codigo_http: number }) => a.codigo_http)).toEqual([500, 204]);
        },
        { timeout: 20_000, interval: 50 },
      );
      const last = hook.received.at(-1)!;
      expect(verifyWebhook(last.body, last.headers['x-service-signature'] as string, rotated.json().secret)).toBe(true);
      expect(verifyWebhook(last.body, last.headers['x-service-signature'] as string, e.secret)).toBe(false);
      expect((last.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
      const now = Date.now() / 1000;
      expect(verifyStandardWebhook(last.body, last.headers as never, e.secret, now)).toBe(true);
      expect(verifyStandardWebhook(last.body, last.headers as never, rotated.json().secret, now)).toBe(true);
    });

    it("refuses another merchant's deliveries (404) and bad ids (400)", async () => {
      const pago = (await t.post('/switch/v1/pagar', pagarBody())).json();
      await vi.waitFor(
        async () => expect((await json('GET', `/switch/v1/transacciones/${pago.id}/entregas`)).json().length).toBeGreaterThan(0),
        {
          timeout: 20_000,
          interval: 50,
        },
      );
      const [d] = (await json('GET', `/switch/v1/transacciones/${pago.id}/entregas`)).json();
      expect((await json('GET', `/switch/v1/transacciones/${pago.id}/entregas`, undefined, otherKey)).statusCode).toBe(404);
      expect((await json('POST', `/switch/v1/entregas/${d.id}/reenviar`, undefined, otherKey)).statusCode).toBe(404);
      expect((await json('POST', `/switch/v1/entregas/${d.id}/reenviar`, undefined, liveKey)).statusCode).toBe(404);
      expect((await json('POST', `/switch/v1/entregas/${randomUUID()}/reenviar`)).statusCode).toBe(404);
      expect((await json('POST', '/switch/v1/entregas/a%20b/reenviar')).statusCode).toBe(400);
      expect((await json('GET', '/switch/v1/webhooks/a%20b/entregas')).statusCode).toBe(400);
    });
  });

  it('documents every new route in /openapi.json', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/switch/v1/transacciones',
      '/switch/v1/transacciones/{id}',
      '/switch/v1/transacciones/{id}/entregas',
      '/switch/v1/webhooks',
      '/switch/v1/webhooks/{id}',
      '/switch/v1/webhooks/{id}/rotar-secreto',
      '/switch/v1/webhooks/{id}/entregas',
      '/switch/v1/entregas/{id}/reenviar',
    ])
      expect(paths).toContain(p);
  });
});
