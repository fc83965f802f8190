import type { Static } from '@sinclair/typebox';
import { ConfigError, readSettings, setting, settings, type EnvSource } from '@switch/platform/config/env';
import { DestinationSettings, destinationPolicy, RotationSettings } from '@switch/platform/config/webhooks';
import type { DestinationPolicy } from '@switch/platform/runtime/destination';
import { InfraSettings, KafkaSettings } from '@switch/platform/config/infra';
import { InstanceSettings, instanceId } from '@switch/platform/config/instance';
import { portSetting } from '@switch/platform/config/ports';
import { ProcessSettings } from '@switch/platform/config/process';
import { RoutingSettings } from '@switch/platform/config/routing';
import { SANDBOX_BANKS, type SandboxBank } from '@switch/core/sandbox';

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
  /** The topics' namespace on the cluster (`SWITCH_KAFKA_NAMESPACE`): the operator API names topics with it. */
  topicNamespace: string;
}

const ms = (env: string, fallback: number, description: string, min: number, max: number) =>
  setting.int(env, fallback, description, { min, max });

/** The gateway's own variables. */
export const GatewaySettings = settings(
  {
    host: setting.string('HOST', '127.0.0.1', 'address of the merchant port: the merchant API, `/docs`, `/openapi.json`, `/mcp` only'),
    port: portSetting('gateway', 'the merchant port'),
    operatorHost: setting.string(
      'OPERATOR_HOST',
      '127.0.0.1',
      'address of the operator port (`/metrics`, `/healthz`, `/readyz`, `/admin/v1`); never exposed to merchants',
    ),
    operatorPort: portSetting('gateway-operator', 'the operator port'),
    adminToken: setting.optionalString(
      'SWITCH_ADMIN_TOKEN',
      'enables the operator API with this bearer token (at least 16 characters); without it every `/admin` request is 401',
    ),
    adminMaxFailures: setting.int(
      'SWITCH_ADMIN_MAX_FAILURES',
      10,
      'bad admin tokens from one source address within the lockout window before 429 `RATE_LIMITED`',
      { min: 1, max: 1_000_000 },
    ),
    adminLockoutSeconds: setting.int('SWITCH_ADMIN_LOCKOUT_SECONDS', 900, 'the admin lockout window', { min: 1, max: 86_400 }),
    bodyLimitBytes: setting.int('SWITCH_BODY_LIMIT_BYTES', 32 * 1024, 'larger bodies → 413', { min: 1024, max: 10 * 1024 * 1024 }),
    answerTimeoutMs: ms('SWITCH_ANSWER_TIMEOUT_MS', 30_000, "wait for an operation's answer before answering DESCONOCIDA", 100, 120_000),
    keyCacheMs: ms(
      'SWITCH_KEY_CACHE_MS',
      10_000,
      "how long each merchant's key digests are remembered (0: read the store every request); the bound on a revocation whose event is lost",
      0,
      300_000,
    ),
    queryTimeoutMs: ms('SWITCH_QUERY_TIMEOUT_MS', 10_000, 'wait for a balance or statement read from the bank', 100, 60_000),
    rateLimitPerMinute: setting.int(
      'SWITCH_RATE_LIMIT_PER_MINUTE',
      6000,
      "requests a minute per valid API key (the deployment's total; each replica enforces its share); over it → 429 `RATE_LIMITED`",
      { min: 1, max: 10_000_000 },
    ),
    failureLimitPerIpPerMinute: setting.int(
      'SWITCH_FAILURE_LIMIT_PER_IP_PER_MINUTE',
      120,
      'requests a minute per source address whose key fails verification; past it 429 until the minute ends (valid keys never refused)',
      { min: 1, max: 10_000_000 },
    ),
    gatewayReplicas: setting.string(
      'SWITCH_GATEWAY_REPLICAS',
      'auto',
      'gateway replicas sharing the traffic (each enforces its share of the limits): a number 1–1000, or `auto` (counted from heartbeats in the store)',
    ),
    connectionTimeoutMs: ms(
      'SWITCH_HTTP_CONNECTION_TIMEOUT_MS',
      60_000,
      'a socket with no traffic for this long is destroyed; must exceed the answer and query waits',
      1_000,
      600_000,
    ),
    requestTimeoutMs: ms(
      'SWITCH_HTTP_REQUEST_TIMEOUT_MS',
      10_000,
      'the whole request must arrive within this, else 408 and close',
      500,
      300_000,
    ),
    headersTimeoutMs: ms(
      'SWITCH_HTTP_HEADERS_TIMEOUT_MS',
      5_000,
      'the request line and headers must arrive within this, else 408 and close; at most the request timeout',
      500,
      300_000,
    ),
    keepAliveTimeoutMs: ms(
      'SWITCH_HTTP_KEEP_ALIVE_TIMEOUT_MS',
      72_000,
      "an idle keep-alive connection closes after this: above the common load balancers' idle timeout (60 s)",
      100,
      600_000,
    ),
    maxConnections: setting.int('SWITCH_HTTP_MAX_CONNECTIONS', 4096, 'open connections per gateway process; further ones are closed', {
      min: 1,
      max: 1_000_000,
    }),
    trustProxy: setting.optionalString(
      'SWITCH_TRUST_PROXY',
      "whose `x-forwarded-for` to believe: a number of proxy hops (1–10) or the proxies' addresses/CIDRs, comma-separated; set it behind a load balancer",
      { defaultText: '`false`' },
    ),
    logRequests: setting.bool('SWITCH_LOG_REQUESTS', true, 'one log line per request (with its request id)'),
    sandboxBanks: setting.optionalString(
      'SWITCH_SANDBOX_BANKS',
      'banks whose test route answers through an emulator: `/bancos` lists their magic amounts in test mode (comma-separated)',
      { defaultText: 'none; the emulated banks in `npm start` and `npm run stack`' },
    ),
  },
  'Gateway',
);

