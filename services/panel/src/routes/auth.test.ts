import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { createMerchant, envReader, MemoryStore, type PanelRole } from '@switch/shared';
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
}

describe('panel accounts', () => {
  let app: FastifyInstance;
  let store: MemoryStore;

  beforeEach(async () => {
    store = new MemoryStore();
    app = Fastify();
    await app.register(panelPlugin, { prefix: '/panel', store, config: loadPanelConfig(envReader({})), basePath: '/panel' });
    await app.ready();
    await createMerchant(store, { id: 'demo', nombre: 'Demo' });
    await createMerchant(store, { id: 'otro', nombre: 'Otro' });
    verified.count = 0;
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
});
