import { Type, type Static } from '@sinclair/typebox';

/** The error codes of every non-2xx answer, one style (SPEC 7.1, DESIGN "Errors the SPEC leaves open"). */
export const ERROR_CODES = {
  400: 'VALIDATION',
  401: 'unauthorized',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  409: 'IDEMPOTENCY_CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'BANCO_NO_DISPONIBLE',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
  503: 'SERVICE_UNAVAILABLE',
} as const;

export const ErrorBody = Type.Object({
  error: Type.String(),
  message: Type.Optional(Type.String()),
  detail: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type ErrorBody = Static<typeof ErrorBody>;

export const ValidationErrorBody = Type.Object(
  {
    error: Type.Literal('VALIDATION'),
    detail: Type.Record(Type.String(), Type.String(), { description: 'Each invalid field by its path, with the reason' }),
  },
  { description: 'A field, the query, the JSON itself or the URL is invalid; `detail` names each' },
);

export const UnauthorizedBody = Type.Object(
  { error: Type.Literal('unauthorized') },
  { description: '`x-switch-key` missing, malformed, invalid or inactive' },
);

/** A house error body whose `error` is the given code (SPEC 7.1). */
const houseError = <C extends string>(code: C, description: string) =>
  Type.Object(
    { error: Type.Literal(code), message: Type.Optional(Type.String()), detail: Type.Optional(Type.Record(Type.String(), Type.String())) },
    { description },
  );

export const NotFoundBody = houseError('NOT_FOUND', 'No operation with that id for this merchant and mode');
/** 409: the request conflicts with an operation that exists already (nothing of it is stored or sent). */
export const IdempotencyConflictBody = Type.Object(
  {
    error: Type.Union([Type.Literal('IDEMPOTENCY_CONFLICT'), Type.Literal('REVERSO_EXISTENTE'), Type.Literal('TOKEN_EN_CURSO')]),
    message: Type.Optional(Type.String()),
    detail: Type.Optional(Type.Record(Type.String(), Type.String())),
    reverso: Type.Optional(Type.String({ description: 'REVERSO_EXISTENTE: the id of the reverso the original already has' })),
  },
  {
    description:
      'IDEMPOTENCY_CONFLICT: the idempotency_key was used with a different body (or, for a cobrar/token, by the other step first: a cobrar without token takes the key); REVERSO_EXISTENTE: the operation already has its one reverso, named in `reverso` (query it with /consultar); TOKEN_EN_CURSO: the token of this idempotency_key is not recorded yet, retry the cobrar with the same key',
  },
);
export const PayloadTooLargeBody = houseError('PAYLOAD_TOO_LARGE', 'The body is larger than the limit');
export const UnsupportedMediaTypeBody = houseError('UNSUPPORTED_MEDIA_TYPE', 'Not `application/json` in UTF-8');
export const RateLimitedBody = houseError(
  'RATE_LIMITED',
  "A valid key over its own request budget (see the `RateLimit-*` headers), or a request without a valid key from an address that sent too many of them; see `retry-after`. A valid key is never refused because of failed requests, its own or anyone else's",
);
export const ServiceUnavailableBody = houseError('SERVICE_UNAVAILABLE', 'A dependency (store, bus or bank) is unreachable; retry later');
/** 422: a well-formed request the switch refuses (its `error` code names why). */
export const RefusedRequestBody = Type.Object(ErrorBody.properties, {
  description:
    'TOKEN_MISMATCH: a cobrar whose monto, cobrador or pagador differs from its token (same idempotency_key); ACCOUNT_NOT_REGISTERED (live): ordenante, cobrador or cuenta is not one of your registered accounts (`detail` names each field; nothing is stored or sent); BANCO_NO_DISPONIBLE: no enabled bank serves the account, or the bank refused the query; DESTINATION_REFUSED: a webhook URL to an address webhooks may not reach; ENDPOINT_LIMIT: the mode has its 10 webhook endpoints already',
});
