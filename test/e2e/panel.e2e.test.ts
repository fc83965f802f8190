import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  createTestMerchant,
  freePort,
  isolatedRun,
  reportServicesOnFailure,
  type ServiceProcess,
  startService,
  stopAllServices,
} from './processes';

/**
 * The merchant panel as its own process (the Kubernetes Deployment's command) on real Kafka and
 * MongoDB, beside a gateway, the router and the simulated bank: its balances page shows the balance
 * and statement of the merchant's registered test account exactly as the merchant API answers them.
 */
const RUN = isolatedRun('panel');
const CUENTA = '01910000000000000001';
const PASSWORD = 'correct horse battery staple';
/** Yesterday in Venezuela (UTC-4): the statement's first day, so a day turning mid-test still shows the payout. */
const yesterday = () => new Date(Date.now() - 28 * 3600_000).toISOString().slice(0, 10);
const env = { ...RUN.env, SWITCH_QUERY_TIMEOUT_MS: '20000' };

describe('end to end: the standalone panel reads balances and statements over Kafka', () => {
  let gateway: ServiceProcess;
  let panelBase = '';
  let key = '';
  let cookie = '';
  let csrf = '';

  const keep = async (res: Response) => {
    const set = res.headers.getSetCookie().find((c) => c.startsWith('panel_session='));
    if (set) cookie = set.split(';')[0]!;
    const body = await res.text();
    csrf = /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? csrf;
    return { status: res.status, body };
  };
  const page = async (path: string) => keep(await fetch(`${panelBase}${path}`, { headers: { cookie }, redirect: 'manual' }));
  const form = async (path: string, fields: Record<string, string>) =>
    keep(
      await fetch(`${panelBase}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
        redirect: 'manual',
      }),
    );

  beforeAll(async () => {
    RUN.requireInfra();
    const panelPort = await freePort();
    await Promise.all([
      startService('router', env),
      startService('bank-sim', env),
      startService('panel', { ...env, PANEL_PORT: String(panelPort) }),
    ]);
    gateway = await startService('gateway', env);
    panelBase = `http://127.0.0.1:${panelPort}`;
    const merchant = await createTestMerchant(gateway, RUN.adminToken, 'panelista', 'Comercio del panel');
    key = merchant.key;
    const registered = await fetch(`${merchant.merchantUrl}/accounts`, {
      method: 'POST',
      headers: merchant.admin,
      body: JSON.stringify({ mode: 'test', banco: 'bnc', cuenta: CUENTA }),
    });
    expect(registered.status, await registered.text()).toBe(201);
    const invite = await fetch(`${merchant.merchantUrl}/panel-invites`, {
      method: 'POST',
      headers: merchant.admin,
      body: JSON.stringify({ email: 'duena@panelista.test', role: 'owner' }),
    });
    const { path } = (await invite.json()) as { path: string };
    expect((await page(path)).status).toBe(200);
    expect((await form(path, { password: PASSWORD, password2: PASSWORD })).status).toBe(303);
  });

  afterAll(async () => {
    await stopAllServices();
  });

  reportServicesOnFailure();

  it('shows what /switch/v1/saldo and /movimientos answer for the registered account', async () => {
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${gateway.port}${path}`, {
        ...init,
        headers: { 'x-switch-key': key, 'content-type': 'application/json', ...init.headers },
      });
    const pago = await api('/switch/v1/pagar', {
      method: 'POST',
      body: JSON.stringify({
        idempotency_key: randomUUID(),
        monto: { valor: 125.5, moneda: 'VES' },
        concepto: 'e2e panel',
        ordenante: { tipo: 'cuenta', valor: CUENTA, banco: '0191', identificacion: 'J123456789', nombre: 'Comercio E2E' },
        beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
        via: 'pago_movil',
      }),
    });
    const paid = (await pago.json()) as { estado: string; referencia_banco: string };
    expect(paid.estado).toBe('LIQUIDADA');

    const read = async (path: string) => {
      const res = await api(path);
      const body = await res.text();
      expect(res.status, body).toBe(200);
      return JSON.parse(body) as unknown;
    };
    const saldo = (await read(`/switch/v1/saldo?cuenta=${CUENTA}`)) as { disponible: number; contable: number };
    const movimientos = (await read(`/switch/v1/movimientos?cuenta=${CUENTA}&desde=${yesterday()}`)) as {
      movimientos: { referencia: string; monto: number }[];
    };
    expect(movimientos.movimientos.map((m) => m.referencia)).toEqual([paid.referencia_banco]);

    const shown = await page(`/panel/saldos?cuenta=${CUENTA}&desde=${yesterday()}`);
    expect(shown.status).toBe(200);
    expect(shown.body).not.toContain('role="alert"');
    // In bolívares as a Venezuelan reads them (es-VE separators).
    const bs = (v: number) => `Bs. ${new Intl.NumberFormat('es-VE', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v)}`;
    expect(shown.body).toContain(`<dd class="num">${bs(saldo.disponible)}</dd>`);
    expect(shown.body).toContain(`<dd class="num">${bs(saldo.contable)}</dd>`);
    expect(shown.body).toContain(paid.referencia_banco);
    expect(shown.body).toContain('−Bs. 125,50');
  });
});
