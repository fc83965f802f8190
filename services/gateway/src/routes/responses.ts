import type { TSchema } from '@sinclair/typebox';
import { ERROR_RESPONSE_BODIES } from '@switch/core/contracts/errors';

/**
 * Every status a route can answer besides 200, each with its body as the error catalogue builds it
 * (packages/core/src/contracts/errors.ts; the OpenAPI states what the server does: docs/api-conformance.md).
 * Parser-level answers (408, 431) and 405 on a known path are in the document's description: they come
 * before any route.
 */
type Status = keyof typeof ERROR_RESPONSE_BODIES;
export const errorResponses = (...statuses: Status[]): Record<number, TSchema> =>
  Object.fromEntries(statuses.map((s) => [s, ERROR_RESPONSE_BODIES[s]]));
