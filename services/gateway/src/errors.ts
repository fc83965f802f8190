import type { FastifyError, FastifyInstance } from 'fastify';
import { SchemaViolation, UUID_PATTERN } from '@switch/shared';

interface AjvLikeError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Thrown by handlers to answer a 4xx with a body in the house style. */
export class HttpProblem extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: { error: string; message?: string; detail?: Record<string, string> },
  ) {
    super(body.message ?? body.error);
  }
}

/** A dependency (bus, store, bank) is down: 503 with a clear body (DESIGN "Bad input"). */
export class DependencyDown extends Error {}

/**
 * Turns ajv errors into `{ "monto.valor": "must be > 0", ... }`, one entry per bad field, named by
 * its path in the body (or query).
 */
export function validationDetail(errors: AjvLikeError[], root: string): Record<string, string> {
  const detail: Record<string, string> = {};
  const allowed = new Map<string, string[]>();
  for (const e of errors) {
    if (e.keyword === 'if') continue; // the `then` error beside it names the field
    const segments = e.instancePath.split('/').filter(Boolean);
    if (e.keyword === 'required') segments.push(String(e.params.missingProperty));
    const path = segments.join('.') || root;
    if (e.keyword === 'const') {
      allowed.set(path, [...(allowed.get(path) ?? []), String(e.params.allowedValue)]);
      continue;
    }
    if (e.keyword === 'anyOf' && allowed.has(path)) continue;
    if (e.keyword === 'required') detail[path] ??= 'is required';
    else if (e.keyword === 'format' && e.params.format === 'uuid') detail[path] ??= 'must be a UUID';
    else if (e.keyword === 'pattern' && e.params.pattern === UUID_PATTERN) detail[path] ??= 'must be a UUID';
    else detail[path] ??= e.message ?? 'is invalid';
  }
  for (const [path, values] of allowed) detail[path] = `must be one of: ${values.join(', ')}`;
  return detail;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'NOT_FOUND' }));
  app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
    if (error instanceof HttpProblem) return reply.code(error.statusCode).send(error.body);
    if (error.validation) {
      const root = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'body');
      return reply.code(400).send({ error: 'VALIDATION', detail: validationDetail(error.validation as AjvLikeError[], root) });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(413).send({ error: 'PAYLOAD_TOO_LARGE', message: 'request body too large' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply.code(error.statusCode ?? 415).send({ error: 'UNSUPPORTED_MEDIA_TYPE', message: 'send content-type: application/json' });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.code(400).send({ error: 'VALIDATION', detail: { body: 'is required' } });
    }
    if (error.statusCode === 429) return reply.code(429).send({ error: 'RATE_LIMITED', message: error.message });
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON and other client faults the parser finds.
      return reply.code(400).send({ error: 'VALIDATION', detail: { body: 'must be valid JSON' } });
    }
    if (error instanceof DependencyDown || error instanceof SchemaViolation) {
      request.log.error({ err: error }, 'dependency unavailable');
      return reply.code(503).send({ error: 'SERVICE_UNAVAILABLE', message: 'the switch cannot reach a dependency; retry with the same idempotency_key' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'INTERNAL', message: 'unexpected error; retry with the same idempotency_key' });
  });
}
