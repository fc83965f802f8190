import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@switch/core/contracts/webhook';
import { createTestMerchant, isolatedRun, reportServicesOnFailure, type ServiceProcess, startService, stopAllServices } from './processes';

/**
 * Every service as its own process on real Kafka, the schema registry and a MongoDB-compatible
 * server, driven only through the public HTTP API. Each run uses its own topic namespace and database.
 */
const RUN = isolatedRun('e2e');
const ADMIN = RUN.adminToken;
const env = {
  ...RUN.env,
  SWITCH_QUERY_TIMEOUT_MS: '15000',
  // Shortened webhook schedule and reconciler cadence; the SPEC schedule is checked in the notifier's unit tests.
  SWITCH_WEBHOOK_SCHEDULE_MS: '0,1500,1500,1500,1500,1500',
  SWITCH_NOTIFIER_POLL_MS: '250',
  SWITCH_RECONCILER_INTERVAL_MS: '1000',
  SWITCH_RECONCILER_BACKOFF_MS: '500',
  // The test's webhook receiver listens on 127.0.0.1 (a deployment leaves loopback refused).
  SWITCH_WEBHOOK_ALLOW_LOOPBACK: 'true',
};

/** A merchant's webhook receiver; fails the requests whose number is in `failing`. */
async function startReceiver() {
  const got: { body: string; headers: IncomingHttpHeaders }[] = [];
  const failing = new Set<number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(failing.has(got.length) ? 503 : 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    got,
    failing,
    close: () => new Promise((r) => server.close(r)),
  };
}

const cuenta = (n: string) => ({
  tipo: 'cuenta',
  valor: `0191${n.padStart(16, '0')}`,
  banco: '0191',
  identificacion: 'J123456789',
  nombre: 'Comercio E2E',
});
const telefono = { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };
const payout = (via: 'pago_movil' | 'credito_inmediato', key = randomUUID()) => ({
  idempotency_key: key,
  monto: { valor: 12.34 },
  concepto: 'e2e',
  ordenante: cuenta('1'),
  beneficiario: telefono,
  via,
});

