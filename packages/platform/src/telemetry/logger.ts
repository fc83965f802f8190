import pino, { type DestinationStream, type Logger } from 'pino';
import { isSpanContextValid, trace } from '@opentelemetry/api';

/** Paths that may hold secrets; pino replaces them before anything is written. */
export const REDACTED_PATHS = [
  'req.headers["x-switch-key"]',
  'req.headers.authorization',
  'headers["x-switch-key"]',
  'headers.authorization',
  '*.secret',
  '*.secretHash',
  '*.apiKey',
  '*.otp',
  // An order or a command as a whole (`request.body.otp`): the OTP travels sealed, and is opened only
  // for the bank call; neither form is written to a log.
  '*.*.otp',
  '*.sealedSecret',
  'secret',
  'otp',
];

/**
 * `trace_id` and `span_id` of the span active where a line is logged (see ./tracing), so a log line leads
 * to its trace. Nothing when tracing is off or outside any span.
 */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx && isSpanContextValid(ctx) ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
}

/** `destination` defaults to stdout; tests pass an in-memory stream to read what would be written. */
export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  const options = { name: service, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service }, mixin: traceFields };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
