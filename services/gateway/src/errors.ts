/** The gateway's error answers: a catalogue code on a reply (`sendError`), and the handlers that turn validation, framework and client errors into catalogue answers. */
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  errorStatus,
  DependencyDown,
  errorBody,
  HttpProblem,
  SchemaViolation,
  type ErrorCode,
  type ErrorExtras,
} from '@switch/core/contracts/errors';
import { HTTP_TEXT_PATTERNS, UUID_PATTERN } from '@switch/core/contracts/operaciones';
import { NONBLANK_TEXT_PATTERN, TEXT_RULE } from '@switch/core/contracts/fields';

/** Answers an error of the catalogue: the code's status and the house body (the only way the gateway answers one). */
export function sendError(reply: FastifyReply, code: ErrorCode, extras?: ErrorExtras): FastifyReply {
  return reply.code(errorStatus(code)).send(errorBody(code, extras));
}

/** A body was announced but not read: answering must close the connection rather than drain it. */
export function bodyUnread(request: FastifyRequest): boolean {
  const h = request.headers;
  const announced = (h['content-length'] !== undefined && h['content-length'] !== '0') || h['transfer-encoding'] !== undefined;
  return announced && request.body === undefined;
}

interface AjvLikeError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

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
    else if (e.keyword === 'pattern' && HTTP_TEXT_PATTERNS.has(String(e.params.pattern))) {
      const blank = e.params.pattern === NONBLANK_TEXT_PATTERN ? 'must not be blank; ' : '';
      detail[path] ??= `${blank}allowed: ${TEXT_RULE}`;
    } else detail[path] ??= e.message ?? 'is invalid';
  }
  for (const [path, values] of allowed) detail[path] = `must be one of: ${values.join(', ')}`;
  return detail;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/** The methods a path is served with, or none when the path is unknown. */
export function allowedMethods(app: FastifyInstance, url: string): string[] {
  const path = url.split('?')[0] ?? url;
  return METHODS.filter((method) => app.hasRoute({ method, url: path }));
}

/**
 * Errors the HTTP parser finds before fastify sees a request (headers too large, a malformed request
 * line, a request that took too long): the house body, then the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const problem =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new HttpProblem('HEADERS_TOO_LARGE', { message: 'the request line and headers are too large' })
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new HttpProblem('REQUEST_TIMEOUT', { message: 'the request did not arrive in time' })
        : new HttpProblem('VALIDATION', { detail: { request: 'is not a well-formed HTTP/1.1 request' } });
  const status = problem.statusCode;
  const text = JSON.stringify(problem.body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncache-control: no-store\r\n` +
        `connection: close\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}

/** Router-level faults (a URL that cannot be decoded, a parameter too long): 400 in the house body. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void sendError(reply, 'VALIDATION', {
    detail: { url: error.code === 'FST_ERR_BAD_URL' ? 'is not a valid URL' : error.message || 'is invalid' },
  });
}

export function installErrorHandling(app: FastifyInstance): void {
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    // A known path with another method is 405 naming the methods it has (RFC 9110 15.5.6).
    const allow = allowedMethods(app, request.url);
    if (bodyUnread(request)) reply.header('connection', 'close');
    if (allow.length) {
      reply.header('allow', allow.join(', '));
      return sendError(reply, 'METHOD_NOT_ALLOWED', { message: `${request.method} is not served here; allowed: ${allow.join(', ')}` });
    }
    return sendError(reply, 'NOT_FOUND');
  };
  app.setNotFoundHandler(notFound);
  app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
    // No route here: whatever the body (fastify reads it before the not-found handler), 404 or 405.
    if (request.is404) return notFound(request, reply);
    if (error instanceof HttpProblem) return reply.code(error.statusCode).send(error.body);
    if (error.validation) {
      const root = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'body');
      return sendError(reply, 'VALIDATION', { detail: validationDetail(error.validation as AjvLikeError[], root) });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        // The rest of the body is not read: the connection closes after the answer.
        if (bodyUnread(request)) reply.header('connection', 'close');
        return sendError(reply, 'PAYLOAD_TOO_LARGE', { message: 'request body too large' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        // An invalid content-length keeps fastify's own status (400) with the media-type body.
        return reply
          .code(error.statusCode ?? errorStatus('UNSUPPORTED_MEDIA_TYPE'))
          .send(errorBody('UNSUPPORTED_MEDIA_TYPE', { message: 'send content-type: application/json' }));
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, 'VALIDATION', { detail: { body: 'is required' } });
    }
    if (error.statusCode === 429) return sendError(reply, 'RATE_LIMITED', { message: error.message });
    if (error.statusCode === 408 || (error as { code?: string }).code === 'ECONNRESET') {
      reply.header('connection', 'close');
      return sendError(reply, 'REQUEST_TIMEOUT', { message: 'the request did not arrive in time' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON and other client faults the parser finds.
      return sendError(reply, 'VALIDATION', { detail: { body: 'must be valid JSON' } });
    }
    if (error instanceof DependencyDown || error instanceof SchemaViolation) {
      request.log.error({ err: error }, 'dependency unavailable');
      return sendError(reply, 'SERVICE_UNAVAILABLE', {
        message: 'the switch cannot reach a dependency; retry with the same idempotency_key',
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 'INTERNAL', { message: 'unexpected error; retry with the same idempotency_key' });
  });
}
