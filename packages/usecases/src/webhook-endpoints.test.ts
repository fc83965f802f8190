import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { signingSecrets, type WebhookEndpoint } from '@switch/platform/ports/merchant-directory';
import { PUBLIC_DESTINATIONS_ONLY } from '@switch/platform/config/webhooks';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { createMerchant } from './onboarding';
import {
  checkEndpointUrl,
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  MAX_ENDPOINTS_PER_MODE,
  resealWebhookSecrets,
  rotateSecret,
  toDeliveryView,
  toEndpointView,
} from './webhook-endpoints';

const box = SecretBox.ephemeral();
const endpoint = (over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 'we_1',
  merchantId: 'm1',
  mode: 'test',
  url: 'https://hooks.example.com/x',
  events: ['transaccion.liquidada'],
  sealedSecret: box.seal('whsec_new'),
  active: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('webhook endpoint rules', () => {
  it('signs with the new secret, and with the previous one only until the overlap ends', () => {
    const rotated = endpoint({ previousSecret: { sealedSecret: box.seal('whsec_old'), until: '2026-06-01T00:00:00.000Z' } });
    expect(signingSecrets(rotated, new Date('2026-05-31T23:59:59.999Z'), box)).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(rotated, new Date('2026-06-01T00:00:00.000Z'), box)).toEqual(['whsec_new']);
    expect(signingSecrets(endpoint(), new Date(), box)).toEqual(['whsec_new']);
    expect(toEndpointView(rotated, new Date('2026-05-01T00:00:00.000Z')).rotacion_hasta).toBe('2026-06-01T00:00:00.000Z');
    expect(toEndpointView(rotated, new Date('2026-07-01T00:00:00.000Z')).rotacion_hasta).toBeNull();
    expect(JSON.stringify(toEndpointView(rotated))).not.toMatch(/whsec_|sb1\./);
  });

  it('rotating the secrets key: the old key still opens, re-sealing moves every secret to the new key, then the old key can go', async () => {
    const store = new MemoryStore();
    await createMerchant(store, { id: 'm1', nombre: 'Tienda' });
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = new SecretBox(oldKey);
    const caller = { merchantId: 'm1', mode: 'test' as const };
    const rules = { destinations: { ...PUBLIC_DESTINATIONS_ONLY, allowPrivate: true }, rotationOverlapSeconds: 3600, secrets: before };
    const a = await createEndpoint(store, caller, { url: 'https://a.example/h' }, rules);
    const b = await createEndpoint(store, caller, { url: 'https://b.example/h' }, rules);
    if (!a.ok || !b.ok) throw new Error('not created');
    const rotated = await rotateSecret(store, caller, b.value.endpoint.id, rules);
    if (!rotated.ok) throw new Error('not rotated');

    // Step 1: the new key current, the old one previous; both open.
    const during = new SecretBox(newKey, [oldKey]);
    const now = new Date();
    expect(signingSecrets((await store.webhooks.get(a.value.endpoint.id))!, now, during)).toEqual([a.value.secret]);
    // Step 2: the re-seal; a second run finds nothing left to do.
    expect(await resealWebhookSecrets(store, during)).toEqual({ resealed: 2, current: 0, changed: 0 });
    expect(await resealWebhookSecrets(store, during)).toEqual({ resealed: 0, current: 2, changed: 0 });
    // Step 3: the old key dropped; every secret still opens, the rotated one with its previous one.
    const after = new SecretBox(newKey);
    expect(signingSecrets((await store.webhooks.get(a.value.endpoint.id))!, now, after)).toEqual([a.value.secret]);
    expect(signingSecrets((await store.webhooks.get(b.value.endpoint.id))!, now, after)).toEqual([rotated.value.secret, b.value.secret]);
  });

  it('a re-seal never overwrites a rotation the merchant made meanwhile', async () => {
    const store = new MemoryStore();
    await createMerchant(store, { id: 'm1', nombre: 'Tienda' });
    const oldKey = randomBytes(32);
    const caller = { merchantId: 'm1', mode: 'test' as const };
    const created = await createEndpoint(
      store,
      caller,
      { url: 'https://a.example/h' },
      { destinations: { ...PUBLIC_DESTINATIONS_ONLY, allowPrivate: true }, rotationOverlapSeconds: 0, secrets: new SecretBox(oldKey) },
    );
    if (!created.ok) throw new Error('not created');
    const during = new SecretBox(randomBytes(32), [oldKey]);
    // The merchant rotates between the re-seal's read and its write.
    const list = store.webhooks.listForMerchant.bind(store.webhooks);
    let rotatedSecret = '';
    store.webhooks.listForMerchant = async (...args) => {
      const read = await list(...args);
      const r = await rotateSecret(store, caller, created.value.endpoint.id, {
        destinations: { ...PUBLIC_DESTINATIONS_ONLY, allowPrivate: true },
        rotationOverlapSeconds: 0,
        secrets: during,
      });
      if (r.ok) rotatedSecret = r.value.secret;
      return read;
    };
    expect(await resealWebhookSecrets(store, during)).toEqual({ resealed: 0, current: 0, changed: 1 });
    expect(signingSecrets((await store.webhooks.get(created.value.endpoint.id))!, new Date(), during)).toEqual([rotatedSecret]);
  });

  it('accepts http(s) URLs without credentials to a public address; live mode wants https', async () => {
    const rules = {
      destinations: PUBLIC_DESTINATIONS_ONLY,
      rotationOverlapSeconds: 0,
      resolve: async () => [{ address: '93.184.216.34', family: 4 }],
      secrets: box,
    };
    // One rule for both modes (issue 26 item 6): loopback only where the operator allows it.
    expect(await checkEndpointUrl('http://127.0.0.1:9/x', 'test', rules)).toMatchObject({ status: 422, error: 'DESTINATION_REFUSED' });
    const local = { ...rules, destinations: { ...PUBLIC_DESTINATIONS_ONLY, allowLoopback: true } };
    expect(await checkEndpointUrl('http://127.0.0.1:9/x', 'test', local)).toBeNull();
    expect(await checkEndpointUrl('http://127.0.0.1:9/x', 'live', local)).toBeNull();
    expect(await checkEndpointUrl('http://127.0.0.1:9100/admin', 'test', local)).toMatchObject({ status: 422 });
    expect(await checkEndpointUrl('http://hooks.example.com/x', 'test', rules)).toBeNull();
    // A name without an address: taken in test mode (each attempt resolves it again), refused in live.
    const nowhere = { ...rules, resolve: async () => [] };
    expect(await checkEndpointUrl('https://tienda.example/x', 'test', nowhere)).toBeNull();
    expect(await checkEndpointUrl('https://tienda.example/x', 'live', nowhere)).toMatchObject({ status: 422 });
    expect(await checkEndpointUrl('https://hooks.example.com/x', 'live', rules)).toBeNull();
    expect(await checkEndpointUrl('not a url', 'test', rules)).toMatchObject({ status: 400, detail: { url: 'is not a valid URL' } });
    expect(await checkEndpointUrl('ftp://a.example.com/x', 'test', rules)).toMatchObject({ status: 400 });
    expect(await checkEndpointUrl('https://u:p@a.example.com/x', 'test', rules)).toMatchObject({ status: 400 });
    expect(await checkEndpointUrl('http://hooks.example.com/x', 'live', rules)).toMatchObject({
      status: 400,
      detail: { url: 'must be https in live mode' },
    });
    const internal = { ...rules, resolve: async () => [{ address: '10.0.0.5', family: 4 }] };
    expect(await checkEndpointUrl('https://hooks.example.com/x', 'live', internal)).toMatchObject({
      status: 422,
      error: 'DESTINATION_REFUSED',
    });
    const priv = { ...internal, destinations: { ...PUBLIC_DESTINATIONS_ONLY, allowPrivate: true } };
    expect(await checkEndpointUrl('http://10.0.0.5/x', 'live', priv)).toBeNull();
  });

  it('caps the endpoints of one merchant in one mode (issue 26 item 8), racing registrations included', async () => {
    const store = new MemoryStore();
    const rules = {
      destinations: PUBLIC_DESTINATIONS_ONLY,
      rotationOverlapSeconds: 0,
      resolve: async () => [{ address: '93.184.216.34', family: 4 }],
      secrets: box,
    };
    const tienda: { merchantId: string; mode: 'test' | 'live' } = { merchantId: 'tienda', mode: 'test' };
    const create = (caller = tienda, i = 0) => createEndpoint(store, caller, { url: `https://hooks.example.com/${i}` }, rules);
    for (let i = 0; i < MAX_ENDPOINTS_PER_MODE; i++) expect((await create(tienda, i)).ok).toBe(true);
    const refused = await create(tienda, 99);
    expect(refused).toMatchObject({ ok: false, problem: { status: 422, error: 'ENDPOINT_LIMIT' } });
    expect(await listEndpoints(store, tienda)).toHaveLength(MAX_ENDPOINTS_PER_MODE);
    // Live mode and other merchants have caps of their own; a deleted endpoint makes room.
    expect((await create({ merchantId: 'tienda', mode: 'live' })).ok).toBe(true);
    expect((await create({ merchantId: 'otra', mode: 'test' })).ok).toBe(true);
    await deleteEndpoint(store, tienda, (await listEndpoints(store, tienda))[0]!.id);
    expect((await create(tienda, 100)).ok).toBe(true);
    // Registrations at once: however many race past the count, the cap holds.
    const racer = { merchantId: 'carrera', mode: 'test' as const };
    const raced = await Promise.all([...Array(3 * MAX_ENDPOINTS_PER_MODE).keys()].map((i) => create(racer, i)));
    expect(raced.filter((r) => r.ok)).toHaveLength(MAX_ENDPOINTS_PER_MODE);
    expect(await listEndpoints(store, racer)).toHaveLength(MAX_ENDPOINTS_PER_MODE);
  });

  it('shows attempt errors as categories, even those an older notifier stored with an address (issue 26 item 6)', () => {
    const stored = [
      'Error: connect ECONNREFUSED 10.0.0.5:9100',
      'Error: connect ECONNREFUSED ::1:9100',
      'destination refused: 169.254.169.254 is an internal address',
      'TimeoutError: The operation was aborted due to timeout',
      'TypeError: fetch failed',
      'HTTP 401',
      'endpoint removed or inactive',
      null,
    ];
    const view = toDeliveryView({
      id: 'd1',
      merchantId: 'm1',
      mode: 'test',
      endpointId: 'we_1',
      url: 'https://hooks.example.com/x',
      txnId: 'txn_1',
      event: 'transaccion.liquidada',
      body: '{}',
      status: 'exhausted',
      attempts: stored.map((error, i) => ({ n: i + 1, at: '2026-01-01T00:00:00.000Z', statusCode: null, latencyMs: 1, error })),
      nextAttemptAt: null,
      lease: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(view.intentos.map((a) => a.error)).toEqual([
      'connection refused',
      'connection refused',
      'destination refused',
      'timeout',
      'connection failed',
      'HTTP 401',
      'endpoint removed or inactive',
      null,
    ]);
    expect(JSON.stringify(view.intentos)).not.toMatch(/10\.0\.0\.5|::1|169\.254|9100/);
  });
});
