import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifies a webhook delivery of the switch (SPEC 6) over the RAW body bytes, with no dependencies.
 *
 * Two signatures come with every delivery, both keyed by the endpoint secret exactly as issued
 * (`whsec_` + base64):
 * - `x-service-signature: sha256=<hex HMAC-SHA256(raw body, secret as text)>` (SPEC 6);
 * - the Standard Webhooks trio `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64
 *   HMAC-SHA256("<id>.<timestamp>.<body>", base64-decoded secret)>`, whose timestamp rejects replays.
 */

export type Scheme = 'spec' | 'standard';

export type Failure =
  | 'body_not_raw'
  | 'no_secret'
  | 'missing_signature'
  | 'bad_signature'
  | 'missing_standard_headers'
  | 'bad_timestamp'
  | 'stale_timestamp'
  | 'bad_standard_signature';

export type VerifyResult<T = unknown> =
  | { ok: true; schemes: Scheme[]; payload: T; event: string | null; id: string | null }
  | { ok: false; reason: Failure };

export interface VerifyOptions {
  /** The endpoint secret as issued, or several during a rotation overlap (any one may match). */
  secret: string | readonly string[];
  /** Signatures that must be present and valid; default both (the switch always sends both). */
  schemes?: readonly Scheme[];
  /** Largest distance between `webhook-timestamp` and now, in seconds; default 300. */
  toleranceSeconds?: number;
  /** The clock, in seconds since the epoch; default the system's. */
  nowSeconds?: () => number;
}

/** Node's `req.headers`, a plain object, or a Fetch `Headers`. */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | readonly string[] | undefined>;

export const SIGNATURE_HEADER = 'x-service-signature';
export const EVENT_HEADER = 'x-service-event';
const PREFIX = 'whsec_';
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The Standard Webhooks key of a secret: the standard base64 after `whsec_` decoded, as every secret
 * is issued; a secret that is not base64 keys by its text.
 */
export function standardKey(secret: string): Buffer {
  const rest = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : '';
  if (rest && STANDARD_BASE64.test(rest)) return Buffer.from(rest, 'base64');
  return Buffer.from(secret, 'utf8');
}

/**
 * Verifies a delivery. `rawBody` must be the bytes as received (a Buffer/Uint8Array or the string they
 * decode to), never parsed-and-reserialised JSON. Returns the parsed payload only when it verifies.
 */
export function verifyWebhook<T = unknown>(rawBody: Uint8Array | string, headers: HeaderSource, options: VerifyOptions): VerifyResult<T> {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) return { ok: false, reason: 'body_not_raw' };
  const body =
    typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const secrets = (typeof options.secret === 'string' ? [options.secret] : [...options.secret]).filter((s) => s.length > 0);
  if (secrets.length === 0) return { ok: false, reason: 'no_secret' };
  const schemes = options.schemes ?? ['spec', 'standard'];
  const header = headerReader(headers);

  if (schemes.includes('spec')) {
    const given = header(SIGNATURE_HEADER);
    if (!given) return { ok: false, reason: 'missing_signature' };
    const ok = secrets.some((s) => equal(`sha256=${createHmac('sha256', s).update(body).digest('hex')}`, given.trim().toLowerCase()));
    if (!ok) return { ok: false, reason: 'bad_signature' };
  }
  let id: string | null = null;
  if (schemes.includes('standard')) {
    id = header('webhook-id');
    const ts = header('webhook-timestamp');
    const sig = header('webhook-signature');
    if (!id || !ts || !sig) return { ok: false, reason: 'missing_standard_headers' };
    if (!/^[0-9]{1,15}$/.test(ts)) return { ok: false, reason: 'bad_timestamp' };
    const now = options.nowSeconds ? options.nowSeconds() : Math.floor(Date.now() / 1000);
    if (Math.abs(now - Number(ts)) > (options.toleranceSeconds ?? 300)) return { ok: false, reason: 'stale_timestamp' };
    const signed = Buffer.concat([Buffer.from(`${id}.${ts}.`, 'utf8'), body]);
    const expected = secrets.map((s) => `v1,${createHmac('sha256', standardKey(s)).update(signed).digest('base64')}`);
    // The header may carry several space-separated signatures (the sender's secrets during a rotation).
    const ok = sig.split(' ').some((candidate) => expected.some((e) => equal(e, candidate)));
    if (!ok) return { ok: false, reason: 'bad_standard_signature' };
  }
  let payload: T;
  try {
    payload = JSON.parse(body.toString('utf8')) as T;
  } catch {
    return { ok: false, reason: 'body_not_raw' };
  }
  return { ok: true, schemes: [...schemes], payload, event: header(EVENT_HEADER), id };
}

/** Constant time for equal lengths; lengths are public (they follow from the scheme). */
function equal(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function headerReader(headers: HeaderSource): (name: string) => string | null {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const h = headers as { get(name: string): string | null };
    return (name) => h.get(name);
  }
  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (v === undefined) continue;
    lower.set(k.toLowerCase(), typeof v === 'string' ? v : v.join(', '));
  }
  return (name) => lower.get(name) ?? null;
}
