/** The webhook a merchant receives: its events, its body and its signature headers (SPEC 6 and Standard Webhooks) with the endpoint secrets that key them. */
import { Type, type Static } from '@sinclair/typebox';
import { EstadoSchema, OPERATION_KINDS } from './operaciones';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_EVENTS = ['transaccion.aprobada', 'transaccion.liquidada', 'transaccion.rechazada'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Body of each webhook delivery (SPEC 6); `operacion` is the extra field naming the operation kind. */
export const WebhookBody = Type.Object({
  type: Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e))),
  sentAt: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
  data: Type.Object({
    id: Type.String(),
    estado: EstadoSchema,
    monto: Type.Number(),
    moneda: Type.String(),
    concepto: Type.String(),
    banco: Type.Union([Type.String(), Type.Null()]),
    referencia: Type.Union([Type.String(), Type.Null()]),
    operacion: Type.Union(OPERATION_KINDS.map((k) => Type.Literal(k))),
    reverso_de: Type.Optional(
      Type.String({
        description:
          "Only when `operacion` is `reverso`: the id of the operation reversed; `monto` is the amount moved back and `referencia` the reverso's own bank reference",
      }),
    ),
  }),
});
export type WebhookBody = Static<typeof WebhookBody>;

/** The event a state entry announces; other states (PENDIENTE, ERROR, DESCONOCIDA) send none. */
export const EVENT_FOR_STATE: Partial<Record<Static<typeof EstadoSchema>, WebhookEvent>> = {
  ACEPTADA: 'transaccion.aprobada',
  LIQUIDADA: 'transaccion.liquidada',
  RECHAZADA: 'transaccion.rechazada',
};

/**
 * The webhook an announced write calls for: an entry into a state that has one, with its result
 * (the fields of a transaction event that decide it).
 */
export function webhookEventOf(event: {
  transition: { to: Static<typeof EstadoSchema> } | null;
  resultado: object | null;
}): WebhookEvent | undefined {
  return event.transition && event.resultado ? EVENT_FOR_STATE[event.transition.to] : undefined;
}

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
