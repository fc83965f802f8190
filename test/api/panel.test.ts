import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { createInvite, createPasswordReset } from '@switch/usecases/panel-access';
import { createLogger } from '@switch/platform/telemetry/logger';
import { createMerchant } from '@switch/usecases/onboarding';
import { CUENTA_ORDENANTE, pagarBody, startTestSwitch, type TestSwitch } from './helpers';

const PASSWORD = 'correct horse battery staple';

/** A browser's worth of state over inject: the session cookie and the last page's CSRF token. */
class Visitor {
  cookie = '';
  csrf = '';
  constructor(private readonly t: TestSwitch) {}

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
    return this.keep(await this.t.inject({ method: 'GET', url, headers: this.cookie ? { cookie: this.cookie } : {} }));
  }

  async post(
    url: string,
    form: Record<string, string | string[]>,
    options: { csrf?: string | null } = {},
  ): Promise<LightMyRequestResponse> {
    const params = new URLSearchParams();
    const token = options.csrf === undefined ? this.csrf : options.csrf;
    if (token !== null) params.append('_csrf', token);
    for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
    return this.keep(
      await this.t.inject({
        method: 'POST',
        url,
        payload: params.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.cookie ? { cookie: this.cookie } : {}) },
      }),
    );
  }

  async signIn(email: string, password = PASSWORD): Promise<LightMyRequestResponse> {
    await this.get('/panel/login');
    return this.post('/panel/login', { email, password });
  }

  /** A form that changes something answers 303 (Post/Redirect/Get); this opens the page it leads to. */
  async follow(res: LightMyRequestResponse): Promise<LightMyRequestResponse> {
    expect(res.statusCode, res.body).toBe(303);
    return this.get(res.headers.location as string);
  }
}

/** Accepts an invitation as a new visitor would, and returns that visitor signed in. */
async function join(t: TestSwitch, merchantId: string, email: string, role: 'owner' | 'developer' | 'viewer'): Promise<Visitor> {
  const { token } = await createInvite(t.sw.store, { merchantId, email, role, invitedBy: null });
  const v = new Visitor(t);
  expect((await v.get(`/panel/invitacion/${token}`)).statusCode).toBe(200);
  const res = await v.post(`/panel/invitacion/${token}`, { password: PASSWORD, password2: PASSWORD });
  expect(res.statusCode, res.body).toBe(303);
  return v;
}

