import type { TSchema } from '@sinclair/typebox';
import {
  IdempotencyConflictBody,
  NotFoundBody,
  PayloadTooLargeBody,
  RateLimitedBody,
  RefusedRequestBody,
  ServiceUnavailableBody,
  UnauthorizedBody,
  UnsupportedMediaTypeBody,
  ValidationErrorBody,
} from '@switch/shared';

/**
 * Every status a route can answer besides 200, each with its body (the OpenAPI states what the
 * server does: docs/api-conformance.md). The bodies are the contracts' (shared/src/contracts/errors.ts),
 * published as named components. Parser-level answers (408, 431) and 405 on a known path are in the
 * document's description: they come before any route.
 */
export const ERROR_RESPONSES: Record<400 | 401 | 404 | 409 | 413 | 415 | 422 | 429 | 503, TSchema> = {
  400: ValidationErrorBody,
  401: UnauthorizedBody,
  404: NotFoundBody,
  409: IdempotencyConflictBody,
  413: PayloadTooLargeBody,
  415: UnsupportedMediaTypeBody,
  422: RefusedRequestBody,
  429: RateLimitedBody,
  503: ServiceUnavailableBody,
};

type Status = keyof typeof ERROR_RESPONSES;
export const errorResponses = (...statuses: Status[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((s) => [s, ERROR_RESPONSES[s]]));
