import {
  ConfigError,
  envReader,
  listenPort,
  loadDestinationPolicy,
  loadInstanceId,
  loadRotationOverlapSeconds,
  SANDBOX_BANKS,
  type DestinationPolicy,
  type EnvReader,
  type SandboxBank,
} from '@switch/shared';

export interface GatewayConfig {
  host: string;
  port: number;
  /**
   * This gateway's stable id (`SWITCH_INSTANCE_ID`, in Kubernetes the pod name; default the host name
   * and the port): the reply address on its commands, and the name of its own consumer groups.
   */
  instanceId: string;
  /** The operator listener: /metrics, /healthz, /readyz, /admin/v1 (never exposed to merchants). */
  operatorHost: string;
  operatorPort: number;
  /** Failed admin-token attempts allowed per source address within `adminLockoutSeconds`; then 429. */
  adminMaxFailures: number;
  adminLockoutSeconds: number;
  bodyLimitBytes: number;
  answerTimeoutMs: number;
  /** How long a merchant's key hashes are remembered (0: every request reads the key store); the bound on revocation if its event is lost. */
  keyCacheMs: number;
  queryTimeoutMs: number;
  /** Requests a minute per valid key (the whole deployment's figure; each replica enforces its share). */
  rateLimitPerMinute: number;
  /** Requests a minute per source address whose key fails verification; past it they are 429, valid keys unaffected. */
  failureLimitPerIpPerMinute: number;
  /**
   * Gateway replicas sharing the traffic: each enforces `limit / replicas` (docs/decisions/0008-rate-limits-across-replicas.md).
   * `auto`: counted from the gateways' heartbeats in the store; a number fixes it.
   */
  gatewayReplicas: number | 'auto';
  /** Socket inactivity (Node `server.timeout`): longer than the longest answer wait. */
  connectionTimeoutMs: number;
  /** The whole request (headers and body) must arrive within this (Node `requestTimeout`). */
  requestTimeoutMs: number;
  /** The headers must arrive within this (Node `headersTimeout`). */
  headersTimeoutMs: number;
  /**
   * An idle keep-alive connection is closed after this (Node `keepAliveTimeout`). Above the common
   * load balancers' idle timeout (60 s), as Fastify's own default: a pooled client keeps its
   * connections instead of reopening them in bursts (docs/decisions/0009-http-edge-timeouts-and-keep-alive.md).
   */
  keepAliveTimeoutMs: number;
  /** Open connections per process; the next ones are closed at once (Node `maxConnections`). */
  maxConnections: number;
  /**
   * Which proxies' `x-forwarded-for` to believe for the client's address (fastify `trustProxy`):
   * false, a number of hops, or addresses/CIDRs. Per-address throttling needs the real address.
   */
  trustProxy: boolean | number | string[];
  adminToken: string | undefined;
  logRequests: boolean;
  /**
   * Which webhook destinations may be registered, test and live mode alike (the notifier's rule):
   * `SWITCH_WEBHOOK_ALLOW_LOOPBACK`, `SWITCH_WEBHOOK_ALLOW_PRIVATE`, the switch's own ports.
   */
  webhookDestinations: DestinationPolicy;
  /**
   * Banks whose test route answers through their emulator here, so the sandbox's magic amounts hold
   * for them and `/bancos` lists those amounts in test mode (`SWITCH_SANDBOX_BANKS`, default none).
   */
  sandboxBanks: SandboxBank[];
  /** How long a rotated webhook secret keeps signing beside the new one: `SWITCH_WEBHOOK_ROTATION_OVERLAP_S`. */
  webhookRotationOverlapSeconds: number;
}

function readSandboxBanks(env: EnvReader): SandboxBank[] {
  const raw = env.optionalString('SWITCH_SANDBOX_BANKS') ?? '';
  const banks = raw
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  for (const b of banks) {
    if (!(SANDBOX_BANKS as readonly string[]).includes(b))
      throw new ConfigError('SWITCH_SANDBOX_BANKS', `"${b}" has no emulator sandbox (one of ${SANDBOX_BANKS.join(', ')})`);
  }
  return [...new Set(banks)] as SandboxBank[];
}

function readTrustProxy(env: EnvReader): boolean | number | string[] {
  const raw = env.optionalString('SWITCH_TRUST_PROXY');
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (/^[0-9]+$/.test(raw)) return env.int('SWITCH_TRUST_PROXY', 0, { min: 1, max: 10 });
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const e of entries) {
    if (!/^[0-9a-fA-F:.]+(\/[0-9]{1,3})?$/.test(e))
      throw new ConfigError('SWITCH_TRUST_PROXY', `"${e}" is not an address or CIDR (or give a number of hops)`);
  }
  return entries;
}

