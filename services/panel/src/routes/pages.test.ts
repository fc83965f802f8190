import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { createMerchant } from '@switch/usecases/onboarding';
import { newTransaction } from '@switch/core/operation';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import type { PanelRole } from '@switch/platform/ports/panel-access';
import { loadPanelConfig } from '../config';
import { panelPlugin } from '../panel';
import { hashPassword } from '../passwords';

const PASSWORD = 'correct horse battery staple';

/** A browser over inject: the session cookie, the last page's CSRF token, and a reload. */
class Browser {
  cookie = '';
  csrf = '';
  /** The URL the browser shows: a reload asks it again. */
  at = '';
  constructor(private readonly app: FastifyInstance) {}

  private keep(res: LightMyRequestResponse): LightMyRequestResponse {
    const set = res.headers['set-cookie'];
    for (const c of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = c.split(';');
      if (pair?.startsWith('panel_session=')) this.cookie = pair;
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(res.body);
    if (token) this.csrf = token[1]!;
    return res;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    this.at = url;
    return this.keep(await this.app.inject({ method: 'GET', url, headers: this.cookie ? { cookie: this.cookie } : {} }));
  }

  /** Submits a form, without following its answer. */
  async post(url: string, form: Record<string, string | string[]>): Promise<LightMyRequestResponse> {
    const params = new URLSearchParams({ _csrf: this.csrf });
    for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        payload: params.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.cookie ? { cookie: this.cookie } : {}) },
      }),
    );
  }

  /** Submits a form and follows a redirect as a browser does (the address bar then shows the GET). */
  async submit(
    url: string,
    form: Record<string, string | string[]>,
  ): Promise<{ post: LightMyRequestResponse; page: LightMyRequestResponse }> {
    const post = await this.post(url, form);
    if (post.statusCode !== 303) return { post, page: post };
    return { post, page: await this.get(post.headers.location as string) };
  }

  reload(): Promise<LightMyRequestResponse> {
    return this.get(this.at);
  }
}

