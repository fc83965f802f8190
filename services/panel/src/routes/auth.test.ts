import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { createInvite, createPasswordReset } from '@switch/usecases/panel-access';
import { createLogger } from '@switch/platform/telemetry/logger';
import { createMerchant } from '@switch/usecases/onboarding';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import type { PanelRole } from '@switch/platform/ports/panel-access';
import { loadPanelConfig } from '../config';
import { panelPlugin } from '../panel';
import { hashPassword } from '../passwords';

// Every password verification is counted: the throttle's guarantee is about how many are run.
const verified = vi.hoisted(() => ({ count: 0 }));
vi.mock('../passwords', async (original) => {
  const real = await original<typeof import('../passwords')>();
  return {
    ...real,
    verifyPassword: async (stored: string | null, password: string) => {
      verified.count++;
      return real.verifyPassword(stored, password);
    },
  };
});

const PASSWORD = 'correct horse battery staple';

/** A browser's worth of state over inject: the session cookie and the last page's CSRF token. */
class Visitor {
  cookie = '';
  csrf = '';
  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

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
    return this.keep(
      await this.app.inject({ method: 'GET', url, remoteAddress: this.ip, headers: this.cookie ? { cookie: this.cookie } : {} }),
    );
  }

  async post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    const params = new URLSearchParams({ _csrf: this.csrf, ...form });
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        remoteAddress: this.ip,
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