export function loadGatewayConfig(env: EnvReader = envReader()): GatewayConfig {
  const adminToken = env.optionalString('SWITCH_ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new Error('configuration SWITCH_ADMIN_TOKEN: must be at least 16 characters');
  }
  const port = listenPort(env, 'gateway');
  const config: GatewayConfig = {
    host: env.string('HOST', '127.0.0.1'),
    port,
    instanceId: loadInstanceId(env, port),
    operatorHost: env.string('OPERATOR_HOST', '127.0.0.1'),
    operatorPort: listenPort(env, 'gateway-operator'),
    adminMaxFailures: env.int('SWITCH_ADMIN_MAX_FAILURES', 10, { min: 1, max: 1_000_000 }),
    adminLockoutSeconds: env.int('SWITCH_ADMIN_LOCKOUT_SECONDS', 900, { min: 1, max: 86_400 }),
    bodyLimitBytes: env.int('SWITCH_BODY_LIMIT_BYTES', 32 * 1024, { min: 1024, max: 10 * 1024 * 1024 }),
    answerTimeoutMs: env.int('SWITCH_ANSWER_TIMEOUT_MS', 30_000, { min: 100, max: 120_000 }),
    keyCacheMs: env.int('SWITCH_KEY_CACHE_MS', 10_000, { min: 0, max: 300_000 }),
    queryTimeoutMs: env.int('SWITCH_QUERY_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
    rateLimitPerMinute: env.int('SWITCH_RATE_LIMIT_PER_MINUTE', 6000, { min: 1, max: 10_000_000 }),
    failureLimitPerIpPerMinute: env.int('SWITCH_FAILURE_LIMIT_PER_IP_PER_MINUTE', 120, { min: 1, max: 10_000_000 }),
    gatewayReplicas:
      env.optionalString('SWITCH_GATEWAY_REPLICAS') === 'auto' || env.optionalString('SWITCH_GATEWAY_REPLICAS') === undefined
        ? 'auto'
        : env.int('SWITCH_GATEWAY_REPLICAS', 1, { min: 1, max: 1000 }),
    connectionTimeoutMs: env.int('SWITCH_HTTP_CONNECTION_TIMEOUT_MS', 60_000, { min: 1_000, max: 600_000 }),
    requestTimeoutMs: env.int('SWITCH_HTTP_REQUEST_TIMEOUT_MS', 10_000, { min: 500, max: 300_000 }),
    headersTimeoutMs: env.int('SWITCH_HTTP_HEADERS_TIMEOUT_MS', 5_000, { min: 500, max: 300_000 }),
    keepAliveTimeoutMs: env.int('SWITCH_HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, { min: 100, max: 600_000 }),
    maxConnections: env.int('SWITCH_HTTP_MAX_CONNECTIONS', 4096, { min: 1, max: 1_000_000 }),
    trustProxy: readTrustProxy(env),
    adminToken,
    logRequests: env.bool('SWITCH_LOG_REQUESTS', true),
    webhookDestinations: loadDestinationPolicy(env),
    sandboxBanks: readSandboxBanks(env),
    webhookRotationOverlapSeconds: loadRotationOverlapSeconds(env),
  };
  checkHttpTimeouts(config);
  return config;
}

/** The HTTP bounds must nest: headers within the request, and the socket outliving an answer wait. */
export function checkHttpTimeouts(
  c: Pick<GatewayConfig, 'headersTimeoutMs' | 'requestTimeoutMs' | 'connectionTimeoutMs' | 'answerTimeoutMs' | 'queryTimeoutMs'>,
): void {
  if (c.headersTimeoutMs > c.requestTimeoutMs) {
    throw new ConfigError(
      'SWITCH_HTTP_HEADERS_TIMEOUT_MS',
      `${c.headersTimeoutMs} must not exceed SWITCH_HTTP_REQUEST_TIMEOUT_MS (${c.requestTimeoutMs})`,
    );
  }
  const longestWait = Math.max(c.answerTimeoutMs, c.queryTimeoutMs);
  if (c.connectionTimeoutMs <= longestWait) {
    throw new ConfigError(
      'SWITCH_HTTP_CONNECTION_TIMEOUT_MS',
      `${c.connectionTimeoutMs} must exceed the longest answer wait (SWITCH_ANSWER_TIMEOUT_MS/SWITCH_QUERY_TIMEOUT_MS, ${longestWait}): an answer would be cut`,
    );
  }
}
