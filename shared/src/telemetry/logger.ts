import pino, { type Logger } from 'pino';

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

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ name: service, level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service } });
}
export type { Logger };
