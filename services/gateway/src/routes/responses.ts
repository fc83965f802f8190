import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorBody, UnauthorizedBody, ValidationErrorBody } from '@switch/shared';

/** A house error body whose `error` is the given code (SPEC 7.1, shared/src/contracts/errors.ts). */
const houseError = (code: string, description: string) =>
  Type.Object(
    { error: Type.Literal(code), message: Type.Optional(Type.String()), detail: Type.Optional(Type.Record(Type.String(), Type.String())) },
    { description },
  );

/**
 * Every status a route can answer besides 200, each with its body (the OpenAPI states what the
 * server does: docs/api-conformance.md). Parser-level answers (408, 431) and 405 on a known path are
 * in the document's description: they come before any route.
 */
export const ERROR_RESPONSES: Record<400 | 401 | 404 | 409 | 413 | 415 | 422 | 429 | 503, TSchema> = {
  400: { ...ValidationErrorBody, description: 'A field, the query, the JSON itself or the URL is invalid; `detail` names each' },
  401: { ...UnauthorizedBody, description: '`x-switch-key` missing, malformed, invalid or inactive' },
  404: houseError('NOT_FOUND', 'No operation with that id for this merchant and mode'),
  409: houseError('IDEMPOTENCY_CONFLICT', 'The idempotency_key was used with a different body'),
  413: houseError('PAYLOAD_TOO_LARGE', 'The body is larger than the limit'),
  415: houseError('UNSUPPORTED_MEDIA_TYPE', 'Not `application/json` in UTF-8'),
  422: {
    ...ErrorBody,
    description:
      'TOKEN_MISMATCH: a cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED (live): ordenante, cobrador or cuenta is not one of your registered accounts (`detail` names each field; nothing is stored or sent); BANCO_NO_DISPONIBLE: no enabled bank serves the account, or the bank refused the query',
  },
  429: {
    ...houseError('RATE_LIMITED', 'Too many requests, or too many refused requests, from this address or merchant; see `retry-after`'),
  },
  503: houseError('SERVICE_UNAVAILABLE', 'A dependency (store, bus or bank) is unreachable; retry later'),
};

type Status = keyof typeof ERROR_RESPONSES;
export const errorResponses = (...statuses: Status[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((s) => [s, ERROR_RESPONSES[s]]));