describe('merchant panel (HTTP)', () => {
  let t: TestSwitch;
  let owner: Visitor;

  beforeAll(async () => {
    t = await startTestSwitch({ config: { adminToken: 'operator-token-0123456789' } });
    owner = await join(t, t.merchantId, 'duena@demo.test', 'owner');
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'GET /panel/assets/%s → 404 (an inherited property was looked up: 500)',
    async (name) => {
      const res = await t.inject({ method: 'GET', url: `/panel/assets/${name}` });
      expect(res.statusCode).toBe(404);
    },
  );

  it('is off the OpenAPI document and sends signed-out visitors to the sign-in page', async () => {
    const anonymous = new Visitor(t);
    const res = await anonymous.get('/panel/claves');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/panel/login');
    const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/panel'))).toBe(false);
  });

  it('the operator invites the first user; the invitation works once; the password is stored as argon2id', async () => {
    const res = await t.operator({
      method: 'POST',
      url: `/admin/v1/merchants/${t.merchantId}/panel-invites`,
      headers: { authorization: 'Bearer operator-token-0123456789' },
      payload: { email: 'Primer@Demo.test', role: 'owner' },
    });
    expect(res.statusCode).toBe(201);
    const { path, email } = res.json();
    expect(email).toBe('primer@demo.test');
    const v = new Visitor(t);
    await v.get(path);
    expect((await v.post(path, { password: 'short', password2: 'short' })).statusCode).toBe(400);
    expect((await v.post(path, { password: PASSWORD, password2: PASSWORD })).statusCode).toBe(303);
    expect((await t.sw.store.panelUsers.get('primer@demo.test'))!.passwordHash).toMatch(/^\$argon2id\$/);
    const again = new Visitor(t);
    await again.get(path);
    const reused = await again.post(path, { password: PASSWORD, password2: PASSWORD });
    expect(reused.statusCode).toBe(400);
    expect(reused.body).toContain('no es válida');

    const invite = (payload: object, merchant = t.merchantId) =>
      t.operator({
        method: 'POST',
        url: `/admin/v1/merchants/${merchant}/panel-invites`,
        headers: { authorization: 'Bearer operator-token-0123456789' },
        payload,
      });
    expect((await invite({ email: 'primer@demo.test', role: 'owner' })).statusCode).toBe(409);
    expect((await invite({ email: 'not-an-address', role: 'owner' })).json()).toMatchObject({ error: 'VALIDATION' });
    expect((await invite({ email: 'x@demo.test', role: 'admin' })).statusCode).toBe(400);
    expect((await invite({ email: 'x@demo.test', role: 'owner' }, 'nadie')).statusCode).toBe(404);
  });

  it("the operator issues a one-time password reset link: it works once and ends the user's sessions; deactivated users are neither reset nor invited again", async () => {
    const admin = (url: string, payload: object = {}) =>
      t.operator({ method: 'POST', url, headers: { authorization: 'Bearer operator-token-0123456789' }, payload });
    const user = await join(t, t.merchantId, 'olvido@demo.test', 'developer');
    expect((await user.get('/panel/claves')).statusCode).toBe(200);
    const res = await admin(`/admin/v1/merchants/${t.merchantId}/panel-users/${encodeURIComponent('Olvido@demo.test')}/password-reset`);
    expect(res.statusCode, res.body).toBe(201);
    const { path, email, expiresAt } = res.json();
    expect(email).toBe('olvido@demo.test');
    expect(path).toMatch(/^\/panel\/restablecer\/rst_/);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const holder = new Visitor(t);
    await holder.get(path);
    const NEW = 'forgotten and found again';
    expect((await holder.post(path, { password: NEW, password2: NEW })).statusCode).toBe(303);
    expect((await user.get('/panel/claves')).statusCode).toBe(303);
    await holder.get(path);
    expect((await holder.post(path, { password: NEW, password2: NEW })).statusCode).toBe(400);
    expect((await new Visitor(t).signIn('olvido@demo.test', NEW)).statusCode).toBe(303);

    // Not this merchant's user, or nobody: 404. Deactivated: 409, and no invitation brings them back.
    await createMerchant(t.sw.store, { id: 'vecino', nombre: 'Vecino' });
    expect((await admin(`/admin/v1/merchants/vecino/panel-users/olvido%40demo.test/password-reset`)).statusCode).toBe(404);
    expect((await admin(`/admin/v1/merchants/${t.merchantId}/panel-users/nadie%40demo.test/password-reset`)).statusCode).toBe(404);
    await t.sw.store.panelUsers.update('olvido@demo.test', { active: false });
    const refused = await admin(`/admin/v1/merchants/${t.merchantId}/panel-users/olvido%40demo.test/password-reset`);
    expect(refused.statusCode).toBe(409);
    const reinvite = await admin(`/admin/v1/merchants/${t.merchantId}/panel-invites`, { email: 'olvido@demo.test', role: 'viewer' });
    expect(reinvite.statusCode).toBe(409);
    expect(reinvite.json()).toMatchObject({ error: 'USER_DEACTIVATED' });
  });

  it('signs in with the right password only; the session cookie is http-only, same-site and scoped to /panel', async () => {
    const v = new Visitor(t);
    await v.get('/panel/login');
    const wrong = await v.post('/panel/login', { email: 'duena@demo.test', password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    const ok = await v.post('/panel/login', { email: 'duena@demo.test', password: PASSWORD });
    expect(ok.statusCode).toBe(303);
    const cookie = ([] as string[]).concat(ok.headers['set-cookie'] as string[] | string)[0]!;
    expect(cookie).toMatch(/HttpOnly/i);
    // Over plain http (`SWITCH_PANEL_COOKIE_SECURE=auto`) the session library sends Lax; over https, Secure and Strict.
    expect(cookie).toMatch(/SameSite=(Strict|Lax)/i);
    expect(cookie).toMatch(/Path=\/panel/);
    expect((await v.get('/panel/claves')).statusCode).toBe(200);
  });

  it('refuses a form without or with a wrong CSRF token (403), and changes nothing', async () => {
    const before = (await t.sw.store.apiKeys.listForMerchant(t.merchantId)).length;
    await owner.get('/panel/claves');
    expect((await owner.post('/panel/claves', {}, { csrf: null })).statusCode).toBe(403);
    expect((await owner.post('/panel/claves', {}, { csrf: 'forged-token' })).statusCode).toBe(403);
    expect((await t.sw.store.apiKeys.listForMerchant(t.merchantId)).length).toBe(before);
  });

  it('gives a new session id at sign-in: a session id planted before sign-in is not signed in (fixation)', async () => {
    const attacker = new Visitor(t);
    await attacker.get('/panel/login');
    const planted = attacker.cookie;
    expect(planted).not.toBe('');
    const victim = new Visitor(t);
    victim.cookie = planted;
    victim.csrf = attacker.csrf;
    const res = await victim.post('/panel/login', { email: 'duena@demo.test', password: PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(victim.cookie).not.toBe(planted);
    const asAttacker = await attacker.get('/panel/claves');
    expect(asAttacker.statusCode).toBe(303);
  });

  it('limits failed sign-ins per address and e-mail (429), even with the right password afterwards', async () => {
    const v = new Visitor(t);
    await v.get('/panel/login');
    for (let i = 0; i < 10; i++) await v.post('/panel/login', { email: 'victima@demo.test', password: `wrong-${i}` });
    const blocked = await v.post('/panel/login', { email: 'victima@demo.test', password: PASSWORD });
    expect(blocked.statusCode).toBe(429);
  });

  it('creates a test key shown once that works on the API; lists it by hint; revokes it (then 401)', async () => {
    await owner.get('/panel/claves');
    const created = await owner.follow(await owner.post('/panel/claves', {}));
    expect(created.statusCode).toBe(200);
    const key = /id="new-key" class="mono" readonly value="([^"]+)"/.exec(created.body)![1]!;
    expect(key).toMatch(new RegExp(`^${t.merchantId}:sk_test_`));
    const pago = await t.post('/switch/v1/pagar', pagarBody(), key);
    expect(pago.json().estado).toBe('LIQUIDADA');
    const list = await owner.get('/panel/claves');
    expect(list.body).not.toContain(key.split(':')[1]);
    expect(list.body).toContain(`…${key.slice(-4)}`);
    // Its last use is shown (recorded off the request path, at most once a minute).
    const used = async () => (await t.sw.store.apiKeys.listForMerchant(t.merchantId)).find((k) => k.hint === key.slice(-4))!.lastUsedAt;
    await vi.waitFor(async () => expect(await used()).toEqual(expect.any(String)));
    expect((await owner.get('/panel/claves')).body).toContain(`datetime="${await used()}"`);
    const id = (await t.sw.store.apiKeys.listForMerchant(t.merchantId)).find((k) => k.hint === key.slice(-4))!.id;
    expect((await owner.post(`/panel/claves/${id}/revocar`, {})).statusCode).toBe(303);
    expect((await t.get('/switch/v1/bancos', key)).statusCode).toBe(401);
    const audit = await owner.get('/panel/auditoria');
    expect(audit.body).toContain('key.create');
    expect(audit.body).toContain('key.revoke');
  });

  it('enforces roles on the server: a viewer cannot create keys or endpoints; a developer cannot create live keys', async () => {
    const viewer = await join(t, t.merchantId, 'lector@demo.test', 'viewer');
    await viewer.get('/panel/claves');
    expect((await viewer.post('/panel/claves', {})).statusCode).toBe(403);
    expect((await viewer.post('/panel/webhooks', { url: 'https://example.test/x', events: 'transaccion.liquidada' })).statusCode).toBe(403);
    expect((await viewer.post('/panel/equipo/invitar', { email: 'x@demo.test', role: 'owner' })).statusCode).toBe(403);
    const dev = await join(t, t.merchantId, 'dev@demo.test', 'developer');
    await dev.get('/panel/claves');
    await dev.post('/panel/modo', { modo: 'live', volver: '/panel/claves' });
    await dev.get('/panel/claves');
    expect((await dev.post('/panel/claves', {})).statusCode).toBe(403);
    expect((await t.sw.store.apiKeys.listForMerchant(t.merchantId)).some((k) => k.mode === 'live')).toBe(false);

    // The owner makes the developer a viewer, then disables them: signed out at the next request.
    await owner.get('/panel/equipo');
    expect((await owner.post('/panel/equipo/dev@demo.test/rol', { role: 'viewer' })).statusCode).toBe(303);
    expect((await t.sw.store.panelUsers.get('dev@demo.test'))!.role).toBe('viewer');
    expect((await owner.post('/panel/equipo/dev@demo.test/activo', { activo: 'false' })).statusCode).toBe(303);
    expect((await dev.get('/panel/claves')).statusCode).toBe(303);
    // Refused (401; or 429 here, as this address spent its sign-in failures in an earlier test).
    expect([401, 429]).toContain((await dev.signIn('dev@demo.test')).statusCode);
    // Nobody changes their own role, and a developer manages nobody.
    expect((await owner.post('/panel/equipo/duena@demo.test/rol', { role: 'viewer' })).statusCode).toBe(404);
    await viewer.get('/panel/equipo');
    expect((await viewer.post('/panel/equipo/dev@demo.test/activo', { activo: 'true' })).statusCode).toBe(403);
  });

  it("a second merchant's user sees none of the first's keys, endpoints, transactions or deliveries (404)", async () => {
    const pago = (await t.post('/switch/v1/pagar', pagarBody())).json();
    await owner.get('/panel/webhooks');
    const created = await owner.follow(
      await owner.post('/panel/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['transaccion.liquidada'] }),
    );
    expect(created.statusCode).toBe(200);
    const endpointId = /\/panel\/webhooks\/(we_[a-z0-9]+)/.exec(created.body)![1]!;
    await createMerchant(t.sw.store, { id: 'ajeno', nombre: 'Comercio ajeno' });
    const stranger = await join(t, 'ajeno', 'ajeno@otro.test', 'owner');
    expect((await stranger.get(`/panel/transacciones/${pago.id}`)).statusCode).toBe(404);
    expect((await stranger.get(`/panel/webhooks/${endpointId}`)).statusCode).toBe(404);
    expect((await stranger.get('/panel/transacciones')).body).not.toContain(pago.id);
    await stranger.get('/panel/webhooks');
    expect((await stranger.post(`/panel/webhooks/${endpointId}/eliminar`, {})).statusCode).toBe(404);
    expect((await stranger.get('/panel/claves')).body).not.toContain('…');
    expect((await owner.get(`/panel/webhooks/${endpointId}`)).statusCode).toBe(200);
  });

  it('refuses an endpoint at a port of the switch and an 11th endpoint with a clear 422, storing nothing (issue 26 items 6, 8)', async () => {
    await createMerchant(t.sw.store, { id: 'capado', nombre: 'Comercio con tope' });
    const capped = await join(t, 'capado', 'duena@capado.test', 'owner');
    await capped.get('/panel/webhooks');
    const admin = await capped.post('/panel/webhooks', {
      url: 'http://127.0.0.1:9100/admin/v1/merchants',
      events: ['transaccion.liquidada'],
    });
    expect(admin.statusCode).toBe(422);
    expect(admin.body).toContain('switch itself');
    for (let i = 0; i < 10; i++) {
      await capped.get('/panel/webhooks');
      expect(
        (await capped.post('/panel/webhooks', { url: `http://127.0.0.1:9/h${i}`, events: ['transaccion.liquidada'] })).statusCode,
      ).toBe(303);
    }
    await capped.get('/panel/webhooks');
    const eleventh = await capped.post('/panel/webhooks', { url: 'http://127.0.0.1:9/h10', events: ['transaccion.liquidada'] });
    expect(eleventh.statusCode).toBe(422);
    expect(eleventh.body).toContain('at most 10 webhook endpoints');
    expect(await t.sw.store.webhooks.listForMerchant('capado', 'test')).toHaveLength(10);
  });

  it('rotates an endpoint secret (new one shown once, overlap shown), sends a test event, disables and deletes', async () => {
    await owner.get('/panel/webhooks');
    const created = await owner.follow(
      await owner.post('/panel/webhooks', { url: 'http://127.0.0.1:9/rotar', events: ['transaccion.liquidada'] }),
    );
    const id = /\/panel\/webhooks\/(we_[a-z0-9]+)/.exec(created.body)![1]!;
    const first = (await t.sw.store.webhooks.get(id))!.sealedSecret;
    await owner.get(`/panel/webhooks/${id}`);
    const rotated = await owner.follow(await owner.post(`/panel/webhooks/${id}/rotar`, {}));
    expect(rotated.statusCode).toBe(200);
    const stored = (await t.sw.store.webhooks.get(id))!;
    expect(stored.sealedSecret).not.toBe(first);
    expect(stored.previousSecret?.sealedSecret).toBe(first);
    const secret = t.sw.secrets.open(stored.sealedSecret);
    expect(rotated.body).toContain(`value="${secret}"`);
    expect((await owner.get(`/panel/webhooks/${id}`)).body).not.toContain(secret);

    const test = await owner.follow(await owner.post(`/panel/webhooks/${id}/prueba`, {}));
    expect(test.statusCode).toBe(200);
    const deliveries = await t.sw.store.deliveries.listForEndpoint(id, 10);
    expect(deliveries).toHaveLength(1);
    expect(JSON.parse(deliveries[0]!.body).data).toMatchObject({ concepto: 'Evento de prueba' });

    await owner.post(`/panel/webhooks/${id}/desactivar`, {});
    expect((await t.sw.store.webhooks.get(id))!.active).toBe(false);
    expect((await owner.post(`/panel/webhooks/${id}/eliminar`, {})).statusCode).toBe(303);
    expect((await owner.get(`/panel/webhooks/${id}`)).statusCode).toBe(404);
    const audit = (await owner.get('/panel/auditoria')).body;
    for (const action of ['endpoint.create', 'endpoint.rotate', 'endpoint.test', 'endpoint.disable', 'endpoint.delete'])
      expect(audit).toContain(action);
  });

  it("reads an account's balance and statement on the balances page, with the API's checks", async () => {
    const pago = (await t.post('/switch/v1/pagar', pagarBody())).json();
    // Only a registered account is read (decision 0204); the API itself reads any test account.
    const unregistered = await owner.get(`/panel/saldos?cuenta=${CUENTA_ORDENANTE}`);
    expect(unregistered.body).toContain('no está registrada');
    expect(unregistered.body).not.toContain('Disponible');
    expect((await owner.get(`/panel/saldos.csv?cuenta=${CUENTA_ORDENANTE}`)).statusCode).toBe(422);
    await t.sw.store.accounts.register({
      merchantId: t.merchantId,
      mode: 'test',
      banco: 'bnc',
      cuenta: CUENTA_ORDENANTE,
      telefono: null,
      createdAt: new Date().toISOString(),
    });
    const res = await owner.get(`/panel/saldos?cuenta=${CUENTA_ORDENANTE}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Disponible');
    expect(res.body).toContain(pago.referencia_banco);
    expect((await owner.get('/panel/saldos?cuenta=123')).body).toContain('La cuenta son 20 dígitos.');
    const future = await owner.get(`/panel/saldos?cuenta=${CUENTA_ORDENANTE}&desde=2999-01-01&hasta=2999-01-02`);
    expect(future.statusCode).toBe(200);
    expect(future.body).toContain('desde: must not be in the future');
    // The statement as CSV: the same reads, every page, a debit signed.
    const csv = await owner.get(`/panel/saldos.csv?cuenta=${CUENTA_ORDENANTE}&formato=numerico`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.startsWith('fecha,hora,referencia,concepto,tipo,monto,saldo\r\n')).toBe(true);
    expect(csv.body).toMatch(new RegExp(`,${pago.referencia_banco},[^\r\n]*,debito,-125\\.50,`));
    const es = await owner.get(`/panel/saldos.csv?cuenta=${CUENTA_ORDENANTE}`);
    expect(es.body).toMatch(new RegExp(`;${pago.referencia_banco};[^\r\n]*;debito;-125,50;`));
    expect((await owner.get(`/panel/saldos.csv?cuenta=${CUENTA_ORDENANTE}&desde=2999-01-01&hasta=2999-01-02`)).statusCode).toBe(422);
  });

  it('lists the expected payments of the mode with their state, amounts in Bs., Caracas time, paged; another merchant sees none', async () => {
    const cobrador = { tipo: 'cuenta', valor: '01910000000000000777', banco: '0191', identificacion: 'J123456789', nombre: 'Tienda' };
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) {
      const res = await t.post('/switch/v1/cobros/esperados', {
        idempotency_key: randomUUID(),
        monto: { valor: 1719.83 },
        concepto: `Panel ${i}`,
        orden_id: `panel-${i}`,
        cobrador,
      });
      ids.push(res.json().id);
    }
    const list = await owner.get('/panel/cobros-esperados');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Bs. 1.719,83');
    expect(list.body).toMatch(/title="ESPERADO">Esperando</);
    expect(list.body).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} VET/);
    expect(list.body).toContain('panel-26');
    expect(list.body).not.toContain('panel-1<');
    const next = /href="\/panel\/cobros-esperados\?(cursor=[^"]+)" rel="next"/.exec(list.body)![1]!;
    const second = await owner.get(`/panel/cobros-esperados?${next.replace(/&amp;/g, '&')}`);
    expect(second.body).toContain('panel-0<');
    expect((await owner.get('/panel/cobros-esperados?estado=RECIBIDO')).body).not.toContain('panel-26');
    await createMerchant(t.sw.store, { id: 'ajeno-esp', nombre: 'Otro' });
    const stranger = await join(t, 'ajeno-esp', 'ajeno@esp.test', 'owner');
    expect((await stranger.get('/panel/cobros-esperados')).body).not.toContain('panel-26');
  });

  it('says money, times and codes for people: Bs. with Intl, Caracas time labelled, labels with the code on hover', async () => {
    const pago = (await t.post('/switch/v1/pagar', pagarBody({ monto: { valor: 1719.83, moneda: 'VES' } }))).json();
    const list = (await owner.get('/panel/transacciones')).body;
    expect(list).toContain('Bs. 1.719,83');
    expect(list).toContain('Pago a proveedor');
    // The counterparty column: a pagar's beneficiary, by name (also in the API's list).
    expect(list).toContain('<td class="col-party wrap">Ana Pérez</td>');
    const api = await t.get(`/switch/v1/transacciones?id=${pago.id}`);
    expect(api.json().transacciones[0]).toMatchObject({ concepto: 'Pago a proveedor', contraparte: 'Ana Pérez' });
    expect(list).toMatch(/title="LIQUIDADA">Liquidada</);
    expect(list).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} VET/);
    expect(list).not.toContain('1719.83 VES');
    const detail = (await owner.get(`/panel/transacciones/${pago.id}`)).body;
    // The summary card leads; the raw answers are folded.
    expect(detail.indexOf('class="card summary"')).toBeLessThan(detail.indexOf('<details'));
    expect(detail).toContain('El dinero se movió. Nada por hacer.');
    expect(detail).toMatch(/title="pago_movil">Pago móvil</);
    expect(detail).toMatch(/title="bank_outcome">Respuesta del banco</);
    const en = (await owner.get(`/panel/transacciones/${pago.id}?lang=en`)).body;
    expect(en).toContain('Bs. 1,719.83');
    expect(en).toMatch(/title="LIQUIDADA">Settled</);
    expect((await owner.get('/panel/transacciones')).body).toContain('Payout');
    await owner.get('/panel/transacciones?lang=es');
  });

  it("exports the filtered list as CSV, the merchant's own only, es and numeric, in the panel and the API", async () => {
    const pago = (await t.post('/switch/v1/pagar', pagarBody({ monto: { valor: 2500.5, moneda: 'VES' }, concepto: 'Export CSV' }))).json();
    const es = await owner.get('/panel/transacciones.csv?operacion=pagar');
    expect(es.statusCode).toBe(200);
    expect(es.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(es.headers['content-disposition']).toMatch(/^attachment; filename="transacciones-test-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(es.body.startsWith('\uFEFFid;creada;operacion;estado;motivo_rechazo;monto;')).toBe(true);
    expect(es.body).toContain(`${pago.id};`);
    expect(es.body).toContain(';2.500,50;VES;Export CSV;Ana Pérez;');
    const numeric = await owner.get('/panel/transacciones.csv?formato=numerico&estado=RECHAZADA');
    expect(numeric.body).not.toContain(pago.id);
    const api = await t.get('/switch/v1/transacciones.csv?formato=numerico&operacion=pagar');
    expect(api.statusCode).toBe(200);
    expect(api.body).toContain(`${pago.id},`);
    expect(api.body).toContain(',2500.50,VES,Export CSV,Ana Pérez,');
    expect((await t.get('/switch/v1/transacciones.csv?desde=2026-11-02&hasta=2026-11-01')).statusCode).toBe(400);
    expect((await t.get('/switch/v1/transacciones.csv?limite=5')).statusCode).toBe(400);
    // Another merchant exports none of these.
    await createMerchant(t.sw.store, { id: 'exporta', nombre: 'Otro comercio' });
    const other = await join(t, 'exporta', 'duena@exporta.test', 'owner');
    const theirs = (await other.get('/panel/transacciones.csv')).body;
    expect(theirs).not.toContain(pago.id);
    expect(theirs.trimEnd().split('\r\n')).toHaveLength(1);
  });

  it('the overview (the panel home, per mode) says how today went, with server-drawn charts', async () => {
    await t.post('/switch/v1/pagar', pagarBody({ monto: { valor: 300, moneda: 'VES' } }));
    const home = await owner.get('/panel/');
    expect(home.headers.location).toBe('/panel/resumen');
    const today = (await owner.get('/panel/resumen')).body;
    expect(today).toContain('Pagado');
    expect(today).toMatch(/Bs\. [\d.]+,\d{2}/);
    expect(today).toMatch(/title="bnc">BNC<|title="banco_plaza">|title="bancaribe">|title="banco_activo">/);
    expect(today).toContain('<svg class="chart"');
    const month = (await owner.get('/panel/resumen?periodo=30d')).body;
    expect(month.match(/<rect class="series-a"/g)).toHaveLength(30);
    expect((await owner.get('/panel/resumen?periodo=7d&lang=en')).body).toContain('Paid out');
    await owner.get('/panel/resumen?lang=es');
    // Live mode has its own figures: nothing paid there.
    await owner.get('/panel/resumen');
    await owner.post('/panel/modo', { modo: 'live', volver: '/panel/resumen' });
    expect((await owner.get('/panel/resumen')).body).toContain('Bs. 0,00');
    await owner.post('/panel/modo', { modo: 'test', volver: '/panel/resumen' });
  });

  it('renders every page in Spanish by default and in English on request', async () => {
    for (const page of ['transacciones', 'claves', 'webhooks', 'saldos', 'equipo', 'auditoria']) {
      const res = await owner.get(`/panel/${page}`);
      expect(res.statusCode, page).toBe(200);
      expect(res.body).toContain('<html lang="es">');
    }
    expect((await owner.get('/panel/claves?lang=en')).body).toContain('<html lang="en">');
    expect((await owner.get('/panel/claves')).body).toContain('API keys');
    await owner.get('/panel/claves?lang=es');
  });
});

describe('merchant panel on the embedded merchant port: request logs', () => {
  it('write invitation and reset links without their tokens', async () => {
    let logged = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const t = await startTestSwitch({ log: createLogger('test', 'info', sink) });
    try {
      const { token } = await createInvite(t.sw.store, {
        merchantId: t.merchantId,
        email: 'log@demo.test',
        role: 'owner',
        invitedBy: null,
      });
      const v = new Visitor(t);
      await v.get(`/panel/invitacion/${token}?origen=correo`);
      expect((await v.post(`/panel/invitacion/${token}`, { password: PASSWORD, password2: PASSWORD })).statusCode).toBe(303);
      const reset = await createPasswordReset(t.sw.store, { email: 'log@demo.test', issuedBy: 'operator' });
      await v.get(`/panel/restablecer/${reset.token}`);
      expect(logged).toContain('/panel/invitacion/inv_[redacted]');
      expect(logged).toContain('/panel/restablecer/rst_[redacted]');
      expect(logged).not.toContain(token.slice(4));
      expect(logged).not.toContain(reset.token.slice(4));
    } finally {
      await t.close();
    }
  });
});

describe("merchant panel: a cashier's 'verify a payment' form", () => {
  let t: TestSwitch;
  let cashier: Visitor;
  const CUENTA = '01910000000000000055';

  beforeAll(async () => {
    t = await startTestSwitch();
    cashier = await join(t, t.merchantId, 'caja@demo.test', 'viewer');
  });
  afterAll(async () => {
    await t?.close();
  });

  const arrive = async (monto: number) => {
    const res = await t.post('/switch/v1/sandbox/pago-movil-entrante', {
      monto: { valor: monto, moneda: 'VES' },
      banco_pagador: '0102',
      telefono_pagador: '04141234567',
      cobrador: { tipo: 'cuenta', valor: CUENTA, banco: '0191', identificacion: 'J123456789', nombre: 'Tienda' },
      // Sent "now" from 23:30 Caracas on, it would be booked tomorrow, a day not read yet.
      hora: '00:00',
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { referencia: string; fecha: string };
  };
  /** The form as the page gives it (its own idempotency key), filled with a receipt. */
  const fill = async (r: { referencia: string; fecha: string }, monto: string) => {
    const page = await cashier.get('/panel/verificar');
    expect(page.statusCode).toBe(200);
    const key = /name="idempotency_key" value="([^"]+)"/.exec(page.body)![1]!;
    return {
      idempotency_key: key,
      monto,
      banco_pagador: '0102',
      telefono_pagador: '04141234567',
      referencia: r.referencia,
      fecha: r.fecha,
      cuenta: CUENTA,
    };
  };

  it('verifies once (Post/Redirect/Get), the same form sent again is the same verification, the receipt again is already claimed', async () => {
    const r = await arrive(80.5);
    const form = await fill({ ...r, referencia: r.referencia.slice(-6) }, '80,50');
    const sent = await cashier.post('/panel/verificar', form);
    const shown = await cashier.follow(sent);
    expect(shown.body).toMatch(/VERIFICADO: el pago de 80.5 Bs\./);
    // A reload of the result page shows the form without the answer.
    expect((await cashier.get(sent.headers.location as string)).body).not.toMatch(/VERIFICADO:/);
    const resent = await cashier.follow(await cashier.post('/panel/verificar', form));
    expect(resent.body).toMatch(/VERIFICADO:/);
    const again = await cashier.follow(await cashier.post('/panel/verificar', await fill(r, '80.50')));
    expect(again.body).toMatch(/YA RECLAMADO: ese pago ya se usó \(verificacion ver_/);
  });

  it('another amount and an unknown reference say so; bad fields are named on the form', async () => {
    const r = await arrive(12);
    expect((await cashier.follow(await cashier.post('/panel/verificar', await fill(r, '21')))).body).toMatch(
      /MONTO DISTINTO: .* por 12 Bs\., no por 21 Bs\./,
    );
    expect((await cashier.follow(await cashier.post('/panel/verificar', await fill({ ...r, referencia: '55554444' }, '12')))).body).toMatch(
      /NO ENCONTRADO/,
    );
    const bad = await cashier.post('/panel/verificar', { ...(await fill(r, '12')), referencia: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/Revise: Referencia/);
  });

  it("test mode's sandbox button makes a payment arrive whose receipt then verifies", async () => {
    await cashier.get('/panel/verificar');
    const shown = await cashier.follow(await cashier.post('/panel/verificar/simular', { monto: '44,10', cuenta: CUENTA, hora: '00:00' }));
    const m = /Pago simulado: referencia ([0-9]{12}), ([0-9-]{10}) /.exec(shown.body);
    expect(m, shown.body).not.toBeNull();
    const verified = await cashier.follow(
      await cashier.post('/panel/verificar', await fill({ referencia: m![1]!, fecha: m![2]! }, '44,10')),
    );
    expect(verified.body).toMatch(/VERIFICADO: el pago de 44.1 Bs\./);
    const bad = await cashier.post('/panel/verificar/simular', { monto: '0', cuenta: CUENTA });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a form without the CSRF token', async () => {
    const r = await arrive(13);
    const res = await cashier.post('/panel/verificar', await fill(r, '13'), { csrf: null });
    expect(res.statusCode).toBe(403);
  });
});
