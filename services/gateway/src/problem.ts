import type { FastifyReply } from 'fastify';
import { type ErrorBody, type ErrorCode, type ErrorExtras, errorStatus } from '@switch/core/contracts/errors';

/**
 * The only ways the gateway answers an error: a code of the catalogue (packages/core/src/contracts/errors.ts),
 * whose status comes with it, in the house body. A code outside the catalogue does not compile.
 */

/** The house error body of a catalogue code: `{"error": CODE, ...extras}`, extras in the order given. */
export const errorBody = (code: ErrorCode, extras: ErrorExtras = {}): ErrorBody => ({ error: code, ...extras });

/** Thrown by handlers to answer an error of the catalogue; its status is the code's. */
export class HttpProblem extends Error {
  readonly statusCode: number;
  readonly body: ErrorBody;
  constructor(code: ErrorCode, extras: ErrorExtras = {}) {
    super(extras.message ?? (extras.detail ? JSON.stringify(extras.detail) : code));
    this.statusCode = errorStatus(code);
    this.body = errorBody(code, extras);
  }
}

/** Answers an error of the catalogue: the code's status and the house body. */
export function sendError(reply: FastifyReply, code: ErrorCode, extras?: ErrorExtras): FastifyReply {
  return reply.code(errorStatus(code)).send(errorBody(code, extras));
}

/** A dependency (bus, store, bank) is down: 503 with a clear body (DESIGN "Bad input"). */
export class DependencyDown extends Error {}
