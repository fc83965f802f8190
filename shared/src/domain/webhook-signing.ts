import { createHmac, timingSafeEqual } from 'node:crypto';

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

/**
 * Optional replay protection in the Standard Webhooks style, sent beside the SPEC's headers:
 * `webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">`. A receiver that checks the timestamp window rejects replays.
 */
export function standardWebhookHeaders(id: string, timestampSeconds: number, rawBody: string, secret: string): Record<string, string> {
  const signature = createHmac('sha256', secret).update(`${id}.${timestampSeconds}.${rawBody}`).digest('base64');
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
