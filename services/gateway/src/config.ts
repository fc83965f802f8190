import { envReader, type EnvReader } from '@switch/shared';

export interface GatewayConfig {
  host: string;
  port: number;
  /** The operator listener: /metrics, /healthz, /readyz, /admin/v1 (never exposed to merchants). */
  operatorHost: string;
  operatorPort: number;
  /** Failed admin-token attempts allowed per source address within `adminLockoutSeconds`; then 429. */
  adminMaxFailures: number;
  adminLockoutSeconds: number;
  bodyLimitBytes: number;
  answerTimeoutMs: number;
  queryTimeoutMs: number;
  rateLimitPerMinute: number;
  adminToken: string | undefined;
  logRequests: boolean;
  /** Live webhook endpoints may be internal addresses (tests and drills only): `SWITCH_WEBHOOK_ALLOW_PRIVATE`. */
  allowPrivateWebhooks: boolean;
}

export function loadGatewayConfig(env: EnvReader = envReader()): GatewayConfig {
  const adminToken = env.optionalString('SWITCH_ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new Error('configuration SWITCH_ADMIN_TOKEN: must be at least 16 characters');
  }
  return {
    host: env.string('HOST', '127.0.0.1'),
    port: env.int('PORT', 3000, { min: 0, max: 65535 }),
    operatorHost: env.string('OPERATOR_HOST', '127.0.0.1'),
    operatorPort: env.int('OPERATOR_PORT', 9100, { min: 0, max: 65535 }),
    adminMaxFailures: env.int('SWITCH_ADMIN_MAX_FAILURES', 10, { min: 1, max: 1_000_000 }),
    adminLockoutSeconds: env.int('SWITCH_ADMIN_LOCKOUT_SECONDS', 900, { min: 1, max: 86_400 }),
    bodyLimitBytes: env.int('SWITCH_BODY_LIMIT_BYTES', 32 * 1024, { min: 1024, max: 10 * 1024 * 1024 }),
    answerTimeoutMs: env.int('SWITCH_ANSWER_TIMEOUT_MS', 30_000, { min: 100, max: 120_000 }),
    queryTimeoutMs: env.int('SWITCH_QUERY_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
    rateLimitPerMinute: env.int('SWITCH_RATE_LIMIT_PER_MINUTE', 6000, { min: 1, max: 10_000_000 }),
    adminToken,
    logRequests: env.bool('SWITCH_LOG_REQUESTS', true),
    allowPrivateWebhooks: env.bool('SWITCH_WEBHOOK_ALLOW_PRIVATE', false),
  };
}
