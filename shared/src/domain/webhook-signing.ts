import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures. SPEC 6: `x-service-signature: sha256=<hex HMAC-SHA256(raw body, endpoint secret)>`.
 * Receivers must verify over the RAW body bytes as received: re-serialising parsed JSON changes bytes
 * (key order, spacing, number forms) and breaks the signature.
 */
export const SIGNATURE_HEADER = 'x-service-signature';
export const EVENT_HEADER = 'x-service-event';

export function signWebhook(rawBody: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Constant-time check of a received `x-service-signature` against the raw body. */
export function verifyWebhook(rawBody: string | Buffer, signatureHeader: string | undefined, secret: string): boolean {
  if (!signatureHeader) return false;
  const expected = Buffer.from(signWebhook(rawBody, secret));
  const given = Buffer.from(signatureHeader.trim().toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Prefix of every endpoint secret; Standard Webhooks libraries strip it and base64-decode the rest. */
export const SECRET_PREFIX = 'whsec_';

/**
 * A new endpoint secret: `whsec_` + standard base64 of 24 random bytes (32 characters, no padding).
 * The same string is the SPEC 6 HMAC key (as text) and, decoded, the Standard Webhooks key, so both
 * headers verify with the secret exactly as issued.
 */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const URL_SAFE_BASE64 = /^[A-Za-z0-9_-]*$/;

/**
 * The key of the Standard Webhooks signature for an endpoint secret (docs/webhooks.md, "Secrets"):
 * - `whsec_` + standard base64 (every secret issued now): the decoded bytes, as the standard says;
 * - `whsec_` + unpadded url-safe base64 (secrets issued before, `randomBytes(24).toString('base64url')`):
 *   the decoded bytes too, so the same random bytes are the key; the standard libraries take it once
 *   `-`→`+` and `_`→`/` (`standardWebhooksSecret`);
 * - anything else (a hand-set secret): the whole string as UTF-8, the key used before, so receivers
 *   that verified it keep working. No Standard Webhooks library can verify those; rotate them.
 */
export function standardWebhookKey(secret: string): Buffer {
  const rest = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : null;
  if (rest && STANDARD_BASE64.test(rest)) return Buffer.from(rest, 'base64');
  if (rest && rest.length % 4 !== 1 && URL_SAFE_BASE64.test(rest)) return Buffer.from(rest, 'base64url');
  return Buffer.from(secret, 'utf8');
}

/**
 * The secret in the form the Standard Webhooks libraries accept (`whsec_` + standard base64), or null
 * when the secret has no such form (a hand-set secret that is not base64 at all).
 */
export function standardWebhooksSecret(secret: string): string | null {
  const rest = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : null;
  if (rest === null || rest.length === 0) return null;
  if (STANDARD_BASE64.test(rest)) return secret;
  if (rest.length % 4 !== 1 && URL_SAFE_BASE64.test(rest)) return `${SECRET_PREFIX}${Buffer.from(rest, 'base64url').toString('base64')}`;
  return null;
}

/**
 * Optional replay protection in the Standard Webhooks style, sent beside the SPEC's headers:
 * `webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">`, keyed by `standardWebhookKey(secret)`. A receiver that checks the
 * timestamp window rejects replays; the npm and PyPI `standardwebhooks` packages verify it.
 */
export function standardWebhookHeaders(id: string, timestampSeconds: number, rawBody: string, secret: string): Record<string, string> {
  const signature = createHmac('sha256', standardWebhookKey(secret)).update(`${id}.${timestampSeconds}.${rawBody}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}

export function verifyStandardWebhook(
  rawBody: string,
  headers: { 'webhook-id'?: string; 'webhook-timestamp'?: string; 'webhook-signature'?: string },
  secret: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': sig } = headers;
  if (!id || !ts || !sig || !/^[0-9]+$/.test(ts)) return false;
  if (Math.abs(nowSeconds - Number(ts)) > toleranceSeconds) return false;
  const expected = Buffer.from(standardWebhookHeaders(id, Number(ts), rawBody, secret)['webhook-signature']!);
  return sig.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
