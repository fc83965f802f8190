import { describe, expect, it } from 'vitest';
import { authenticate, createMerchant, hashSecret, issueKey, modeOfSecret, parseSwitchKey, registerWebhook } from './onboarding';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { MemoryStore } from '@switch/platform/adapters/memory/store';

const SECRET = 'sk_test_abcdefghijklmnop1234';

describe('issued API keys', () => {
  it('carry a 256-bit secret (32 random bytes, 43 url-safe characters after the prefix)', async () => {
    const store = new MemoryStore();
    await createMerchant(store, { id: 'acme', nombre: 'Acme' });
    const { switchKey } = await issueKey(store, 'acme', 'live');
    const secret = switchKey.slice('acme:sk_live_'.length);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
  });
});

describe('parseSwitchKey (SPEC 5)', () => {
  it('parses <merchant>:<secret> and takes the mode from the prefix', () => {
    expect(parseSwitchKey(`acme:${SECRET}`)).toEqual({ merchantId: 'acme', secret: SECRET, mode: 'test' });
    expect(parseSwitchKey('acme:sk_live_abcdefghijklmnop1234')).toEqual({
      merchantId: 'acme',
      secret: 'sk_live_abcdefghijklmnop1234',
      mode: 'live',
    });
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no colon', `acme${SECRET}`],
    ['empty merchant', `:${SECRET}`],
    ['empty secret', 'acme:'],
    ['unknown prefix', 'acme:sk_prod_abcdefghijklmnop1234'],
    ['no prefix', 'acme:abcdefghijklmnop1234'],
    ['upper-case prefix', 'acme:SK_TEST_abcdefghijklmnop1234'],
    ['secret too short', 'acme:sk_test_short'],
    ['merchant with upper case', `Acme:${SECRET}`],
    ['merchant with a space', `ac me:${SECRET}`],
    ['secret with a colon', 'acme:sk_test_abcdefghij:klmnop1234'],
  ])('refuses a %s key', (_label, header) => {
    expect(parseSwitchKey(header)).toBeNull();
  });

  it('modeOfSecret reads only the two known prefixes', () => {
    expect(modeOfSecret(SECRET)).toBe('test');
    expect(modeOfSecret('sk_live_abcdefghijklmnop1234')).toBe('live');
    expect(modeOfSecret('pk_test_abcdefghijklmnop1234')).toBeNull();
  });
});

describe('authenticate', () => {
  async function setup() {
    const store = new MemoryStore();
    await createMerchant(store, { id: 'acme', nombre: 'Acme' });
    const test = await issueKey(store, 'acme', 'test');
    const live = await issueKey(store, 'acme', 'live');
    return { store, test, live };
  }
  const secretOf = (switchKey: string) => switchKey.slice(switchKey.indexOf(':') + 1);

  it('accepts the right key and answers merchant and mode', async () => {
    const { store, test, live } = await setup();
    expect(await authenticate(store, test.switchKey)).toEqual({ merchantId: 'acme', mode: 'test' });
    expect(await authenticate(store, live.switchKey)).toEqual({ merchantId: 'acme', mode: 'live' });
  });

  it('refuses a wrong secret of the right shape', async () => {
    const { store, test } = await setup();
    const secret = secretOf(test.switchKey);
    const wrong = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
    expect(await authenticate(store, `acme:${wrong}`)).toBeNull();
  });

  it('refuses a secret presented with the other mode prefix', async () => {
    const { store, test } = await setup();
    const swapped = secretOf(test.switchKey).replace(/^sk_test_/, 'sk_live_');
    expect(await authenticate(store, `acme:${swapped}`)).toBeNull();
  });

  it('refuses a stored key whose mode is not the mode of the presented prefix', async () => {
    const { store } = await setup();
    const secret = 'sk_test_abcdefghijklmnop1234';
    // A record claiming live mode for a test-prefixed secret must not authenticate either mode.
    await store.apiKeys.insert({
      id: 'key_mismatch',
      merchantId: 'acme',
      mode: 'live',
      secretHash: hashSecret(secret),
      hint: '1234',
      active: true,
      createdAt: new Date().toISOString(),
      revokedAt: null,
    });
    expect(await authenticate(store, `acme:${secret}`)).toBeNull();
  });

  it('refuses a key of another merchant', async () => {
    const { store, test } = await setup();
    await createMerchant(store, { id: 'other', nombre: 'Other' });
    expect(await authenticate(store, `other:${secretOf(test.switchKey)}`)).toBeNull();
  });

  it('refuses a revoked key, and keeps accepting the others', async () => {
    const { store, test, live } = await setup();
    expect(await store.apiKeys.revoke(test.record.id, new Date().toISOString())).toBe(true);
    expect(await authenticate(store, test.switchKey)).toBeNull();
    expect(await authenticate(store, live.switchKey)).toEqual({ merchantId: 'acme', mode: 'live' });
  });

  it('refuses every key of an inactive merchant', async () => {
    const { store, test, live } = await setup();
    await store.merchants.setActive('acme', false);
    expect(await authenticate(store, test.switchKey)).toBeNull();
    expect(await authenticate(store, live.switchKey)).toBeNull();
  });

  it('refuses an unknown merchant and a malformed header', async () => {
    const { store, test } = await setup();
    expect(await authenticate(store, `nobody:${secretOf(test.switchKey)}`)).toBeNull();
    expect(await authenticate(store, undefined)).toBeNull();
    expect(await authenticate(store, secretOf(test.switchKey))).toBeNull();
  });

  it('stores keys hashed: the secret never appears in the store', async () => {
    const { store, test } = await setup();
    const secret = secretOf(test.switchKey);
    const rows = await store.apiKeys.listForMerchant('acme');
    expect(rows).toHaveLength(2);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(secret);
    expect(dump).not.toContain(secret.slice(8)); // not even without its prefix
    const row = rows.find((r) => r.id === test.record.id)!;
    expect(row.secretHash).toBe(hashSecret(secret));
    expect(row.hint).toBe(secret.slice(-4));
    // The visible record given back at issue time has no hash either.
    expect(test.record).not.toHaveProperty('secretHash');
    expect(test.switchKey.startsWith('acme:sk_test_')).toBe(true);
  });

  it('registers webhooks each with its own secret and deduplicated events', async () => {
    const { store } = await setup();
    const box = SecretBox.ephemeral();
    const a = await registerWebhook(
      store,
      { merchantId: 'acme', mode: 'test', url: 'https://a.example/h', events: ['transaccion.liquidada', 'transaccion.liquidada'] },
      box,
    );
    const b = await registerWebhook(
      store,
      { merchantId: 'acme', mode: 'test', url: 'https://b.example/h', events: ['transaccion.rechazada'] },
      box,
    );
    expect(a.endpoint.events).toEqual(['transaccion.liquidada']);
    expect(a.secret).not.toBe(b.secret);
    expect(a.secret).toMatch(/^whsec_/);
    // Kept sealed, never in clear.
    const stored = (await store.webhooks.get(a.endpoint.id))!;
    expect(JSON.stringify(stored)).not.toContain(a.secret.slice('whsec_'.length));
    expect(box.open(stored.sealedSecret)).toBe(a.secret);
  });
});