describe('end to end: every service its own process on Kafka + MongoDB', () => {
  let router: ServiceProcess;
  let sim: ServiceProcess;
  let gatewayA: ServiceProcess;
  let gatewayB: ServiceProcess;
  let notifier: ServiceProcess;
  let _reconciler: ServiceProcess;
  let key: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let webhookSecret: string;

  const call = async (gw: ServiceProcess, path: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${gw.port}/switch/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switch-key': key },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const simOrders = async () =>
    (await (await fetch(`http://127.0.0.1:${sim.port}/sim/orders`)).json()) as { executed: number; byTransaction: Record<string, number> };

  beforeAll(async () => {
    RUN.requireInfra();
    receiver = await startReceiver();
    [router, sim, notifier, _reconciler] = await Promise.all([
      startService('router', env),
      startService('bank-sim', env),
      startService('notifier', env),
      startService('reconciler', env),
    ]);
    [gatewayA, gatewayB] = await Promise.all([startService('gateway', env), startService('gateway', env)]);
    const merchant = await createTestMerchant(gatewayA, ADMIN, 'e2e', 'E2E');
    key = merchant.key;
    const hook = await fetch(`${merchant.merchantUrl}/webhooks`, {
      method: 'POST',
      headers: merchant.admin,
      body: JSON.stringify({ mode: 'test', url: receiver.url, events: ['transaccion.aprobada', 'transaccion.liquidada'] }),
    });
    webhookSecret = ((await hook.json()) as { secret: string }).secret;
  });

  afterAll(async () => {
    await stopAllServices();
    await receiver?.close();
  });

  reportServicesOnFailure();

  const hooksFor = (id: unknown) => receiver.got.filter((g) => (JSON.parse(g.body) as { data: { id: string } }).data.id === id);

  it('settles a pending payout in the background and tells the merchant by signed webhooks', async () => {
    const r = await call(gatewayA, '/pagar', payout('credito_inmediato'));
    expect(r.body.estado).toBe('ACEPTADA');
    // The reconciler asks the bank; the notifier delivers aprobada then liquidada.
    await expect
      .poll(
        () =>
          hooksFor(r.body.id)
            .map((g) => g.headers['x-service-event'])
            .sort(),
        { timeout: 30_000 },
      )
      .toEqual(['transaccion.aprobada', 'transaccion.liquidada']);
    for (const g of hooksFor(r.body.id))
      expect(verifyWebhook(g.body, g.headers['x-service-signature'] as string, webhookSecret)).toBe(true);
    const consulted = await call(gatewayB, '/consultar', { id: r.body.id });
    expect(consulted.body.estado).toBe('LIQUIDADA');
  });

  it('a notifier killed between attempts resumes the delivery after restart, same body', async () => {
    receiver.failing.add(receiver.got.length + 1);
    const before = receiver.got.length;
    const r = await call(gatewayA, '/pagar', payout('pago_movil'));
    expect(r.body.estado).toBe('LIQUIDADA');
    await expect.poll(() => receiver.got.length, { timeout: 20_000 }).toBeGreaterThan(before);
    await notifier.kill9();
    notifier = await startService('notifier', env);
    await expect.poll(() => hooksFor(r.body.id).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const bodies = hooksFor(r.body.id).map((g) => g.body);
    expect(new Set(bodies).size).toBe(1);
  }, 120_000);

  it('pays out by pago móvil: LIQUIDADA at once, with the simulated bank contract', async () => {
    const body = payout('pago_movil');
    const r = await call(gatewayA, '/pagar', body);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      estado: 'LIQUIDADA',
      banco_usado: 'bnc',
      referencia_banco: `TEST-${body.idempotency_key.slice(0, 8)}`,
      endtoend: null,
      intentos: 1,
      raw: { simulated: true },
    });
  });

  it('collects with token then cobrar, and /consultar settles it, across both gateways', async () => {
    const k = randomUUID();
    const base = { idempotency_key: k, monto: { valor: 20 }, concepto: 'pedido', cobrador: cuenta('2'), pagador: telefono };
    const token = await call(gatewayA, '/cobrar/token', base);
    expect(token.body).toMatchObject({ estado: 'ACEPTADA', banco_usado: 'bnc' });
    const cobro = await call(gatewayB, '/cobrar', { ...base, otp: '12345678' });
    expect(cobro.body).toMatchObject({ estado: 'ACEPTADA', banco_usado: 'bnc' });
    expect(cobro.body.id).not.toBe(token.body.id);
    const queried = await call(gatewayA, '/consultar', { id: cobro.body.id });
    expect(queried.body).toMatchObject({ id: cobro.body.id, estado: 'LIQUIDADA' });
    const again = await call(gatewayB, '/consultar', { id: cobro.body.id });
    expect(again.body).toMatchObject({ estado: 'LIQUIDADA' });
  });

  it('idempotent repeats across two gateway instances: one operation, one bank order, identical answers', async () => {
    const body = payout('credito_inmediato');
    const answers = await Promise.all([...Array(10).keys()].map((i) => call(i % 2 ? gatewayA : gatewayB, '/pagar', body)));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers[0]!.body.estado).toBe('ACEPTADA');
    expect((await simOrders()).byTransaction[[...ids][0] as string]).toBe(1);
    const conflict = await call(gatewayB, '/pagar', { ...body, concepto: 'otro' });
    expect(conflict.status).toBe(409);
  });

  it('unknown ids are 404 on every gateway', async () => {
    expect((await call(gatewayA, '/consultar', { id: 'txn_nope' })).status).toBe(404);
    expect((await call(gatewayB, '/consultar', { id: 'txn_nope' })).status).toBe(404);
  });

  it('router killed with -9 mid-flight: after restart every accepted operation reaches its state exactly once', async () => {
    const bodies = [...Array(24).keys()].map((i) => payout(i % 2 ? 'pago_movil' : 'credito_inmediato'));
    const inFlight = bodies.map((b, i) => call(i % 2 ? gatewayA : gatewayB, '/pagar', b));
    // Kill as soon as the router has started on them (the first bank orders exist).
    await expect.poll(async () => (await simOrders()).executed, { timeout: 30_000, interval: 20 }).toBeGreaterThan(3);
    await router.kill9();
    const first = await Promise.all(inFlight);
    for (const r of first) expect([200]).toContain(r.status);
    router = await startService('router', env);
    // The merchant's safe retry: the same request with the same key until a settled answer.
    const settled = await Promise.all(
      bodies.map(async (b, i) => {
        const gw = i % 2 ? gatewayB : gatewayA;
        let r = await call(gw, '/pagar', b);
        // A gateway whose wait ran out says DESCONOCIDA with raw.switch; the repeat returns the real state.
        const waitRanOut = () =>
          r.body.estado === 'DESCONOCIDA' && typeof (r.body.raw as { switch?: unknown } | undefined)?.switch === 'string';
        for (let n = 0; n < 10 && waitRanOut(); n++) r = await call(gw, '/pagar', b);
        return r;
      }),
    );
    for (const [i, r] of settled.entries()) {
      expect(r.body.estado).toBe(i % 2 ? 'LIQUIDADA' : 'ACEPTADA');
      expect(r.body.id).toBe(first[i]!.body.id);
    }
    const orders = await simOrders();
    for (const r of settled) expect(orders.byTransaction[r.body.id as string]).toBe(1);
  }, 300_000);

  it('stops gracefully on SIGTERM', async () => {
    const extra = await startService('bank-sim', env);
    expect(await extra.stop()).toBe(0);
  }, 180_000);
});