/** Everything the gateway reads besides the infrastructure: what `buildGateway` is given. */
export const GatewayConfigSettings = settings({
  gateway: GatewaySettings,
  instance: InstanceSettings,
  destinations: DestinationSettings,
  rotation: RotationSettings,
  kafka: settings({ namespace: KafkaSettings.properties.namespace }),
});

/** The gateway process: its configuration, the infrastructure, the routing table, logging and shutdown. */
export const GatewayServiceSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  routing: RoutingSettings,
  config: GatewayConfigSettings,
});

function sandboxBanks(raw = ''): SandboxBank[] {
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

function trustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (/^[0-9]+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1) throw new ConfigError('SWITCH_TRUST_PROXY', `${hops} is below the minimum 1`);
    if (hops > 10) throw new ConfigError('SWITCH_TRUST_PROXY', `${hops} is above the maximum 10`);
    return hops;
  }
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

function gatewayReplicas(raw: string): number | 'auto' {
  if (raw === 'auto') return 'auto';
  if (!/^-?[0-9]+$/.test(raw)) throw new ConfigError('SWITCH_GATEWAY_REPLICAS', `"${raw}" is not an integer`);
  const n = Number(raw);
  if (n < 1) throw new ConfigError('SWITCH_GATEWAY_REPLICAS', `${n} is below the minimum 1`);
  if (n > 1000) throw new ConfigError('SWITCH_GATEWAY_REPLICAS', `${n} is above the maximum 1000`);
  return n;
}

export function gatewayConfig(s: Static<typeof GatewayConfigSettings>): GatewayConfig {
  const g = s.gateway;
  if (g.adminToken !== undefined && g.adminToken.length < 16) {
    throw new ConfigError('SWITCH_ADMIN_TOKEN', 'must be at least 16 characters');
  }
  const config: GatewayConfig = {
    host: g.host,
    port: g.port,
    instanceId: instanceId(s.instance, g.port),
    operatorHost: g.operatorHost,
    operatorPort: g.operatorPort,
    adminMaxFailures: g.adminMaxFailures,
    adminLockoutSeconds: g.adminLockoutSeconds,
    bodyLimitBytes: g.bodyLimitBytes,
    answerTimeoutMs: g.answerTimeoutMs,
    keyCacheMs: g.keyCacheMs,
    queryTimeoutMs: g.queryTimeoutMs,
    rateLimitPerMinute: g.rateLimitPerMinute,
    failureLimitPerIpPerMinute: g.failureLimitPerIpPerMinute,
    gatewayReplicas: gatewayReplicas(g.gatewayReplicas),
    connectionTimeoutMs: g.connectionTimeoutMs,
    requestTimeoutMs: g.requestTimeoutMs,
    headersTimeoutMs: g.headersTimeoutMs,
    keepAliveTimeoutMs: g.keepAliveTimeoutMs,
    maxConnections: g.maxConnections,
    trustProxy: trustProxy(g.trustProxy),
    adminToken: g.adminToken,
    logRequests: g.logRequests,
    webhookDestinations: destinationPolicy(s.destinations, [g.port, g.operatorPort]),
    sandboxBanks: sandboxBanks(g.sandboxBanks),
    webhookRotationOverlapSeconds: s.rotation.overlapSeconds,
    topicNamespace: s.kafka.namespace ?? '',
  };
  checkHttpTimeouts(config);
  return config;
}

/** The gateway's configuration from `source` (by default the process environment). */
export function loadGatewayConfig(source?: EnvSource): GatewayConfig {
  return gatewayConfig(readSettings(GatewayConfigSettings, source));
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
