import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestMerchant, isolatedRun, reportServicesOnFailure, type ServiceProcess, startService, stopAllServices } from './processes';

/**
 * Real bank connectors as their own processes on real Kafka, the schema registry and a MongoDB-compatible
 * server, each in front of its bank's emulator (also a process), driven only over HTTP: the public API,
 * and the emulators' test-only control routes. Few processes on purpose: the machine is small.
 */
const RUN = isolatedRun('e2ebk');
const ADMIN = RUN.adminToken;
const env = {
  ...RUN.env,
  SWITCH_QUERY_TIMEOUT_MS: '15000',
  SWITCH_TEST_BANKS: 'banco_plaza,bancaribe',
};

const PLAZA = { apiKey: 'e2e-plaza-key', apiSecret: 'e2e-plaza-secret', rif: 'J123456789', account: '01380000000000000001' };
const BANCARIBE = {
  consumerKey: 'e2e-bancaribe-key',
  consumerSecret: 'e2e-bancaribe-secret',
  rif: 'J000012114',
  phone: '04141000114',
  account: '01140111122222233333',
  hash: '09A2D57E-C433-4581-97C2-6F6ADA944F27',
};

const ordenante = { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Comercio E2E' };
const payout = (over: Record<string, unknown>) => ({
  idempotency_key: randomUUID(),
  monto: { valor: 12.34 },
  concepto: 'e2e bancos',
  ordenante,
  beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
  via: 'pago_movil',
  ...over,
});

describe('end to end: bank connectors and their emulators as processes on Kafka + MongoDB', () => {
  let plazaEmu: ServiceProcess;
  let bancaribeEmu: ServiceProcess;
  let _router: ServiceProcess;
  let gateway: ServiceProcess;
  let plaza: ServiceProcess;
  let _bancaribe: ServiceProcess;
  let key: string;

  const call = async (path: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${gateway.port}/switch/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switch-key': key },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const control = async (emu: ServiceProcess, path: string, body?: unknown) => {
    const res = await fetch(
      `http://127.0.0.1:${emu.port}/__emulator${path}`,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    expect(res.status, `${emu.name} ${path}`).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };
  const plazaOrders = async () => ((await control(plazaEmu, '/state')).orders as unknown[]).length;
  const bancaribeOrders = async () => (await control(bancaribeEmu, '/orders')).count as number;

  beforeAll(async () => {
    RUN.requireInfra();
    // Pending orders settle only when the test says so (-1 / 0: through the control routes).
    [plazaEmu, bancaribeEmu] = await Promise.all([
      startService(
        'plaza-emulator',
        {
          PLAZA_EMULATOR_API_KEY: PLAZA.apiKey,
          PLAZA_EMULATOR_API_SECRET: PLAZA.apiSecret,
          PLAZA_EMULATOR_RIF: PLAZA.rif,
          PLAZA_EMULATOR_ACCOUNT: PLAZA.account,
          PLAZA_EMULATOR_SETTLE_MS: '-1',
        },
        { entry: 'services/bank-plaza/dist/emulator/main.js', readyPath: '/__emulator/state' },
      ),
      startService(
        'bancaribe-emulator',
        {
          BANCARIBE_EMULATOR_CONSUMER_KEY: BANCARIBE.consumerKey,
          BANCARIBE_EMULATOR_CONSUMER_SECRET: BANCARIBE.consumerSecret,
          SETTLE_DELAY_MS: '0',
        },
        { entry: 'services/bank-bancaribe/dist/emulator/main.js', readyPath: '/__emulator/state' },
      ),
    ]);
    const banks = {
      ...env,
      PLAZA_TEST_URL: `http://127.0.0.1:${plazaEmu.port}`,
      PLAZA_TEST_API_KEY: PLAZA.apiKey,
      PLAZA_TEST_API_SECRET: PLAZA.apiSecret,
      PLAZA_TEST_RIF: PLAZA.rif,
      PLAZA_TEST_ACCOUNT: PLAZA.account,
      PLAZA_TEST_PHONE: '04140000138',
      PLAZA_TIMEOUT_MS: '15000',
      BANCARIBE_TEST_URL: `http://127.0.0.1:${bancaribeEmu.port}`,
      BANCARIBE_TEST_CONSUMER_KEY: BANCARIBE.consumerKey,
      BANCARIBE_TEST_CONSUMER_SECRET: BANCARIBE.consumerSecret,
      BANCARIBE_TEST_MERCHANT_RIF: BANCARIBE.rif,
      BANCARIBE_TEST_MERCHANT_PHONE: BANCARIBE.phone,
      BANCARIBE_TEST_MERCHANT_ACCOUNT: BANCARIBE.account,
      BANCARIBE_TEST_CLIENT_HASH: BANCARIBE.hash,
      BANCARIBE_TEST_TIMEOUT_MS: '15000',
    };
    [_router, plaza, _bancaribe] = await Promise.all([
      startService('router', env),
      startService('bank-plaza', banks, { entry: 'services/bank-plaza/dist/src/main.js' }),
      startService('bank-bancaribe', banks, { entry: 'services/bank-bancaribe/dist/src/main.js' }),
    ]);
    gateway = await startService('gateway', env);
    key = (await createTestMerchant(gateway, ADMIN, 'e2ebank', 'E2E bancos')).key;
  });

  afterAll(async () => {
    await stopAllServices();
  });

  reportServicesOnFailure();

  it('pays out through Banco Plaza: LIQUIDADA at once, one order at the bank', async () => {
    const before = await plazaOrders();
    const r = await call('/pagar', payout({ banco_preferido: 'banco_plaza' }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'banco_plaza', intentos: 1, referencia_banco: expect.any(String) });
    expect(await plazaOrders()).toBe(before + 1);
  });

  it('a timeout after Bancaribe accepted → DESCONOCIDA, not rerouted; /consultar resolves it once the bank settles', async () => {
    const [plazaBefore, before] = [await plazaOrders(), await bancaribeOrders()];
    await control(bancaribeEmu, '/timeout-after-accept', { n: 1 });
    const r = await call(
      '/pagar',
      payout({
        banco_preferido: 'bancaribe',
        via: 'credito_inmediato',
        beneficiario: { tipo: 'cuenta', valor: '01020000000000000002', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ estado: 'DESCONOCIDA', banco_usado: 'bancaribe', intentos: 1 });
    expect(await bancaribeOrders()).toBe(before + 1);
    expect(await plazaOrders()).toBe(plazaBefore);

    // The bank has it pending: a query is an answer, not a resend.
    const pending = await call('/consultar', { id: r.body.id });
    expect(pending.body).toMatchObject({ estado: 'PENDIENTE', banco_usado: 'bancaribe', intentos: 1 });
    expect((await control(bancaribeEmu, '/settle-all', {})).settled).toBe(1);
    await expect
      .poll(async () => (await call('/consultar', { id: r.body.id })).body.estado, { timeout: 30_000, interval: 500 })
      .toBe('LIQUIDADA');
    expect(await bancaribeOrders()).toBe(before + 1);
    expect(await plazaOrders()).toBe(plazaBefore);
  });

  it('Banco Plaza refusing connections → the payout is rerouted to Bancaribe (intentos 2), nothing executed at Plaza', async () => {
    const before = await bancaribeOrders();
    // Refuses for a minute, then listens again by itself (its control route is on the closed port).
    await control(plazaEmu, '/refuse', { on: true, forMs: 60_000 });
    await expect
      .poll(
        async () =>
          fetch(`http://127.0.0.1:${plazaEmu.port}/__emulator/state`).then(
            () => 'open',
            () => 'refused',
          ),
        { timeout: 10_000, interval: 100 },
      )
      .toBe('refused');
    const r = await call('/pagar', payout({ banco_preferido: 'banco_plaza' }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bancaribe', intentos: 2 });
    expect(await bancaribeOrders()).toBe(before + 1);
    // The connector tried Plaza once and knew the order was never sent (a refused connect reaches no bank).
    const metrics = await (await fetch(`http://127.0.0.1:${plaza.port}/metrics`)).text();
    expect(metrics).toMatch(/switch_bank_calls_total\{bank="banco_plaza",operation="execute",outcome="not_processed"\} 1\b/);
  });
});
