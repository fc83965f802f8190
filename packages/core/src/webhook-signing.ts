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
 * The one generator of endpoint secrets (merchant API, panel, operator): `whsec_` + standard base64
 * of 32 random bytes, as the Standard Webhooks specification issues them. The same string is the
 * SPEC 6 HMAC key (as text) and, decoded, the Standard Webhooks key, so both headers verify with the
 * secret exactly as issued, in the official libraries too (test/kit/issued-secrets.test.ts).
 */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The key of the Standard Webhooks signature for an endpoint secret: the bytes the standard base64
 * after `whsec_` decodes to, as the specification (and every official library) reads it. A string
 * of another shape is never issued; it keys by its text, as the kit's verifiers do.
 */
export function standardWebhookKey(secret: string): Buffer {
  const rest = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : null;
  return rest && STANDARD_BASE64.test(rest) ? Buffer.from(rest, 'base64') : Buffer.from(secret, 'utf8');
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
