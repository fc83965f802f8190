/** The switch's errors: the catalogue of every error code an HTTP answer carries, the answers an HTTP handler throws, and the errors a message handler throws that the bus dead-letters at once. */
import { type TSchema, Type } from '@sinclair/typebox';
import { MOTIVOS_RECHAZO, type EstadoOrigen, type EstadoTransaccion, type MotivoRechazo, type TransitionCause } from '../estados';

/**
 * The error catalogue: every `error` code an HTTP answer of the switch can carry, with its status and
 * what it means for a merchant (SPEC 7.1, DESIGN "Errors the SPEC leaves open"). Routes answer errors
 * only through it (`HttpProblem` below, the gateway's `sendError`), the OpenAPI's error responses are built from it
 * and docs/errors.md lists it; a test holds each of these to the others.
 */
export interface ErrorEntry {
  readonly status: number;
  /** One line for merchants: what went wrong and what to do about it. */
  readonly meaning: string;
  /** What `detail` holds when the body carries one (`always`: every answer with this code has it). */
  readonly detail?: { readonly text: string; readonly always?: true };
  /** The body is the code alone (`{"error":"unauthorized"}`), never a `message`. */
  readonly bare?: true;
  /** Answered by the operator API (/admin/v1) only, never to a merchant key. */
  readonly operator?: true;
  /** Answered before any route (the HTTP parser, an unknown method): in no operation's responses. */
  readonly beforeRoutes?: true;
}

const HOUSE_ERRORS = {
  VALIDATION: {
    status: 400,
    meaning:
      'A field, the query, the JSON itself or the URL is invalid: JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control or invisible character in `nombre` or `concepto` (bidi overrides, zero-width characters, U+FEFF, private use, noncharacters: see their schemas); a malformed URL or request. Fix the request; retrying it as it is fails the same way',
    detail: { text: 'Each invalid field by its path, with the reason', always: true },
    bare: true,
  },
  unauthorized: { status: 401, meaning: '`x-switch-key` missing, malformed, invalid or inactive', bare: true },
  NOT_FOUND: { status: 404, meaning: 'No such operation, endpoint or delivery for this merchant and mode, or no such path' },
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: 'A known path asked with another method; the `allow` header names the methods it has',
    beforeRoutes: true,
  },
  REQUEST_TIMEOUT: { status: 408, meaning: 'The headers or the body arrived too slowly; send the request again', beforeRoutes: true },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    meaning:
      'The idempotency_key was used with a different body (or, for a cobrar/token, by the other step first: a cobrar without token takes the key); nothing is stored or sent. Use a new key for a new operation',
  },
  REVERSO_EXISTENTE: {
    status: 409,
    meaning: 'The operation already has its one reverso, named in `reverso` (query it with /consultar); nothing is stored or sent',
  },
  TOKEN_EN_CURSO: {
    status: 409,
    meaning: 'The token of this idempotency_key is not recorded yet; retry the cobrar with the same key',
  },
  ALREADY_EXISTS: { status: 409, meaning: 'The merchant, panel user or account exists already', operator: true },
  USER_DEACTIVATED: { status: 409, meaning: 'The panel user is deactivated: enable them first', operator: true },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The body is larger than the limit' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    meaning: 'Not `application/json`, or a charset other than UTF-8',
  },
  TOKEN_MISMATCH: {
    status: 422,
    meaning: 'A cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key)',
    detail: { text: 'Each field that differs from the token request' },
  },
  ACCOUNT_NOT_REGISTERED: {
    status: 422,
    meaning:
      'Live: ordenante, cobrador or cuenta is not one of your registered accounts; nothing is stored or sent. Register it with the operator',
    detail: { text: 'The field that names an unregistered account' },
  },
  BANCO_NO_DISPONIBLE: {
    status: 422,
    meaning:
      'No enabled bank serves the account; as the code of a balance or statement read, the bank refused the query (a `motivo_rechazo`, like the other such codes below)',
  },
  DESTINATION_REFUSED: {
    status: 422,
    meaning: 'A webhook URL to an address webhooks may not reach',
    detail: { text: '`url`: why the address is refused' },
  },
  ENDPOINT_LIMIT: { status: 422, meaning: 'The mode has its 10 webhook endpoints already: delete one first' },
  RATE_LIMITED: {
    status: 429,
    meaning:
      "A valid key over its own request budget (every answer to a valid key carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`), or a request without a valid key from an address that sent too many of them; retry after `retry-after` seconds. A valid key is never refused because of failed requests, its own or anyone else's, nor because of other keys or its address",
  },
  HEADERS_TOO_LARGE: { status: 431, meaning: 'The request line and headers are too large', beforeRoutes: true },
  INTERNAL: {
    status: 500,
    meaning: 'An unexpected fault of the switch; retry with the same idempotency_key',
    beforeRoutes: true,
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    meaning: 'A dependency (store, bus or bank) is unreachable; retry later with the same idempotency_key',
  },
} as const satisfies Record<string, ErrorEntry>;

