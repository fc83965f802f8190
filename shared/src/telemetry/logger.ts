import pino, { type DestinationStream, type Logger } from 'pino';

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
  'secret',
  'otp',
];

/** `destination` defaults to stdout; tests pass an in-memory stream to read what would be written. */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = { name: service, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service } };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
