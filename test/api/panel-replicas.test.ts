import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { MongoClient } from 'mongodb';
import { createInvite } from '@switch/usecases/panel-access';
import { createMerchant } from '@switch/usecases/onboarding';
import { MongoStore } from '@switch/platform/adapters/mongo/store';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { loadPanelConfig, panelPlugin } from '@switch/panel';

const PASSWORD = 'correct horse battery staple';

/**
 * Two panel processes on one MongoDB-compatible store (FerretDB here and in CI), as the panel
 * Deployment runs: a session made on one replica is honoured by the other, and a sign-out on one
 * ends it on both.
 */
describe('merchant panel replicas share sessions through the store', () => {
  const url = process.env.MONGO_URL;
  const database = `panel_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const stores: MongoStore[] = [];
  const apps: FastifyInstance[] = [];
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    if (!url) throw new Error('MONGO_URL is not set: run `npm run infra:up` and `source .cache/infra.env`, then run the tests again');
    const config = { ...loadPanelConfig(), sessionSecret: randomBytes(32).toString('base64url') };
    const secrets = SecretBox.ephemeral();
    for (let i = 0; i < 2; i++) {
      const store = await MongoStore.connect({ url, database });
      stores.push(store);
      const app = Fastify();
      await app.register(async (child) => panelPlugin(child, { store, config, secrets }), { prefix: '/panel' });
      apps.push(app);
    }
    [a, b] = apps as [FastifyInstance, FastifyInstance];
    await createMerchant(stores[0]!, { id: 'replicas', nombre: 'Comercio de réplicas' });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    if (url) {
      const admin = await MongoClient.connect(url);
      await admin.db(database).dropDatabase();
      await admin.close();
    }
    for (const s of stores) await s.close();
  });

  const cookieOf = (res: LightMyRequestResponse) => {
    const set = ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? []);
    return set.map((c) => c.split(';')[0]!).find((c) => c.startsWith('panel_session=')) ?? '';
  };
  const csrfOf = (res: LightMyRequestResponse) => /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? '';
  const form = (app: FastifyInstance, url: string, cookie: string, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  it('signs in on one replica, is known on the other, and a sign-out on the other ends it for both', async () => {
    const { token } = await createInvite(stores[0]!, {
      merchantId: 'replicas',
      email: 'uno@replicas.test',
      role: 'owner',
      invitedBy: null,
    });
    const page = await a.inject({ method: 'GET', url: `/panel/invitacion/${token}` });
    let cookie = cookieOf(page);
    const joined = await form(a, `/panel/invitacion/${token}`, cookie, { _csrf: csrfOf(page), password: PASSWORD, password2: PASSWORD });
    expect(joined.statusCode).toBe(303);
    cookie = cookieOf(joined) || cookie;

    const onB = await b.inject({ method: 'GET', url: '/panel/claves', headers: { cookie } });
    expect(onB.statusCode).toBe(200);
    expect(onB.body).toContain('uno@replicas.test');
    // A form made on B with B's page token is accepted (the CSRF secret is in the shared session).
    const created = await form(b, '/panel/claves', cookie, { _csrf: csrfOf(onB) });
    expect(created.statusCode).toBe(303);
    expect((await stores[0]!.apiKeys.listForMerchant('replicas')).length).toBe(1);
    // The page after the form's redirect shows the new key once, on whichever replica serves it.
    const shown = await a.inject({ method: 'GET', url: created.headers.location as string, headers: { cookie } });
    expect(shown.body).toContain('id="new-key"');

    const out = await form(b, '/panel/logout', cookie, { _csrf: csrfOf(shown) });
    expect(out.statusCode).toBe(303);
    const afterOnA = await a.inject({ method: 'GET', url: '/panel/claves', headers: { cookie } });
    expect(afterOnA.statusCode).toBe(303);
    expect(afterOnA.headers.location).toBe('/panel/login');
  });
});