describe('panel forms never act twice (Post/Redirect/Get)', () => {
  let app: FastifyInstance;
  let store: MemoryStore;
  let owner: Browser;

  beforeEach(async () => {
    store = new MemoryStore();
    app = Fastify();
    await app.register(panelPlugin, {
      prefix: '/panel',
      store,
      secrets: SecretBox.ephemeral(),
      config: loadPanelConfig({ SWITCH_WEBHOOK_ALLOW_LOOPBACK: 'true' }),
      basePath: '/panel',
    });
    await app.ready();
    await createMerchant(store, { id: 'demo', nombre: 'Demo' });
    await addUser('duena@demo.test', 'owner');
    owner = new Browser(app);
    await owner.get('/panel/login');
    expect((await owner.submit('/panel/login', { email: 'duena@demo.test', password: PASSWORD })).post.statusCode).toBe(303);
  });
  afterEach(async () => {
    await app.close();
  });

  async function addUser(email: string, role: PanelRole) {
    await store.panelUsers.insert({
      id: email,
      merchantId: 'demo',
      role,
      passwordHash: await hashPassword(PASSWORD),
      active: true,
      invitedBy: null,
      createdAt: new Date().toISOString(),
    });
  }

  /** What the forms change, as one comparable value. */
  async function state() {
    return JSON.stringify({
      keys: (await store.apiKeys.listForMerchant('demo')).map((k) => [k.id, k.active]),
      endpoints: (await store.webhooks.listForMerchant('demo', 'test')).map((e) => [e.id, e.active, e.events, e.sealedSecret]),
      deliveries: await Promise.all(
        (await store.webhooks.listForMerchant('demo', 'test')).map(async (e) =>
          (await store.deliveries.listForEndpoint(e.id, 100)).map((d) => [d.id, d.status, d.nextAttemptAt]),
        ),
      ),
      invites: (await store.panelInvites.listForMerchant('demo')).map((i) => i.tokenHash),
      users: (await store.panelUsers.listForMerchant('demo')).map((u) => [u.id, u.role, u.active]),
      audit: (await store.audit.listForMerchant('demo', 500)).length,
    });
  }

  /**
   * Submits a form from `page`: it answers 303; the page it leads to says `message` once; a reload
   * of that page changes nothing and says it no more.
   */
  async function once(page: string, action: string, form: Record<string, string | string[]>, message: string) {
    await owner.get(page);
    const before = await state();
    const { post, page: after } = await owner.submit(action, form);
    expect(post.statusCode, post.body).toBe(303);
    expect(post.headers.location).toMatch(/[?&]aviso=/);
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain(message);
    const changed = await state();
    expect(changed).not.toBe(before);
    const reloaded = await owner.reload();
    expect(reloaded.statusCode).toBe(200);
    expect(reloaded.body).not.toContain(message);
    expect(await state()).toBe(changed);
    return after;
  }

  const endpoint = async () => {
    await once(
      '/panel/webhooks',
      '/panel/webhooks',
      { url: 'http://127.0.0.1:9/h', events: ['transaccion.liquidada'] },
      'Endpoint registrado',
    );
    return (await store.webhooks.listForMerchant('demo', 'test'))[0]!.id;
  };

  it('creating a key: the key is shown once after the redirect, a reload keeps 1 key and shows no secret', async () => {
    const page = await once('/panel/claves', '/panel/claves', {}, 'Clave creada');
    const key = /id="new-key" class="mono" readonly value="([^"]+)"/.exec(page.body)![1]!;
    expect(key).toMatch(/^demo:sk_test_/);
    // The curl helper names the host: the request's origin here (no public URL configured).
    expect(page.body).toMatch(/curl -s http:\/\/localhost(:80)?\/switch\/v1\/bancos/);
    expect((await owner.reload()).body).not.toContain(key);
    expect(await store.apiKeys.listForMerchant('demo')).toHaveLength(1);
    // Nothing of the key is in clear in the session store, nor in the redirect.
    const sessions = JSON.stringify([...(store as unknown as { sessionRows: Map<string, unknown> }).sessionRows.values()]);
    expect(sessions).not.toContain(key.split(':')[1]);
  });

  it('revoking a key', async () => {
    await once('/panel/claves', '/panel/claves', {}, 'Clave creada');
    const id = (await store.apiKeys.listForMerchant('demo'))[0]!.id;
    await once('/panel/claves', `/panel/claves/${id}/revocar`, {}, 'revocada');
  });

  it('adding an endpoint, changing its events, disabling, enabling, rotating, testing, redelivering, deleting', async () => {
    const id = await endpoint();
    const detail = `/panel/webhooks/${id}`;
    await once(detail, `${detail}/eventos`, { events: ['transaccion.liquidada', 'transaccion.rechazada'] }, 'Cambios guardados');
    await once(detail, `${detail}/desactivar`, {}, 'Endpoint desactivado');
    await once(detail, `${detail}/activar`, {}, 'Endpoint activado');
    const rotated = await once(detail, `${detail}/rotar`, {}, 'Secreto rotado');
    expect(rotated.body).toContain('id="new-secret"');
    await once(detail, `${detail}/prueba`, {}, 'Evento de prueba en cola');
    expect(await store.deliveries.listForEndpoint(id, 10)).toHaveLength(1);
    const delivery = (await store.deliveries.listForEndpoint(id, 10))[0]!;
    await store.deliveries.requeue(delivery.id, '2030-01-01T00:00:00.000Z');
    await once(detail, `/panel/entregas/${delivery.id}/reenviar`, { volver: detail }, 'Entrega en cola para un nuevo intento');
    await once(detail, `${detail}/eliminar`, {}, 'Endpoint eliminado');
    expect((await owner.get(detail)).statusCode).toBe(404);
  });

  it('inviting, re-sending, withdrawing an invitation; changing a role; disabling and enabling a teammate; a reset link', async () => {
    const first = await once('/panel/equipo', '/panel/equipo/invitar', { email: 'nueva@demo.test', role: 'viewer' }, 'Invitación creada');
    const link = /id="invite-link" class="mono" readonly value="([^"]+)"/.exec(first.body)![1]!;
    // Absolute: it is pasted into an e-mail.
    expect(link).toMatch(/^http:\/\/localhost(:80)?\/panel\/invitacion\/inv_/);
    // Listed as pending, without its link.
    expect(first.body).toContain('Invitaciones pendientes');
    expect((await owner.reload()).body).not.toContain(new URL(link).pathname);
    // Inviting the same address again sends it again: one pending invitation, the old link dead.
    const again = await once('/panel/equipo', '/panel/equipo/invitar', { email: 'nueva@demo.test', role: 'viewer' }, 'enviada de nuevo');
    const second = /id="invite-link" class="mono" readonly value="([^"]+)"/.exec(again.body)![1]!;
    expect(second).not.toBe(link);
    expect(await store.panelInvites.listForMerchant('demo')).toHaveLength(1);
    const late = new Browser(app);
    await late.get(new URL(link).pathname);
    const refused = await late.submit(new URL(link).pathname, { password: PASSWORD, password2: PASSWORD });
    expect(refused.post.statusCode).toBe(400);
    expect(refused.post.body).toContain('no es válida');
    await once('/panel/equipo', '/panel/equipo/invitaciones/reenviar', { email: 'nueva@demo.test' }, 'enviada de nuevo');
    expect(await store.panelInvites.listForMerchant('demo')).toHaveLength(1);
    await once('/panel/equipo', '/panel/equipo/invitaciones/revocar', { email: 'nueva@demo.test' }, 'anulada');
    expect(await store.panelInvites.listForMerchant('demo')).toHaveLength(0);

    await addUser('dev@demo.test', 'developer');
    await once('/panel/equipo', '/panel/equipo/dev@demo.test/rol', { role: 'viewer' }, 'Rol de dev@demo.test cambiado');
    await once('/panel/equipo', '/panel/equipo/dev@demo.test/activo', { activo: 'false' }, 'fue desactivado');
    await once('/panel/equipo', '/panel/equipo/dev@demo.test/activo', { activo: 'true' }, 'puede entrar de nuevo');
    const reset = await once('/panel/equipo', '/panel/equipo/dev@demo.test/restablecer', {}, 'Enlace creado');
    expect(reset.body).toMatch(/id="reset-link" class="mono" readonly value="http:\/\/localhost(:80)?\/panel\/restablecer\/rst_/);
  });

  it("a flash opens only with its own redirect's key, in its own session", async () => {
    await owner.get('/panel/claves');
    const post = await owner.post('/panel/claves', {});
    const location = post.headers.location as string;
    const token = new URL(location, 'http://x').searchParams.get('aviso')!;
    // Another session with the same key sees nothing; a forged key shows nothing either.
    const stranger = new Browser(app);
    await addUser('otra@demo.test', 'owner');
    await stranger.get('/panel/login');
    await stranger.submit('/panel/login', { email: 'otra@demo.test', password: PASSWORD });
    expect((await stranger.get(location)).body).not.toContain('id="new-key"');
    const forged = `/panel/claves?aviso=${token.slice(0, -4)}AAAA`;
    expect((await owner.get(forged)).body).not.toContain('id="new-key"');
    expect((await owner.get(location)).body).toContain('id="new-key"');
  });

  it('a viewer submits none of these forms (403) and sees no pending-invitation actions', async () => {
    await addUser('lector@demo.test', 'viewer');
    const viewer = new Browser(app);
    await viewer.get('/panel/login');
    await viewer.submit('/panel/login', { email: 'lector@demo.test', password: PASSWORD });
    await once('/panel/equipo', '/panel/equipo/invitar', { email: 'nueva@demo.test', role: 'viewer' }, 'Invitación creada');
    const team = await viewer.get('/panel/equipo');
    expect(team.body).toContain('nueva@demo.test');
    expect(team.body).not.toContain('/panel/equipo/invitaciones/reenviar');
    for (const action of ['/panel/equipo/invitaciones/reenviar', '/panel/equipo/invitaciones/revocar'])
      expect((await viewer.submit(action, { email: 'nueva@demo.test' })).post.statusCode).toBe(403);
    expect(await store.panelInvites.listForMerchant('demo')).toHaveLength(1);
  });
});