/**
 * A balance or statement read the bank refused answers 422 with the bank's `motivo_rechazo` as its
 * code (API contract 7.2), the same vocabulary merchants already read in `Resultado`.
 */
const BANK_REFUSAL: ErrorEntry = {
  status: 422,
  meaning: 'A balance or statement read the bank refused, named by its `motivo_rechazo` (API contract 7.2)',
};

export type HouseErrorCode = keyof typeof HOUSE_ERRORS;
export type ErrorCode = HouseErrorCode | MotivoRechazo;

/** The status of a code, as a type (so a body typed with a code cannot name another status). */
export type ErrorStatus<C extends ErrorCode> = C extends HouseErrorCode ? (typeof HOUSE_ERRORS)[C]['status'] : 422;

export const HOUSE_ERROR_CODES = Object.keys(HOUSE_ERRORS) as HouseErrorCode[];

export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, ErrorEntry>> = {
  ...HOUSE_ERRORS,
  ...(Object.fromEntries(MOTIVOS_RECHAZO.filter((motivo) => !(motivo in HOUSE_ERRORS)).map((motivo) => [motivo, BANK_REFUSAL])) as Record<
    Exclude<MotivoRechazo, HouseErrorCode>,
    ErrorEntry
  >),
};

export const errorStatus = <C extends ErrorCode>(code: C): ErrorStatus<C> => ERROR_CATALOGUE[code].status as ErrorStatus<C>;

/** What an error body carries besides its code, in the order it is written. */
export interface ErrorExtras {
  message?: string;
  detail?: Record<string, string>;
  /** REVERSO_EXISTENTE: the id of the reverso the original already has. */
  reverso?: string;
}

/** The house error body of a code: `{"error": CODE, ...extras}`. */
export type ErrorBody = { error: ErrorCode } & ErrorExtras;

/** The codes a merchant key can be answered with at one status by a route (what the OpenAPI lists). */
export function merchantCodesOf(status: number): ErrorCode[] {
  return (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code) => {
    const entry = ERROR_CATALOGUE[code];
    return entry.status === status && !entry.operator && !entry.beforeRoutes;
  });
}

/** A response's description: the meaning of its one code, or `CODE: meaning` of each. */
const meanings = (status: number) => {
  const codes = merchantCodesOf(status).filter((code) => ERROR_CATALOGUE[code] !== BANK_REFUSAL);
  if (codes.length === 1) return ERROR_CATALOGUE[codes[0]!].meaning;
  return codes.map((code) => `${code}: ${ERROR_CATALOGUE[code].meaning}`).join('; ');
};

