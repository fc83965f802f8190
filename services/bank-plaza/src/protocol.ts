import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseBody } from '@switch/connector-kit/formats';
import type { GuardedSend, Sent } from '@switch/connector-kit/send';
import type { ReplicaNonce } from '@switch/connector-kit/references';

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

export { parseBody };

/** One call to the bank: what to send and what to sign. */
export interface PlazaRequest {
  /** The breaker this call goes through (one per bank endpoint). */
  operation: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path with its parameters, without the query string. */
  path: string;
  /** The base path the signature covers (no trailing `/{id}`). */
  signPath: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** A call as it came back: the kit's answer, with the business result read from the headers. */
export type PlazaAnswer =
  | Exclude<Sent, { kind: 'response' }>
  | { kind: 'response'; status: number; body: unknown; result: PlazaResult; raw: Record<string, unknown> };

export const NONCE_REFUSED = '0402';

/**
 * Banco Plaza's signed transport over the kit's guarded send. Nonces come from a `ReplicaNonce`
 * (microsecond clock + replica id): every replica sharing the API key sends nonces no other replica
 * sends, increasing in each. A nonce the bank refuses anyway (0402) was refused before the bank read
 * the order, so the call is signed once more with a fresh nonce.
 */
export class PlazaTransport {
  private readonly baseUrl: string;
  constructor(
    private readonly kit: GuardedSend,
    private readonly credentials: PlazaCredentials,
    baseUrl: string,
    readonly nonces: ReplicaNonce,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async send(req: PlazaRequest): Promise<PlazaAnswer> {
    const body = req.body ? plazaJson(req.body) : '';
    const query = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = {
        ...authHeaders(this.credentials, req.signPath, this.nonces.next(), body),
        accept: 'application/json',
        ...(req.body ? { 'content-type': 'application/json' } : {}),
      };
      const sent = await this.kit.send({
        operation: req.operation,
        url: `${this.baseUrl}${req.path}${query}`,
        method: req.method,
        headers,
        ...(req.body ? { body } : {}),
      });
      const answer = readAnswer(sent);
      if (attempt < 3 && answer.kind === 'response' && answer.result.codigo === NONCE_REFUSED) continue;
      return answer;
    }
  }
}

/** The bank's answer with its result headers, and what `raw` keeps of it. */
export function readAnswer(sent: Sent): PlazaAnswer {
  if (sent.kind !== 'response') return sent;
  const body = parseBody(sent.body);
  const r = readResult(sent.headers, body);
  return {
    kind: 'response',
    status: sent.status,
    body,
    result: r,
    raw: {
      status: sent.status,
      codigo: r.codigo,
      descripcion: r.descripcionCliente ?? r.descripcionSistema,
      descripcionCliente: r.descripcionCliente,
      descripcionSistema: r.descripcionSistema,
      fechaHora: r.fechaHora,
      body,
    },
  };
}
