import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Banco Plaza's envelope (PROTOCOLS §2.2, §2.3): three request headers authenticate every call and
 * the business result travels back in four response headers. Pure functions, shared by the
 * connector (signing) and the emulator (verifying), so both sides agree byte for byte.
 */

export interface PlazaCredentials {
  apiKey: string;
  apiSecret: string;
}

/** Request header names as the bank's integrators send them (the bank reads them case-insensitively). */
export const AUTH_HEADERS = { apiKey: 'api-key', nonce: 'nonce', signature: 'api-signature' } as const;

/** Response header names carrying the business result. */
export const RESULT_HEADERS = {
  codigo: 'codigoRespuesta',
  descripcionCliente: 'descripcionCliente',
  descripcionSistema: 'descripcionSistema',
  fechaHora: 'fechaHora',
} as const;

export const CODIGO_EXITO = '0000';

/**
 * Lowercase hex HMAC-SHA384 keyed by the API secret over `path + nonce + body`. `path` is the
 * resource base path (leading `/`, no trailing `/{id}`, no query string); `body` is the exact raw
 * JSON sent, or "" for GET and DELETE.
 */
export function sign(secret: string, path: string, nonce: string, body: string): string {
  return createHmac('sha384', Buffer.from(secret, 'utf8')).update(`${path}${nonce}${body}`, 'utf8').digest('hex');
}

/** Constant-time comparison of a received signature with the expected one. */
export function signatureMatches(secret: string, path: string, nonce: string, body: string, received: string): boolean {
  const expected = Buffer.from(sign(secret, path, nonce, body), 'utf8');
  const given = Buffer.from(received.toLowerCase(), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The three authentication headers of one call. */
export function authHeaders(credentials: PlazaCredentials, path: string, nonce: string, body: string): Record<string, string> {
  return {
    [AUTH_HEADERS.apiKey]: credentials.apiKey,
    [AUTH_HEADERS.nonce]: nonce,
    [AUTH_HEADERS.signature]: sign(credentials.apiSecret, path, nonce, body),
  };
}

/**
 * Nonces must strictly increase per API key, across restarts too: a counter seeded from the clock
 * that never goes backwards and never repeats, even when many calls share one millisecond.
 */
export class NonceCounter {
  private last = 0;
  constructor(private readonly clock: () => number = Date.now) {}

  next(): string {
    this.last = Math.max(this.last + 1, Math.floor(this.clock()));
    return String(this.last);
  }
}

/** Fields whose numbers the bank wants printed with two decimals inside the signed body (`10.00`). */
const AMOUNT_FIELDS = new Set(['monto']);

/**
 * The raw JSON body, with amounts written `10.00` as the bank's clients send them. The signature
 * covers these exact bytes, so the same string is signed and sent.
 */
export function plazaJson(body: Record<string, unknown>): string {
  const tag = randomBytes(6).toString('hex');
  const amounts: string[] = [];
  const text = JSON.stringify(body, (key, value: unknown) => {
    if (AMOUNT_FIELDS.has(key) && typeof value === 'number' && Number.isFinite(value)) {
      amounts.push(value.toFixed(2));
      return `${tag}:${amounts.length - 1}`;
    }
    return value;
  });
  return text.replace(new RegExp(`"${tag}:([0-9]+)"`, 'g'), (_, i: string) => amounts[Number(i)] ?? '0.00');
}

/** The business result of one answer, read from the response headers (or the body, where some queries repeat it). */
export interface PlazaResult {
  codigo: string | null;
  descripcionCliente: string | null;
  descripcionSistema: string | null;
  fechaHora: string | null;
}

export function readResult(headers: Record<string, string>, body: unknown): PlazaResult {
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  const inBody = (name: string): string | null => {
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const v = (body as Record<string, unknown>)[name];
      if (typeof v === 'string' || typeof v === 'number') return String(v);
    }
    return null;
  };
  const field = (name: string): string | null => {
    const v = lower[name.toLowerCase()];
    return v !== undefined && v.trim() !== '' ? v.trim() : inBody(name);
  };
  return {
    codigo: field(RESULT_HEADERS.codigo),
    descripcionCliente: field(RESULT_HEADERS.descripcionCliente),
    descripcionSistema: field(RESULT_HEADERS.descripcionSistema),
    fechaHora: field(RESULT_HEADERS.fechaHora),
  };
}

/** The body as JSON when it is JSON, else the text as received (an empty body is null). */
export function parseBody(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
