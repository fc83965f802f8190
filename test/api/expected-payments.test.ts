import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_HEADER, SIGNATURE_HEADER, verifyWebhook } from '@switch/core/contracts/webhook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CobroEsperado, CobrosEsperadosPage } from '@switch/core/contracts/esperados';
import { validatorFor } from '@switch/core/contracts/validation';
import { sandboxConcept } from '@switch/core/pago-movil';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import { startTestSwitch, type TestSwitch } from './helpers';

const isCobro = validatorFor(CobroEsperado);
const isPage = validatorFor(CobrosEsperadosPage);
/** The simulated bank's account of test mode (bank code 0191). */
const CUENTA = '01910000000000000777';

const body = (over: Record<string, unknown> = {}) => ({
  idempotency_key: randomUUID(),
  monto: { valor: 250.5, moneda: 'VES' },
  concepto: 'Pedido 42',
  orden_id: 'orden-42',
  cobrador: { tipo: 'cuenta', valor: CUENTA, banco: '0191', identificacion: 'J123456789', nombre: 'Tienda Demo' },
  vence_en: new Date(Date.now() + 3600_000).toISOString(),
  ...over,
});

describe('expected payments over the API (test mode, the simulated bank)', () => {
  let t: TestSwitch;
  let otherKey: string;
  beforeAll(async () => {
    t = await startTestSwitch();
    await createMerchant(t.sw.store, { id: 'segundo', nombre: 'Segundo comercio' });
    otherKey = (await issueKey(t.sw.store, 'segundo', 'test')).switchKey;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates one with the instructions to show the payer; the same key and body answers it again (replayed); another body is a 409', async () => {
    const b = body();
    const res = await t.post('/switch/v1/cobros/esperados', b);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    const created = res.json();
    expect(isCobro(created), JSON.stringify(isCobro.errors)).toBe(true);
    expect(created).toMatchObject({ estado: 'ESPERADO', monto: 250.5, recibido: 0, orden_id: 'orden-42', movimientos: [], historial: [] });
    expect(created.instrucciones).toMatchObject({ banco: '0191', cuenta: CUENTA, rif: 'J123456789', monto: 250.5 });
    expect(created.instrucciones.concepto).toMatch(/^E[A-Z2-9]{6} Pedido 42$/);
    const again = await t.post('/switch/v1/cobros/esperados', b);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(created.id);
    const conflict = await t.post('/switch/v1/cobros/esperados', { ...b, monto: { valor: 1 } });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error).toBe('IDEMPOTENCY_CONFLICT');
  });

  it.each([
    ['a monto of 3 decimals', { monto: { valor: 1.001 } }, 'monto.valor'],
    ['an expiry in the past', { vence_en: '2020-01-01T00:00:00Z' }, 'vence_en'],
    ['an expiry beyond 30 days', { vence_en: new Date(Date.now() + 31 * 86_400_000).toISOString() }, 'vence_en'],
    ['no orden_id', { orden_id: undefined }, 'orden_id'],
    [
      'an account of another bank than banco',
      { cobrador: { tipo: 'cuenta', valor: CUENTA, banco: '0102', identificacion: 'J1', nombre: 'x' } },
      'cobrador.banco',
    ],
    [
      'a phone in test mode',
      { cobrador: { tipo: 'telefono', valor: '04141234567', banco: '0191', identificacion: 'J1', nombre: 'x' } },
      'cobrador.tipo',
    ],
  ])('refuses %s with 400 VALIDATION naming the field, and stores nothing', async (_name, over, field) => {
    const before = (await t.get('/switch/v1/cobros/esperados?limite=100')).json().cobros.length;
    const res = await t.post('/switch/v1/cobros/esperados', body(over));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toBe('VALIDATION');
    expect(JSON.stringify(res.json().detail)).toContain(field);
    expect((await t.get('/switch/v1/cobros/esperados?limite=100')).json().cobros.length).toBe(before);
  });

  it('the payer’s pago móvil arrives: the matcher moves it to RECIBIDO, GET and the list show it, a webhook is queued', async () => {
    await t.post('/switch/v1/webhooks', { url: 'https://example.com/hooks' });
    const created = (await t.post('/switch/v1/cobros/esperados', body({ monto: { valor: 77.25 } }))).json();
    await t.sw.bank.receivePagoMovil(t.merchantId, {
      cuenta: CUENTA,
      monto: 77.25,
      bancoPagador: '0102',
      telefonoPagador: '04141234567',
      at: new Date(),
      concepto: `${sandboxConcept(t.merchantId)} ${created.instrucciones.concepto}`,
    });
    expect(await t.sw.expected.matcher.round()).toBe(true);
    const res = await t.get(`/switch/v1/cobros/esperados/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      estado: 'RECIBIDO',
      recibido: 77.25,
      historial: [{ de: 'ESPERADO', a: 'RECIBIDO', motivo: 'pago_exacto' }],
    });
    const list = (await t.get('/switch/v1/cobros/esperados?estado=RECIBIDO')).json();
    expect(isPage(list), JSON.stringify(isPage.errors)).toBe(true);
    expect(list.cobros.map((c: { id: string }) => c.id)).toContain(created.id);
    const deliveries = await t.sw.store.deliveries.listForTransaction(created.id);
    expect(deliveries.map((d) => d.event)).toEqual(['cobro_esperado.recibido']);
  });

  it('the change reaches a registered endpoint as a signed webhook in the house envelope (the notifier sends it)', async () => {
    const received: { body: string; headers: IncomingHttpHeaders }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const endpoint = (await t.post('/switch/v1/webhooks', { url })).json();
      expect(endpoint.secret).toMatch(/^whsec_/);
      const created = (await t.post('/switch/v1/cobros/esperados', body({ monto: { valor: 31.5 } }))).json();
      await t.sw.bank.receivePagoMovil(t.merchantId, {
        cuenta: CUENTA,
        monto: 30,
        bancoPagador: '0102',
        telefonoPagador: '04141234567',
        at: new Date(),
        concepto: `${sandboxConcept(t.merchantId)} ${created.instrucciones.concepto}`,
      });
      await t.sw.expected.matcher.round();
      await expect.poll(() => received.filter((r) => r.body.includes(created.id)).length, { timeout: 10_000 }).toBe(1);
      const hit = received.find((r) => r.body.includes(created.id))!;
      expect(hit.headers[EVENT_HEADER]).toBe('cobro_esperado.pago_parcial');
      expect(verifyWebhook(hit.body, hit.headers[SIGNATURE_HEADER] as string, endpoint.secret)).toBe(true);
      expect(JSON.parse(hit.body)).toMatchObject({
        type: 'cobro_esperado.pago_parcial',
        data: { id: created.id, estado: 'PAGO_PARCIAL', monto: 31.5, recibido: 30, orden_id: 'orden-42' },
      });
    } finally {
      await new Promise((r) => server.close(() => r(undefined)));
    }
  });

  it.each(['verification first', 'matcher first'] as const)(
    'a transfer made through the sandbox pays one thing only when a cashier verifies it while the matcher runs (%s)',
    async (first) => {
      const monto = first === 'verification first' ? 61.37 : 61.73;
      const created = (await t.post('/switch/v1/cobros/esperados', body({ monto: { valor: monto } }))).json();
      const cobrador = body().cobrador;
      const arrived = await t.post('/switch/v1/sandbox/pago-movil-entrante', {
        monto: { valor: monto, moneda: 'VES' },
        banco_pagador: '0102',
        telefono_pagador: '04141234567',
        cobrador,
        // Sent "now" from 23:30 Caracas on, it would be booked tomorrow, a day not read yet.
        hora: '00:00',
      });
      expect(arrived.statusCode, arrived.body).toBe(200);
      const { referencia, fecha } = arrived.json();
      const verify = () =>
        t.post('/switch/v1/cobros/verificar', {
          idempotency_key: randomUUID(),
          monto: { valor: monto, moneda: 'VES' },
          banco_pagador: '0102',
          telefono_pagador: '04141234567',
          referencia,
          fecha,
          cobrador,
        });
      const match = () => t.sw.expected.matcher.round();
      const [a, b] = first === 'verification first' ? [verify(), match()] : [match(), verify()];
      const [x, y] = await Promise.all([a, b]);
      const verification = (first === 'verification first' ? x : y) as Awaited<ReturnType<typeof verify>>;
      expect(verification.statusCode, verification.body).toBe(200);
      const answer = verification.json();
      const payment = (await t.get(`/switch/v1/cobros/esperados/${created.id}`)).json();
      // Exactly one holds the movement: the verification, or the expected payment it then names.
      if (answer.estado === 'VERIFICADO') expect(payment.estado).toBe('ESPERADO');
      else {
        expect(answer.estado).toBe('YA_RECLAMADO');
        expect(answer.reclamado_por).toMatchObject({ tipo: 'esperado' });
        expect(payment).toMatchObject({ estado: 'RECIBIDO', recibido: monto });
      }
      // A round after the race changes nothing: the movement is held.
      await t.sw.expected.matcher.round();
      expect((await t.get(`/switch/v1/cobros/esperados/${created.id}`)).json().estado).toBe(payment.estado);
    },
  );

  it('pages newest first with a cursor', async () => {
    for (let i = 0; i < 3; i++) await t.post('/switch/v1/cobros/esperados', body({ orden_id: `pagina-${i}` }));
    const first = (await t.get('/switch/v1/cobros/esperados?limite=2')).json();
    expect(first.cobros).toHaveLength(2);
    expect(first.siguiente).not.toBeNull();
    const second = (await t.get(`/switch/v1/cobros/esperados?limite=2&cursor=${first.siguiente}`)).json();
    const ids = [...first.cobros, ...second.cobros].map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await t.get('/switch/v1/cobros/esperados?cursor=bm90LWEtY3Vyc29y')).statusCode).toBe(400);
  });

  it('another merchant never sees one: 404 on its id, absent from its list', async () => {
    const created = (await t.post('/switch/v1/cobros/esperados', body())).json();
    const res = await t.get(`/switch/v1/cobros/esperados/${created.id}`, otherKey);
    expect(res.statusCode).toBe(404);
    expect((await t.get('/switch/v1/cobros/esperados', otherKey)).json().cobros).toEqual([]);
  });
});
