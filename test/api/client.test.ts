import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSwitchClient, newIdempotencyKey, withIdempotencyKey, type PagarRequest, type SwitchClient } from '@switch-pagos/client';
import { CUENTA_ORDENANTE, startTestSwitch, venezuelanDay, type TestSwitch } from './helpers';

/**
 * The generated client (kit/client, `@switch-pagos/client`) against the in-process switch over real
 * HTTP: it pays, consults and lists, retries with the same key, and answers errors as values.
 */
let t: TestSwitch;
let baseUrl: string;
let client: SwitchClient;

const payout = (over: Partial<PagarRequest> = {}): Omit<PagarRequest, 'idempotency_key'> => ({
  monto: { valor: 150.5 },
  concepto: 'Pago a proveedor',
  ordenante: { tipo: 'cuenta', valor: CUENTA_ORDENANTE, banco: '0191', identificacion: 'J123456789', nombre: 'Mi Tienda' },
  beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana Pérez' },
  via: 'pago_movil',
  ...over,
});

beforeAll(async () => {
  t = await startTestSwitch();
  baseUrl = await t.sw.gateway.app.listen({ host: '127.0.0.1', port: 0 });
  client = createSwitchClient({ baseUrl, key: t.key });
});
afterAll(() => t?.close());

describe('the generated client (@switch-pagos/client)', () => {
  it('creates an expected payment (a repeat is the same one), reads it and lists it', async () => {
    const body = withIdempotencyKey({
      monto: { valor: 99.9 },
      concepto: 'Pedido cliente',
      orden_id: 'cliente-1',
      cobrador: {
        tipo: 'cuenta' as const,
        valor: '01910000000000000777',
        banco: '0191',
        identificacion: 'J123456789',
        nombre: 'Mi Tienda',
      },
    });
    const creado = await client.crearCobroEsperado(body);
    if (!creado.ok) throw new Error(`crearCobroEsperado: ${creado.status} ${JSON.stringify(creado.error)}`);
    expect(creado.data).toMatchObject({ estado: 'ESPERADO', monto: 99.9, orden_id: 'cliente-1' });
    const otra = await client.crearCobroEsperado(body);
    expect(otra.ok && [otra.data.id, otra.replayed]).toEqual([creado.data.id, true]);
    const leido = await client.cobroEsperado(creado.data.id);
    expect(leido.ok && leido.data.instrucciones.concepto).toBe(creado.data.instrucciones.concepto);
    const lista = await client.cobrosEsperados({ estado: 'ESPERADO' });
    expect(lista.ok && lista.data.cobros.map((c) => c.id)).toContain(creado.data.id);
  });

  it('lists the banks, pays, consults and lists the statement', async () => {
    const bancos = await client.bancos();
    expect(bancos.ok && bancos.data.map((b) => b.banco)).toContain('bnc');

    const pago = await client.pagar(withIdempotencyKey(payout()));
    if (!pago.ok) throw new Error(`pagar: ${pago.status} ${JSON.stringify(pago.error)}`);
    expect(pago.data).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bnc' });
    expect(pago.replayed).toBe(false);

    const credito = await client.pagar(
      withIdempotencyKey(
        payout({
          via: 'credito_inmediato',
          beneficiario: { tipo: 'cuenta', valor: '01020000000000000002', banco: '0102', identificacion: 'V12345678', nombre: 'Ana Pérez' },
        }),
      ),
    );
    expect(credito.ok && credito.data.estado).toBe('ACEPTADA');
    const consulta = await client.consultar(credito.ok ? credito.data.id : '');
    expect(consulta.ok && consulta.data).toMatchObject({ id: credito.ok && credito.data.id, estado: 'LIQUIDADA' });

    const extracto = await client.movimientos({ cuenta: CUENTA_ORDENANTE, desde: venezuelanDay(-1) });
    if (!extracto.ok) throw new Error(`movimientos: ${extracto.status} ${JSON.stringify(extracto.error)}`);
    expect(extracto.data.movimientos.map((m) => m.referencia)).toContain(pago.data.referencia_banco);
  });

  it('a retry sends the same key: the switch answers the original operation, marked replayed', async () => {
    const body = withIdempotencyKey(payout());
    const first = await client.pagar(body);
    const again = await client.pagar(body);
    expect(first.ok && again.ok).toBe(true);
    expect(again.ok && again.data.id).toBe(first.ok && first.data.id);
    expect(again.replayed).toBe(true);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    // A new payment is a new key: a new operation.
    const other = await client.pagar(withIdempotencyKey(payout()));
    expect(other.ok && other.data.id).not.toBe(first.ok && first.data.id);
  });

  it('retries a cut answer with the same key, so the payment is made once', async () => {
    let calls = 0;
    const cutOnce: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      // The switch got the request and acted; the answer is lost on the way back.
      if (++calls === 1) throw new TypeError('fetch failed: connection reset');
      return res;
    };
    const flaky = createSwitchClient({ baseUrl, key: t.key, fetch: cutOnce });
    const before = t.footprint().transactions;
    const answer = await flaky.pagar(withIdempotencyKey(payout()), { attempts: 3, backoffMs: 1 });
    expect(calls).toBe(2);
    expect(answer.ok && answer.data.estado).toBe('LIQUIDADA');
    expect(answer.replayed).toBe(true);
    expect(t.footprint().transactions).toBe(before + 1);
  });

  it('answers refusals as values with the house error body', async () => {
    const stranger = createSwitchClient({ baseUrl, key: 'demo:sk_test_wrong' });
    const refused = await stranger.bancos();
    expect(refused).toMatchObject({ ok: false, status: 401, error: { error: 'unauthorized' } });

    const invalid = await client.pagar({ ...payout(), idempotency_key: 'not-a-uuid' });
    expect(invalid).toMatchObject({ ok: false, status: 400, error: { error: 'VALIDATION' } });
    expect(Object.keys(invalid.ok ? {} : ((invalid.error as { detail?: object }).detail ?? {}))).toContain('idempotency_key');

    const unknown = await client.consultar(`txn_${newIdempotencyKey().replace(/-/g, '')}`);
    expect(unknown).toMatchObject({ ok: false, status: 404, error: { error: 'NOT_FOUND' } });
  });

  it('lists operations and manages webhook endpoints and their deliveries', async () => {
    const pago = await client.pagar(withIdempotencyKey(payout({ concepto: 'Listado por el cliente' })));
    if (!pago.ok) throw new Error(`pagar: ${pago.status} ${JSON.stringify(pago.error)}`);

    const lista = await client.transacciones({ operacion: 'pagar', limite: '100' });
    if (!lista.ok) throw new Error(`transacciones: ${lista.status} ${JSON.stringify(lista.error)}`);
    expect(lista.data.transacciones.find((r) => r.id === pago.data.id)).toMatchObject({
      estado: 'LIQUIDADA',
      concepto: 'Listado por el cliente',
    });
    const detalle = await client.transaccion(pago.data.id);
    expect(detalle.ok && detalle.data.resultado).toMatchObject({ id: pago.data.id, estado: 'LIQUIDADA' });
    expect(await client.entregasTransaccion(pago.data.id)).toMatchObject({ ok: true, status: 200 });

    const creado = await client.crearWebhook({ url: 'https://tienda.example/webhooks/cliente', events: ['transaccion.liquidada'] });
    if (!creado.ok) throw new Error(`crearWebhook: ${creado.status} ${JSON.stringify(creado.error)}`);
    expect(creado.status).toBe(201);
    expect(creado.data.secret).toMatch(/^whsec_/);
    const id = creado.data.id;
    const listados = await client.webhooks();
    expect(listados.ok && listados.data.find((e) => e.id === id)).toMatchObject({
      url: 'https://tienda.example/webhooks/cliente',
      active: true,
    });
    expect(listados.ok && listados.data.some((e) => 'secret' in e)).toBe(false);

    expect(await client.actualizarWebhook(id, { active: false })).toMatchObject({ ok: true, data: { id, active: false } });
    const rotado = await client.rotarSecretoWebhook(id);
    expect(rotado.ok && rotado.data.secret).not.toBe(creado.data.secret);
    expect(await client.entregasWebhook(id)).toMatchObject({ ok: true, data: [] });
    expect(await client.eliminarWebhook(id)).toMatchObject({ ok: true, data: { id, eliminado: true } });
    const tras = await client.webhooks();
    expect(tras.ok && tras.data.some((e) => e.id === id)).toBe(false);

    // The sandbox sample delivery answers in test mode; an unknown one is a 404 value.
    expect(await client.reenviarEntrega('txn_ejemplo.v1.we_ejemplo')).toMatchObject({ ok: true, status: 202, data: { estado: 'pending' } });
    expect(await client.reenviarEntrega('txn_nada.v1.we_nada')).toMatchObject({ ok: false, status: 404, error: { error: 'NOT_FOUND' } });
  });
});
