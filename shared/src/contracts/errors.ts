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

export const ValidationErrorBody = Type.Object({
  error: Type.Literal('VALIDATION'),
  detail: Type.Record(Type.String(), Type.String(), { description: 'Each invalid field by its path, with the reason' }),
});

export const UnauthorizedBody = Type.Object({ error: Type.Literal('unauthorized') });
