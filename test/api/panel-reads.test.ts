import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { createInvite } from '@switch/usecases/panel-access';
import { createLogger } from '@switch/platform/telemetry/logger';
import { createMerchant } from '@switch/usecases/onboarding';
import { loadRoutingTable } from '@switch/platform/config/routing';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import type { PagarBody } from '@switch/core/contracts/operaciones';
import { newTransaction } from '@switch/core/operation';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { loadPanelConfig, panelPlugin, startPanelReads } from '@switch/panel';
import { OPENING_BALANCE, startSimulatedBank } from '@switch/bank-sim';
import { CUENTA_ORDENANTE, pagarBody } from './helpers';

const PASSWORD = 'correct horse battery staple';
const MERCHANT = 'lecturas';

/**
 * The panel as its own process (services/panel/src/main.ts): no gateway in it. Its balances page asks
 * the bank connectors over the bus with the shared account reads, here the simulated bank (`bnc`,
 * test mode) subscribed to the same bus, and shows what `/switch/v1/saldo` and `/movimientos` answer.
 */
describe('standalone merchant panel: balances and statements over the bus', () => {
  const store = new MemoryStore();
  const bus = new MemoryBus({});
  const stops: (() => Promise<void>)[] = [];
  let app: FastifyInstance;
  let cookie = '';
  let csrf = '';
  let referencia = '';

  const keep = (res: LightMyRequestResponse) => {
    const set = ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? []);
    cookie = set.map((c) => c.split(';')[0]!).find((c) => c.startsWith('panel_session=')) ?? cookie;
    csrf = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? csrf;
    return res;
  };
  const get = async (url: string) => keep(await app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} }));
  const post = async (url: string, fields: Record<string, string>) =>
    keep(
      await app.inject({
        method: 'POST',
        url,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
      }),
    );

  beforeAll(async () => {
    await createMerchant(store, { id: MERCHANT, nombre: 'Comercio de lecturas' });
    expect(
      await store.accounts.register({
        merchantId: MERCHANT,
        mode: 'test',
        banco: 'bnc',
        cuenta: CUENTA_ORDENANTE,
        telefono: null,
        createdAt: new Date().toISOString(),
      }),
    ).toBe(true);
    const sim = await startSimulatedBank({ bus, store, secrets: SecretBox.ephemeral(), log: createLogger('test', 'silent') });
    stops.push(sim.stop);
    // A payout debited from the account at the simulated bank: the statement's one movement.
    const body = pagarBody() as unknown as PagarBody;
    const txnId = `txn_${randomUUID()}`;
    const outcome = await sim.bank.execute({
      txnId,
      attempt: 1,
      orderRef: randomUUID(),
      mode: 'test',
      rail: 'pago_movil',
      idempotencyKey: body.idempotency_key,
      request: { kind: 'pagar', body },
      related: null,
      merchantId: MERCHANT,
    });
    referencia = 'referencia' in outcome ? String(outcome.referencia) : '';
    expect(referencia).toMatch(/^TEST-/);
    // The merchant's own operation behind that movement: a test-mode statement shows only those.
    const now = new Date().toISOString();
    const tx = newTransaction({
      id: txnId,
      merchantId: MERCHANT,
      mode: 'test',
      idempotencyKey: body.idempotency_key,
      fingerprint: 'f',
      request: { kind: 'pagar', body },
      relatedId: null,
      now,
    });
    expect(
      await store.transactionLog.commit({ ...tx, estado: 'LIQUIDADA', bancoUsado: 'bnc', referenciaBanco: referencia }, null, {
        announcedVersion: tx.version,
        writtenBy: null,
        replyTo: [],
      }),
    ).toBe(true);

    const reads = await startPanelReads({ bus, store, routing: loadRoutingTable({}), readTimeoutMs: 20_000 });
    stops.push(reads.close);
    app = Fastify();
    const config = { ...loadPanelConfig({}), sessionSecret: randomBytes(32).toString('base64url') };
    await app.register(async (child) => panelPlugin(child, { store, config, secrets: SecretBox.ephemeral(), accounts: reads.reads }), {
      prefix: '/panel',
    });

    const { token } = await createInvite(store, { merchantId: MERCHANT, email: 'duena@lecturas.test', role: 'viewer', invitedBy: null });
    expect((await get(`/panel/invitacion/${token}`)).statusCode).toBe(200);
    const joined = await post(`/panel/invitacion/${token}`, { password: PASSWORD, password2: PASSWORD });
    expect(joined.statusCode, joined.body).toBe(303);
  });
  afterAll(async () => {
    await app?.close();
    for (const stop of stops.reverse()) await stop();
    await bus.close();
  });

  it("shows the registered test account's balance and statement, as the bank answered them", async () => {
    const list = await get('/panel/saldos');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`/panel/saldos?cuenta=${CUENTA_ORDENANTE}`);

    const res = await get(`/panel/saldos?cuenta=${CUENTA_ORDENANTE}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('role="alert"');
    // In bolívares as a Venezuelan reads them (es-VE separators).
    const disponible = new Intl.NumberFormat('es-VE', { minimumFractionDigits: 2 }).format(OPENING_BALANCE - 125.5);
    expect(res.body).toContain(`<dd class="num">Bs. ${disponible}</dd>`);
    expect(res.body).toContain(referencia);
    expect(res.body).toContain('−Bs. 125,50');
  });

  it("gives the API's refusals as page messages, with nothing shown", async () => {
    const wide = await get(`/panel/saldos?cuenta=${CUENTA_ORDENANTE}&desde=2020-01-01&hasta=2020-03-01`);
    expect(wide.statusCode).toBe(200);
    expect(wide.body).toContain('hasta: the window may span at most 31 days');
    expect(wide.body).not.toContain(referencia);

    // Live mode: only the merchant's registered live accounts may be read (none here): the panel
    // refuses before any bank is asked (decision 0204).
    expect((await post('/panel/modo', { modo: 'live', volver: '/panel/saldos' })).statusCode).toBe(303);
    const live = await get(`/panel/saldos?cuenta=${CUENTA_ORDENANTE}`);
    expect(live.statusCode).toBe(200);
    expect(live.body).toContain(`La cuenta ${CUENTA_ORDENANTE} no está registrada en modo`);
    expect(live.body).not.toContain('Disponible</dt>');
  });
});
