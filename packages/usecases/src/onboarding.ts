import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Mode } from '@switch/core/contracts/bancos';
import type { ApiKeyRecord, Merchant, MerchantDirectory, WebhookEndpoint } from '@switch/platform/ports/merchant-directory';
import { type WebhookEvent, newWebhookSecret } from '@switch/core/contracts/webhook';
import type { Sealer } from '@switch/platform/runtime/secret-box';

/** Merchant ids are what merchants type in `x-switch-key`: short, lower case, no separators. */
export const MERCHANT_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{1,39}$';
const SECRET_PATTERN = /^sk_(test|live)_[A-Za-z0-9_-]{16,128}$/;

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function modeOfSecret(secret: string): Mode | null {
  const m = SECRET_PATTERN.exec(secret);
  return m ? (m[1] as Mode) : null;
}

/** `<merchant>:<secret>`; null when the shape is wrong (SPEC 5.4: malformed → 401). */
export function parseSwitchKey(header: string | undefined): { merchantId: string; secret: string; mode: Mode } | null {
  if (!header) return null;
  const i = header.indexOf(':');
  if (i <= 0) return null;
  const merchantId = header.slice(0, i);
  const secret = header.slice(i + 1);
  const mode = modeOfSecret(secret);
  if (!mode || !new RegExp(MERCHANT_ID_PATTERN).test(merchantId)) return null;
  return { merchantId, secret, mode };
}

const DUMMY_HASH = hashSecret('sk_test_no-such-key-exists-here');

/**
 * Finds the active key of that merchant and mode matching the secret. Hashes are compared in
 * constant time, and a dummy comparison runs when the merchant has no key, so timing tells nothing.
 */
export async function authenticate(
  store: MerchantDirectory,
  header: string | undefined,
): Promise<{ merchantId: string; mode: Mode } | null> {
  const parsed = parseSwitchKey(header);
  if (!parsed) return null;
  const presented = Buffer.from(hashSecret(parsed.secret), 'hex');
  const merchant = await store.merchants.get(parsed.merchantId);
  const keys = merchant?.active ? await store.apiKeys.listForMerchant(parsed.merchantId) : [];
  let match: ApiKeyRecord | null = null;
  for (const key of keys.length ? keys : [null]) {
    const stored = Buffer.from(key?.secretHash ?? DUMMY_HASH, 'hex');
    const equal = stored.length === presented.length && timingSafeEqual(stored, presented);
    if (equal && key?.active && key.mode === parsed.mode) match = key;
  }
  if (!match) return null;
  markUsed(store, match);
  return { merchantId: parsed.merchantId, mode: parsed.mode };
}

/** How stale a key's last-use time may get: one write per key per minute at most, off the request path. */
const LAST_USE_RESOLUTION_MS = 60_000;

function markUsed(store: MerchantDirectory, key: ApiKeyRecord, now = new Date()): void {
  if (key.lastUsedAt && now.getTime() - Date.parse(key.lastUsedAt) < LAST_USE_RESOLUTION_MS) return;
  // Not awaited and never failing the request: the time shown in the panel is informative only.
  store.apiKeys.markUsed(key.id, now.toISOString()).catch(() => undefined);
}

export async function createMerchant(store: MerchantDirectory, input: { id: string; nombre: string }, now = new Date()): Promise<Merchant> {
  const merchant: Merchant = { id: input.id, nombre: input.nombre, active: true, createdAt: now.toISOString() };
  await store.merchants.insert(merchant);
  return merchant;
}

/** Issues a key; the returned `switchKey` is the only time the secret is ever visible. */
export async function issueKey(
  store: MerchantDirectory,
  merchantId: string,
  mode: Mode,
  now = new Date(),
): Promise<{ record: Omit<ApiKeyRecord, 'secretHash'>; switchKey: string }> {
  // 256 random bits: guessing one merchant's key is pointless, so no per-merchant failure budget is needed.
  const secret = `sk_${mode}_${randomBytes(32).toString('base64url')}`;
  const record: ApiKeyRecord = {
    id: `key_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    merchantId,
    mode,
    secretHash: hashSecret(secret),
    hint: secret.slice(-4),
    active: true,
    createdAt: now.toISOString(),
    revokedAt: null,
  };
  await store.apiKeys.insert(record);
  const { secretHash: _omit, ...visible } = record;
  return { record: visible, switchKey: `${merchantId}:${secret}` };
}

/**
 * Registers a webhook endpoint with its own signing secret (SPEC 6.1): the store keeps it sealed; the
 * secret in clear is returned once, for the operator to hand over.
 */
export async function registerWebhook(
  store: MerchantDirectory,
  input: { merchantId: string; mode: Mode; url: string; events: WebhookEvent[] },
  secrets: Pick<Sealer, 'seal'>,
  now = new Date(),
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = newWebhookSecret();
  const endpoint: WebhookEndpoint = {
    id: `we_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    merchantId: input.merchantId,
    mode: input.mode,
    url: input.url,
    events: [...new Set(input.events)],
    sealedSecret: secrets.seal(secret),
    active: true,
    createdAt: now.toISOString(),
  };
  await store.webhooks.insert(endpoint);
  return { endpoint, secret };
}
