import { envReader, type EnvReader } from '@switch/shared';

export interface GatewayConfig {
  host: string;
  port: number;
  bodyLimitBytes: number;
  answerTimeoutMs: number;
  queryTimeoutMs: number;
  rateLimitPerMinute: number;
  adminToken: string | undefined;
  logRequests: boolean;
}

export function loadGatewayConfig(env: EnvReader = envReader()): GatewayConfig {
  const adminToken = env.optionalString('SWITCH_ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new Error('configuration SWITCH_ADMIN_TOKEN: must be at least 16 characters');
  }
  return {
    host: env.string('HOST', '127.0.0.1'),
    port: env.int('PORT', 3000, { min: 0, max: 65535 }),
    bodyLimitBytes: env.int('SWITCH_BODY_LIMIT_BYTES', 32 * 1024, { min: 1024, max: 10 * 1024 * 1024 }),
    answerTimeoutMs: env.int('SWITCH_ANSWER_TIMEOUT_MS', 30_000, { min: 100, max: 120_000 }),
    queryTimeoutMs: env.int('SWITCH_QUERY_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
    rateLimitPerMinute: env.int('SWITCH_RATE_LIMIT_PER_MINUTE', 6000, { min: 1, max: 10_000_000 }),
    adminToken,
    logRequests: env.bool('SWITCH_LOG_REQUESTS', true),
  };
}