describe('panel accounts', () => {
  let app: FastifyInstance;
  let store: MemoryStore;
  let logged = '';

  /** The panel alone over an in-memory store, logging every request into `logged`. */
  async function start(apiBaseUrl?: string): Promise<void> {
    await app?.close();
    store = new MemoryStore();
    logged = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    app = Fastify({ loggerInstance: createLogger('panel-test', 'info', sink) as unknown as FastifyBaseLogger });
    await app.register(panelPlugin, {
      prefix: '/panel',
      store,
      secrets: SecretBox.ephemeral(),
      config: loadPanelConfig({}),
      basePath: '/panel',
      ...(apiBaseUrl ? { apiBaseUrl } : {}),
    });
    await app.ready();
    await createMerchant(store, { id: 'demo', nombre: 'Demo' });
    await createMerchant(store, { id: 'otro', nombre: 'Otro' });
    verified.count = 0;
  }

  beforeEach(async () => {
    await start();
  });
  afterEach(async () => {
    await app.close();
  });

  const addUser = async (email: string, merchantId = 'demo', role: PanelRole = 'owner') =>
    store.panelUsers.insert({
      id: email,
      merchantId,
      role,
      passwordHash: await hashPassword(PASSWORD),
      active: true,
      invitedBy: null,
      createdAt: new Date().toISOString(),
    });

  it('reserves sign-in attempts before verifying: of 40 parallel wrong passwords at most 10 are verified, the rest 429', async () => {
    await addUser('duena@demo.test');
    const visitors = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const v = new Visitor(app, '10.0.0.7');
        await v.get('/panel/login');
        return v;
      }),
    );
    verified.count = 0;
    const answers = await Promise.all(visitors.map((v, i) => v.post('/panel/login', { email: 'duena@demo.test', password: `wrong-${i}` })));
    const statuses = answers.map((a) => a.statusCode);
    expect(verified.count).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 401).length).toBe(verified.count);
    expect(statuses.filter((s) => s === 429).length).toBe(40 - verified.count);
  });

  it('counts per source address too: wrong passwords for many e-mails from one address stop at the limit', async () => {
    const visitors = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const v = new Visitor(app, '10.0.0.8');
        await v.get('/panel/login');
        return v;
      }),
    );
    verified.count = 0;
    const answers = await Promise.all(visitors.map((v, i) => v.post('/panel/login', { email: `x${i}@demo.test`, password: 'wrong' })));
    expect(verified.count).toBeLessThanOrEqual(10);
    expect(answers.filter((a) => a.statusCode === 429).length).toBe(20 - verified.count);
  });

  it('a successful sign-in is not held against the address', async () => {
    await addUser('duena@demo.test');
    for (let i = 0; i < 12; i++) expect((await new Visitor(app, '10.0.0.9').signIn('duena@demo.test')).statusCode).toBe(303);
  });

  const signedIn = async (email: string, ip = '127.0.0.1') => {
    const v = new Visitor(app, ip);
    expect((await v.signIn(email)).statusCode).toBe(303);
    return v;
  };

  it('a refused password leaves the invitation usable (checked against its e-mail before it is taken)', async () => {
    const { token } = await createInvite(store, { merchantId: 'demo', email: 'mariaperez@demo.test', role: 'developer', invitedBy: null });
    const v = new Visitor(app);
    await v.get(`/panel/invitacion/${token}`);
    const refused = await v.post(`/panel/invitacion/${token}`, { password: 'mariaperez-2026!', password2: 'mariaperez-2026!' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('no debe contener su correo');
    const accepted = await v.post(`/panel/invitacion/${token}`, { password: PASSWORD, password2: PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(303);
    expect((await store.panelUsers.get('mariaperez@demo.test'))?.merchantId).toBe('demo');
  });

  it('never writes invitation or reset tokens to the request log', async () => {
    await addUser('dev@demo.test', 'demo', 'developer');
    const { token } = await createInvite(store, { merchantId: 'demo', email: 'nueva@demo.test', role: 'viewer', invitedBy: null });
    const reset = await createPasswordReset(store, { email: 'dev@demo.test', issuedBy: 'operator' });
    const v = new Visitor(app);
    await v.get(`/panel/invitacion/${token}`);
    await v.post(`/panel/invitacion/${token}`, { password: 'short', password2: 'short' });
    await v.get(`/panel/restablecer/${reset.token}?x=1`);
    await v.post(`/panel/restablecer/${reset.token}`, { password: 'short', password2: 'short' });
    expect(logged).toContain('/panel/invitacion/');
    expect(logged).toContain('/panel/restablecer/');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(reset.token);
    expect(logged).not.toContain(token.slice(4, 20));
    expect(logged).not.toContain(reset.token.slice(4, 20));
  });

  it('a signed-in user changes their own password giving the current one; their other sessions end', async () => {
    await addUser('duena@demo.test');
    const here = await signedIn('duena@demo.test');
    const elsewhere = await signedIn('duena@demo.test', '10.1.1.1');
    expect((await here.get('/panel/cuenta')).statusCode).toBe(200);
    const NEW = 'another long passphrase 2026';
    const wrong = await here.post('/panel/cuenta', { actual: 'not my password', password: NEW, password2: NEW });
    expect(wrong.statusCode).toBe(401);
    const weak = await here.post('/panel/cuenta', { actual: PASSWORD, password: 'short', password2: 'short' });
    expect(weak.statusCode).toBe(400);
    const changed = await here.post('/panel/cuenta', { actual: PASSWORD, password: NEW, password2: NEW });
    expect(changed.statusCode).toBe(303);
    expect(changed.headers.location).toBe('/panel/cuenta?cambiada=1');
    expect((await here.get('/panel/cuenta?cambiada=1')).body).toContain('Contraseña cambiada');
    expect((await here.get('/panel/claves')).statusCode).toBe(200);
    // The other session ended with the old password.
    const other = await elsewhere.get('/panel/claves');
    expect(other.statusCode).toBe(303);
    expect(other.headers.location).toBe('/panel/login');
    expect((await new Visitor(app, '10.2.2.2').signIn('duena@demo.test')).statusCode).toBe(401);
    expect((await new Visitor(app, '10.2.2.3').signIn('duena@demo.test', NEW)).statusCode).toBe(303);
    expect(JSON.stringify(await store.audit.listForMerchant('demo', 50))).toContain('user.password');
  });

  it('an owner issues a one-time reset link for a teammate: it works once, a refused password keeps it, the sessions end', async () => {
    await addUser('duena@demo.test');
    await addUser('dev@demo.test', 'demo', 'developer');
    const owner = await signedIn('duena@demo.test');
    const dev = await signedIn('dev@demo.test', '10.3.3.3');
    expect((await dev.get('/panel/equipo')).statusCode).toBe(200);
    // A developer issues nothing.
    expect((await dev.post('/panel/equipo/duena@demo.test/restablecer', {})).statusCode).toBe(403);
    await owner.get('/panel/equipo');
    const issued = await owner.follow(await owner.post('/panel/equipo/dev@demo.test/restablecer', {}));
    expect(issued.statusCode).toBe(200);
    const absolute = /id="reset-link" class="mono" readonly value="([^"]+)"/.exec(issued.body)![1]!;
    // Absolute, on the origin the request came to (no public base URL configured here).
    expect(absolute).toMatch(/^http:\/\/localhost(:80)?\/panel\/restablecer\/rst_/);
    const link = new URL(absolute).pathname;
    // Not a teammate (another merchant's user, or unknown): 404.
    await addUser('ajena@otro.test', 'otro');
    expect((await owner.post('/panel/equipo/ajena@otro.test/restablecer', {})).statusCode).toBe(404);

    const holder = new Visitor(app, '10.4.4.4');
    expect((await holder.get(link)).statusCode).toBe(200);
    expect((await holder.post(link, { password: 'dev-passphrase-long', password2: 'dev-passphrase-long' })).statusCode).toBe(400);
    const NEW = 'a brand new passphrase 77';
    const done = await holder.post(link, { password: NEW, password2: NEW });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/panel/login?restablecida=1');
    expect((await dev.get('/panel/equipo')).statusCode).toBe(303);
    expect((await new Visitor(app, '10.5.5.5').signIn('dev@demo.test', NEW)).statusCode).toBe(303);
    // Single use.
    const late = new Visitor(app, '10.6.6.6');
    await late.get(link);
    const again = await late.post(link, { password: 'yet another passphrase', password2: 'yet another passphrase' });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('ya se usó');
    expect((await new Visitor(app, '10.7.7.7').signIn('dev@demo.test', NEW)).statusCode).toBe(303);
  });

  it('a reset link expires, and an invitation token is no reset token', async () => {
    await addUser('dev@demo.test', 'demo', 'developer');
    const old = await createPasswordReset(store, { email: 'dev@demo.test', issuedBy: 'operator' }, new Date(Date.now() - 25 * 3600_000));
    const v = new Visitor(app);
    await v.get(`/panel/restablecer/${old.token}`);
    const NEW = 'a brand new passphrase 77';
    expect((await v.post(`/panel/restablecer/${old.token}`, { password: NEW, password2: NEW })).statusCode).toBe(400);
    const { token } = await createInvite(store, { merchantId: 'demo', email: 'dev@demo.test', role: 'owner', invitedBy: null });
    expect((await v.post(`/panel/restablecer/${token}`, { password: NEW, password2: NEW })).statusCode).toBe(400);
    expect((await new Visitor(app, '10.8.8.8').signIn('dev@demo.test', NEW)).statusCode).toBe(401);
  });

  it('a deactivated user is never invited again at that merchant, with a clear message', async () => {
    await addUser('duena@demo.test');
    await addUser('dev@demo.test', 'demo', 'developer');
    await store.panelUsers.update('dev@demo.test', { active: false });
    const owner = await signedIn('duena@demo.test');
    await owner.get('/panel/equipo');
    const res = await owner.post('/panel/equipo/invitar', { email: 'dev@demo.test', role: 'viewer' });
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('fue desactivad');
    // An invitation made anyway (an older link) does not bring them back either.
    const { token } = await createInvite(store, { merchantId: 'demo', email: 'dev@demo.test', role: 'viewer', invitedBy: null });
    const v = new Visitor(app, '10.9.9.9');
    await v.get(`/panel/invitacion/${token}`);
    expect((await v.post(`/panel/invitacion/${token}`, { password: PASSWORD, password2: PASSWORD })).statusCode).toBe(400);
    expect((await store.panelUsers.get('dev@demo.test'))?.active).toBe(false);
  });

  it('the invite form answers the same whether or not the e-mail has an account at another merchant', async () => {
    await addUser('duena@demo.test');
    await addUser('ajena@otro.test', 'otro');
    const owner = await signedIn('duena@demo.test');
    const invite = async (email: string) => {
      await owner.get('/panel/equipo');
      const posted = await owner.post('/panel/equipo/invitar', { email, role: 'viewer' });
      const res = await owner.follow(posted);
      const body = res.body
        .replaceAll(email, 'EMAIL')
        .replace(/inv_[A-Za-z0-9_-]+/g, 'TOKEN')
        .replace(/name="_csrf" value="[^"]+"/g, '')
        .replace(/<tr>[\s\S]*<\/tr>/, '');
      return { status: posted.statusCode, body };
    };
    const elsewhere = await invite('ajena@otro.test');
    const nowhere = await invite('nadie@nuevo.test');
    expect(elsewhere.status).toBe(303);
    expect(elsewhere).toEqual(nowhere);
    // Their own team is theirs to know.
    expect((await owner.post('/panel/equipo/invitar', { email: 'duena@demo.test', role: 'viewer' })).statusCode).toBe(409);
  });

  it('shows absolute links when the public base URL is configured', async () => {
    await start('https://pagos.example.com/');
    await addUser('duena@demo.test');
    await addUser('dev@demo.test', 'demo', 'developer');
    const owner = await signedIn('duena@demo.test');
    await owner.get('/panel/equipo');
    const invited = await owner.follow(await owner.post('/panel/equipo/invitar', { email: 'nueva@demo.test', role: 'viewer' }));
    expect(invited.body).toMatch(/value="https:\/\/pagos\.example\.com\/panel\/invitacion\/inv_/);
    await owner.get('/panel/equipo');
    const reset = await owner.follow(await owner.post('/panel/equipo/dev@demo.test/restablecer', {}));
    expect(reset.body).toMatch(/value="https:\/\/pagos\.example\.com\/panel\/restablecer\/rst_/);
  });
});