describe('panel lists that scale', () => {
  let app: FastifyInstance;
  let store: MemoryStore;
  let owner: Browser;

  beforeEach(async () => {
    store = new MemoryStore();
    app = Fastify();
    await app.register(panelPlugin, {
      prefix: '/panel',
      store,
      secrets: SecretBox.ephemeral(),
      config: loadPanelConfig({ SWITCH_WEBHOOK_ALLOW_LOOPBACK: 'true' }),
      basePath: '/panel',
    });
    await app.ready();
    await createMerchant(store, { id: 'demo', nombre: 'Demo' });
    await store.panelUsers.insert({
      id: 'duena@demo.test',
      merchantId: 'demo',
      role: 'owner',
      passwordHash: await hashPassword(PASSWORD),
      active: true,
      invitedBy: null,
      createdAt: new Date().toISOString(),
    });
    owner = new Browser(app);
    await owner.get('/panel/login');
    await owner.submit('/panel/login', { email: 'duena@demo.test', password: PASSWORD });
  });
  afterEach(async () => {
    await app.close();
  });

  it("pages an endpoint's deliveries 25 at a time, all of them reachable", async () => {
    await owner.get('/panel/webhooks');
    await owner.submit('/panel/webhooks', { url: 'http://127.0.0.1:9/h', events: ['transaccion.liquidada'] });
    const id = (await store.webhooks.listForMerchant('demo', 'test'))[0]!.id;
    for (let i = 0; i < 30; i++) {
      await owner.get(`/panel/webhooks/${id}`);
      await owner.submit(`/panel/webhooks/${id}/prueba`, {});
    }
    const seen = new Set<string>();
    let page = (await owner.get(`/panel/webhooks/${id}`)).body;
    for (let n = 0; n < 5; n++) {
      for (const m of page.matchAll(/\/panel\/entregas\/([^/"]+)\/reenviar/g)) seen.add(m[1]!);
      const next = /href="([^"]+desde_entrega=[^"]+)" rel="next"/.exec(page);
      if (!next) break;
      page = (await owner.get(next[1]!.replaceAll('&amp;', '&'))).body;
    }
    expect(seen.size).toBe(30);
    expect((await owner.get(`/panel/webhooks/${id}`)).body.match(/\/reenviar"/g)).toHaveLength(25);
  });

  it("pages a transaction's own deliveries 25 at a time, all of them reachable", async () => {
    const now = new Date().toISOString();
    const tx = newTransaction({
      id: 'txn_muchas',
      merchantId: 'demo',
      mode: 'test',
      idempotencyKey: '00000000-0000-4000-8000-000000000001',
      fingerprint: 'f',
      request: { kind: 'pagar', body: { monto: { valor: 10, moneda: 'VES' }, concepto: 'Factura' } } as never,
      relatedId: null,
      now,
    });
    await store.transactionLog.commit({ ...tx, estado: 'LIQUIDADA', bancoUsado: 'bnc' }, null, {
      announcedVersion: tx.version,
      writtenBy: null,
      replyTo: [],
    });
    for (let i = 0; i < 30; i++) {
      const at = new Date(Date.UTC(2026, 10, 20, 12, i)).toISOString();
      await store.deliveries.insert({
        id: `txn_muchas.v${i}.wh_${i}`,
        merchantId: 'demo',
        mode: 'test',
        endpointId: `wh_${i}`,
        url: 'https://example.test/h',
        txnId: 'txn_muchas',
        event: 'transaccion.liquidada',
        body: '{}',
        status: 'delivered',
        attempts: [],
        nextAttemptAt: null,
        lease: null,
        createdAt: at,
        updatedAt: at,
      });
    }
    const seen = new Set<string>();
    let page = (await owner.get('/panel/transacciones/txn_muchas')).body;
    expect(page.match(/\/reenviar"/g)).toHaveLength(25);
    for (let n = 0; n < 5; n++) {
      for (const m of page.matchAll(/\/panel\/entregas\/([^/"]+)\/reenviar/g)) seen.add(m[1]!);
      const next = /href="([^"]+desde_entrega=[^"]+)" rel="next"/.exec(page);
      if (!next) break;
      page = (await owner.get(next[1]!.replaceAll('&amp;', '&'))).body;
    }
    expect(seen.size).toBe(30);
    // The summary card stays on every page of deliveries.
    expect(page).toContain('Bs. 10,00');
  });

  it('filters the audit log by action, person and day, labelled, and pages it', async () => {
    for (let i = 0; i < 60; i++)
      await store.audit.append({
        id: `aud_${String(i).padStart(4, '0')}`,
        merchantId: 'demo',
        at: new Date(Date.UTC(2026, 10, 20, 12, i)).toISOString(),
        actor: i % 2 ? 'duena@demo.test' : 'operator',
        action: i % 3 ? 'key.create' : 'user.invite',
        mode: 'test',
        target: null,
        ip: null,
      });
    const all = (await owner.get('/panel/auditoria')).body;
    expect(all.match(/<tr><td><time/g)).toHaveLength(50);
    expect(all).toMatch(/title="key.create">Clave creada</);
    const invites = (await owner.get('/panel/auditoria?accion=user.invite&desde=2026-11-20&hasta=2026-11-20')).body;
    expect(invites.match(/<tr><td><time/g)).toHaveLength(20);
    expect(invites).not.toContain('title="key.create"');
    const byOperator = (await owner.get('/panel/auditoria?accion=user.invite&quien=operator')).body;
    expect(byOperator.match(/<tr><td><time/g)).toHaveLength(10);
    expect((await owner.get('/panel/auditoria?hasta=2026-11-19')).body).toContain('Sin actividad');
    const next = /href="\/panel\/auditoria\?([^"]+)" rel="next"/.exec(all)![1]!.replaceAll('&amp;', '&');
    expect((await owner.get(`/panel/auditoria?${next}`)).body.match(/<tr><td><time/g)!.length).toBeGreaterThanOrEqual(10);
  });
});

describe('balances read only the accounts the page lists', () => {
  let app: FastifyInstance;
  let store: MemoryStore;
  let owner: Browser;
  /** Every read the panel asked for: none may leave for an account the merchant has not registered. */
  let asked: string[];

  beforeEach(async () => {
    store = new MemoryStore();
    asked = [];
    const saldo = (cuenta: string) => ({
      cuenta,
      banco: 'bnc' as const,
      disponible: 10,
      contable: 10,
      bloqueado: 0,
      consultado_en: new Date().toISOString(),
    });
    app = Fastify();
    await app.register(panelPlugin, {
      prefix: '/panel',
      store,
      secrets: SecretBox.ephemeral(),
      config: loadPanelConfig({}),
      basePath: '/panel',
      accounts: {
        saldo: async (_caller, cuenta) => {
          asked.push(`saldo ${cuenta}`);
          return { ok: true, value: saldo(cuenta) } as never;
        },
        movimientos: async (_caller, q) => {
          asked.push(`movimientos ${q.cuenta}`);
          return {
            ok: true,
            value: { cuenta: q.cuenta, desde: q.desde, hasta: q.hasta ?? q.desde, movimientos: [], siguiente: null },
          } as never;
        },
        creditos: async () => {
          throw new Error('the balances page never reads credits');
        },
      },
    });
    await app.ready();
    await createMerchant(store, { id: 'demo', nombre: 'Demo' });
    await store.panelUsers.insert({
      id: 'duena@demo.test',
      merchantId: 'demo',
      role: 'owner',
      passwordHash: await hashPassword(PASSWORD),
      active: true,
      invitedBy: null,
      createdAt: new Date().toISOString(),
    });
    owner = new Browser(app);
    await owner.get('/panel/login');
    await owner.submit('/panel/login', { email: 'duena@demo.test', password: PASSWORD });
  });
  afterEach(async () => {
    await app.close();
  });

  const REGISTERED = '01910000000000000001';
  const OTHER = '01910000000000000002';

  it('with no account registered, refuses any account with a clear message and asks the bank nothing', async () => {
    const page = (await owner.get(`/panel/saldos?cuenta=${OTHER}`)).body;
    expect(page).toContain('No hay cuentas registradas');
    expect(page).toMatch(/role="alert">[^<]*no está registrada/);
    expect(asked).toEqual([]);
    expect((await owner.get(`/panel/saldos.csv?cuenta=${OTHER}`)).statusCode).toBe(422);
    expect(asked).toEqual([]);
  });

  it("refuses an account of another merchant or another mode, reads the merchant's own", async () => {
    await store.accounts.register({
      merchantId: 'demo',
      mode: 'test',
      banco: 'bnc',
      cuenta: REGISTERED,
      telefono: null,
      createdAt: new Date().toISOString(),
    });
    await store.accounts.register({
      merchantId: 'demo',
      mode: 'live',
      banco: 'bnc',
      cuenta: OTHER,
      telefono: null,
      createdAt: new Date().toISOString(),
    });
    const refused = (await owner.get(`/panel/saldos?cuenta=${OTHER}`)).body;
    expect(refused).toMatch(/role="alert">[^<]*no está registrada/);
    expect(asked).toEqual([]);
    const read = (await owner.get(`/panel/saldos?cuenta=${REGISTERED}`)).body;
    expect(read).not.toContain('role="alert"');
    expect(read).toContain('Bs. 10,00');
    expect(asked).toEqual([`saldo ${REGISTERED}`, `movimientos ${REGISTERED}`]);
  });
});