/** The schema of the error bodies a route answers at `status`, built from the catalogue. */
function errorBodyOf(status: number): TSchema {
  const codes = merchantCodesOf(status);
  const refusals = codes.some((code) => ERROR_CATALOGUE[code] === BANK_REFUSAL);
  const description = `${meanings(status)}${refusals ? `; any other \`motivo_rechazo\`: ${BANK_REFUSAL.meaning}` : ''}`;
  const entries = codes.map((code) => ERROR_CATALOGUE[code]);
  const error =
    codes.length === 1
      ? Type.Literal(codes[0]!)
      : // A plain string with its enum: answers serialise as strings, the document lists every code.
        Type.Unsafe<ErrorCode>({ type: 'string', enum: codes });
  const properties: Record<string, TSchema> = { error };
  if (entries.some((e) => !e.bare)) properties.message = Type.Optional(Type.String());
  const detail = entries.filter((e) => e.detail);
  if (detail.length) {
    const schema = Type.Record(Type.String(), Type.String(), detail.length === 1 ? { description: detail[0]!.detail!.text } : {});
    properties.detail = detail.length === entries.length && detail.every((e) => e.detail?.always) ? schema : Type.Optional(schema);
  }
  if (codes.includes('REVERSO_EXISTENTE')) {
    properties.reverso = Type.Optional(Type.String({ description: 'REVERSO_EXISTENTE: the id of the reverso the original already has' }));
  }
  return Type.Object(properties, { description });
}

export const ValidationErrorBody = errorBodyOf(400);
export const UnauthorizedBody = errorBodyOf(401);
export const NotFoundBody = errorBodyOf(404);
/** 409: the request conflicts with an operation that exists already (nothing of it is stored or sent). */
export const IdempotencyConflictBody = errorBodyOf(409);
export const PayloadTooLargeBody = errorBodyOf(413);
export const UnsupportedMediaTypeBody = errorBodyOf(415);
/** 422: a well-formed request the switch refuses (its `error` code names why). */
export const RefusedRequestBody = errorBodyOf(422);
export const RateLimitedBody = errorBodyOf(429);
export const ServiceUnavailableBody = errorBodyOf(503);

/** The error body a route may answer at each status (the OpenAPI's error responses). */
export const ERROR_RESPONSE_BODIES = {
  400: ValidationErrorBody,
  401: UnauthorizedBody,
  404: NotFoundBody,
  409: IdempotencyConflictBody,
  413: PayloadTooLargeBody,
  415: UnsupportedMediaTypeBody,
  422: RefusedRequestBody,
  429: RateLimitedBody,
  503: ServiceUnavailableBody,
} as const satisfies Record<number, TSchema>;

/**
 * The catalogue as Markdown list items, one per code: the OpenAPI's description (`merchant`: without
 * the operator API's codes) and docs/errors.md (`all`).
 */
export function errorCatalogueMarkdown(audience: 'merchant' | 'all'): string {
  const items = HOUSE_ERROR_CODES.filter((code) => audience === 'all' || !ERROR_CATALOGUE[code].operator).map((code) => {
    const entry: ErrorEntry = ERROR_CATALOGUE[code];
    const notes = [entry.detail ? `\`detail\`: ${entry.detail.text}` : '', entry.operator ? 'operator API only' : ''].filter(Boolean);
    return `- \`${code}\` (${entry.status}): ${entry.meaning}.${notes.length ? ` ${notes.join('; ')}.` : ''}`;
  });
  items.push(`- any other \`motivo_rechazo\` (${BANK_REFUSAL.status}): ${BANK_REFUSAL.meaning}.`);
  return items.join('\n');
}

/**
 * Every status a route can answer besides 200, each with its body as the error catalogue builds it
 * (above; the OpenAPI states what the server does: docs/api-conformance.md).
 * Parser-level answers (408, 431) and 405 on a known path are in the document's description: they come
 * before any route.
 */
type Status = keyof typeof ERROR_RESPONSE_BODIES;
export const errorResponses = (...statuses: Status[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((s) => [s, ERROR_RESPONSE_BODIES[s]]));

/** The house error body of a catalogue code: `{"error": CODE, ...extras}`, extras in the order given. */
export const errorBody = (code: ErrorCode, extras: ErrorExtras = {}): ErrorBody => ({ error: code, ...extras });

/**
 * Thrown by HTTP handlers to answer an error of the catalogue; its status is the code's. A code
 * outside the catalogue does not compile.
 */
export class HttpProblem extends Error {
  readonly statusCode: number;
  readonly body: ErrorBody;
  constructor(code: ErrorCode, extras: ErrorExtras = {}) {
    super(extras.message ?? (extras.detail ? JSON.stringify(extras.detail) : code));
    this.statusCode = errorStatus(code);
    this.body = errorBody(code, extras);
  }
}

/** A dependency (bus, store, bank) is down: 503 with a clear body (DESIGN "Bad input"). */
export class DependencyDown extends Error {}

/**
 * Thrown by a handler to say "this message can never succeed" (it is not a passing outage): the bus
 * dead-letters it at once with this reason and the partition moves on. Anything else a handler throws
 * is retried until it succeeds.
 */
export class PoisonMessage extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = new.target.name; // subclasses (ForbiddenTransition) keep their own name in logs
  }
}

/**
 * A message its topic's schema refuses (contracts/topics.ts): the bus checks every payload it publishes
 * or redrives, so a writer's mistake is refused at the writer rather than read by a consumer.
 */
export class SchemaViolation extends Error {
  constructor(
    readonly topic: string,
    readonly problems: string[],
  ) {
    super(`payload refused by the schema of ${topic}: ${problems.join('; ')}`);
  }
}

/**
 * A transition the table does not allow. Deterministic: the same message would be refused on every
 * redelivery, so it is a PoisonMessage (dead-lettered with this reason for an operator, who redrives it
 * after a fix) rather than a failure that holds its partition forever.
 */
export class ForbiddenTransition extends PoisonMessage {
  constructor(
    readonly from: EstadoOrigen,
    readonly to: EstadoTransaccion,
    readonly trigger: TransitionCause,
  ) {
    super(`transition ${from ?? '(new)'} -> ${to} by ${trigger} is not allowed`);
  }
}
