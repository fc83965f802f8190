import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { addMoneyKeywords } from '@switch/core/contracts/fields';
import { announcingChanges } from '@switch/platform/runtime/merchant-changes';
import { HTTP_API_SCHEMAS } from '@switch/core/contracts/api';
import { checkReady, READY_TIMEOUT_MS } from '@switch/platform/runtime/readiness';
import { metrics, registry } from '@switch/platform/telemetry/metrics';
import { type AccountReads, accountReads } from '@switch/platform/runtime/account-reads';
import type { Bus } from '@switch/platform/ports/bus';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { RoutingTable } from '@switch/core/routing';
import type { SecretBox } from '@switch/platform/runtime/secret-box';
import type { GatewayStore } from './ports';
import { adminGuard, installAuth } from './auth';
import { KeyCache } from './key-cache';
import { bodyUnread, clientErrorHandler, frameworkErrors, installErrorHandling, sendError } from './errors';
import { BodyRefused, parseJsonBody } from './json';
import { INJECTED_ADDRESS, Throttle } from './throttle';
import { mcpRoutes } from './mcp/http';
import { Operations } from './operations';
import { gatewayGroups, Replies } from './reply';
import { adminRoutes } from './routes/admin';
import { accountRoutes } from './routes/cuentas';
import { paymentRoutes, sandboxBooking, type SandboxPayments } from './routes/cobros';
import type { SandboxBooking } from '@switch/usecases/payment-verification';
import { operationRoutes, SwitchKeySecurity } from './routes/operations';
import { transactionRoutes } from './routes/transacciones';
import { expectedPaymentRoutes } from './routes/esperados';
import {
  EXPECTED_MATCHER_INTERVAL_MS,
  EXPECTED_MATCHER_LEASE_MS,
  startExpectedMatcher,
  type MatcherLoop,
} from '@switch/usecases/expected-matcher';
import { webhookRoutes } from './routes/webhooks';
import type { GatewayConfig } from './config';
import { openApiDocument, publishedDocument } from './openapi';
import { baseUrlOf, docsPage } from './docs-page';
import { withExampleOperations } from './sandbox';

/** Believes the nearest `hops` proxies (fastify's numeric trustProxy, as a function for its types). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** How often a gateway records that it is alive, and how long a silent one still counts. */
export const GATEWAY_BEAT_MS = 5_000;
export const GATEWAY_BEAT_WINDOW_MS = 15_000;

export interface GatewayDeps {
  store: GatewayStore;
  bus: Bus;
  routing: RoutingTable;
  log: Logger;
  config: GatewayConfig;
  /**
   * Seals what must not be kept in clear (webhook secrets as they are issued, a payer's OTP before the
   * command leaves the gateway) under the key kept outside the database.
   */
  secrets: SecretBox;
  /** Extra encapsulated plugins on the merchant port, each under its prefix (the embedded panel). */
  plugins?: {
    prefix: string;
    register: (
      app: FastifyInstance,
      gateway: { accounts: AccountReads; store: GatewayStore; secrets: SecretBox; sandbox: SandboxBooking },
    ) => Promise<void>;
  }[];
  /** Test mode: where `POST /sandbox/pago-movil-entrante` books a payer's payment (the embedded switch's banks). */
  sandboxPayments?: SandboxPayments;
  /** Readiness of the process's connections (store and bus), held through a short blip; defaults to a store ping. */
  ready?: () => Promise<void>;
  /** Liveness: why the process should be restarted (a dead consumer, a stalled event loop); default always live. */
  live?: () => string[];
}

export interface Gateway {
  /** The merchant port: the merchant API, /docs, /openapi.json and /mcp only. */
  app: FastifyInstance;
  /** The operator port: /metrics, /healthz, /readyz and the admin API (/admin/v1). */
  operator: FastifyInstance;
  replies: Replies;
  /** The background matcher of expected payments: every gateway runs it, one at a time holds its lease. */
  expected: MatcherLoop;
  close(): Promise<void>;
}

/** The merchant-facing HTTP API: authenticate, validate, claim, hand over to the actor, answer. */
export async function buildGateway(given: GatewayDeps): Promise<Gateway> {
  const { config } = given;
  const keys = new KeyCache(given.store, config.keyCacheMs);
  // Keys and endpoints changed through any route here (the panel's included) are announced to every
  // gateway and notifier, and forgotten by this gateway's key cache at once.
  const deps = {
    ...given,
    store: announcingChanges(given.store, given.bus, (merchantId, change) => {
      if (change === 'keys') keys.forgetMerchant(merchantId);
    }),
  };
  const app = Fastify({
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    // Bounded time per connection and request (docs/configuration.md "HTTP edge"): a client that
    // sends its headers or body slowly is cut off, whatever it announced.
    connectionTimeout: config.connectionTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      // How often Node looks for requests past their time: a fraction of the shortest bound.
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(config.headersTimeoutMs / 4))),
    },
    clientErrorHandler,
    frameworkErrors,
    // Behind a load balancer the client's address is in x-forwarded-for (per-address throttling).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    requestIdHeader: false,
    // A caller's own x-request-id is kept (traceable across systems) when it is a sane token.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(given)
        ? given
        : `req_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    },
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    ajv: {
      // Money must be exact JSON: "100" is not a number. Every bad field is reported, not only the first.
      customOptions: { coerceTypes: false, allErrors: true, useDefaults: true, removeAdditional: false, multipleOfPrecision: 8 },
      // Amounts: at most 2 decimals, checked exactly (see packages/core/src/contracts/fields.ts).
      plugins: [addMoneyKeywords],
    },
  });
  // Connections beyond the cap are closed as they arrive (per process; docs/configuration.md).
  app.server.maxConnections = config.maxConnections;
  installErrorHandling(app);
  // Throttling is decided where the key is verified (installAuth, the MCP route): a valid key spends
  // its own request budget only (docs/decisions/0007-throttling-by-key-verdict.md).
  const throttle = new Throttle({
    requestsPerMinute: config.rateLimitPerMinute,
    failuresPerIpPerMinute: config.failureLimitPerIpPerMinute,
    replicas: config.gatewayReplicas === 'auto' ? 1 : config.gatewayReplicas,
  });
  app.addHook('onSend', async (request, reply) => {
    // Answers are about money and keys: no cache (shared or private) may keep one.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    // An error answered before the announced body was read closes the connection: the rest of the
    // body is never read (a 401 to a slow body does not hold the socket).
    if (reply.statusCode >= 400 && bodyUnread(request)) reply.header('connection', 'close');
  });
  observe(app);
  // Only JSON bodies: without this, fastify's built-in text/plain parser lets a text body through
  // to validation (400) instead of refusing the media type (415).
  app.removeContentTypeParser('text/plain');
  // JSON bodies: UTF-8 only, bounded nesting, no duplicate keys, no lone surrogates in strings
  // (services/gateway/src/json.ts); a refusal names the field.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    try {
      done(null, parseJsonBody(raw as Buffer, request.headers['content-type']));
    } catch (error) {
      done(error instanceof BodyRefused ? error : (error as Error), undefined);
    }
  });

  // The contracts' named schemas (packages/core/src/contracts/api.ts), in their HTTP form, become the document's components.
  for (const [name, schema] of Object.entries(HTTP_API_SCHEMAS)) app.addSchema({ ...schema, $id: name });
  await app.register(swagger, {
    openapi: openApiDocument(),
    hideUntagged: false,
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, docsPage());
  // The server entry is where this request reached the switch.
  app.get('/openapi.json', { schema: { hide: true } }, async (request) =>
    publishedDocument(app.swagger(), { baseUrl: baseUrlOf(request) }),
  );

  const replies = new Replies(deps.bus, config.instanceId);
  await replies.start();
  await keys.follow(deps.bus, gatewayGroups(config.instanceId).changes);

  // Each replica enforces its share of the deployment's limits: with `auto`, the share follows the
  // gateways alive (a heartbeat in the store every few seconds, off the request path).
  let beating: NodeJS.Timeout | undefined;
  if (config.gatewayReplicas === 'auto') {
    const beat = async () => {
      try {
        throttle.setReplicas(await deps.store.gatewayReplicas.beat(replies.gatewayId, new Date().toISOString(), GATEWAY_BEAT_WINDOW_MS));
      } catch (error) {
        // The last known share stays; the store's outage is reported by /readyz.
        deps.log.warn({ error: error instanceof Error ? error.message : String(error) }, 'gateway heartbeat failed');
      }
    };
    // Not awaited: an unreachable store must not hold the gateway's start (the share starts at 1).
    void beat();
    beating = setInterval(() => void beat(), GATEWAY_BEAT_MS);
    beating.unref();
  }
  const operations = new Operations({
    store: deps.store,
    bus: deps.bus,
    replies,
    answerTimeoutMs: config.answerTimeoutMs,
    queryTimeoutMs: config.queryTimeoutMs,
    secrets: deps.secrets,
  });

  let accounts: AccountReads | undefined;
  await app.register(async (api) => {
    installAuth(api, keys, throttle);
    operationRoutes(api, withExampleOperations(operations));
    accounts = accountRoutes(api, {
      routing: deps.routing,
      replies,
      readTimeoutMs: config.queryTimeoutMs,
      store: deps.store,
      sandboxBanks: config.sandboxBanks,
    });
    paymentRoutes(api, {
      reads: accounts,
      store: deps.store,
      routing: deps.routing,
      ...(deps.sandboxPayments ? { sandboxPayments: deps.sandboxPayments } : {}),
    });
    transactionRoutes(api, { store: deps.store });
    expectedPaymentRoutes(api, { store: deps.store });
    webhookRoutes(api, {
      store: deps.store,
      rules: {
        destinations: config.webhookDestinations,
        rotationOverlapSeconds: config.webhookRotationOverlapSeconds,
        secrets: deps.secrets,
      },
    });
  });

  // Other parts served on the merchant port (the merchant panel at /panel in the embedded switch).
  const reads = accounts!;
  const sandbox = sandboxBooking(deps.routing, deps.sandboxPayments);
  for (const plugin of deps.plugins ?? [])
    await app.register(async (child) => plugin.register(child, { accounts: reads, store: deps.store, secrets: deps.secrets, sandbox }), {
      prefix: plugin.prefix,
    });

  // The tool-protocol server with the same key (SPEC 5.5); its tool calls are injected into the API above.
  await app.register(async (mcp) =>
    mcpRoutes(mcp, { keys, throttle, inject: (options) => app.inject({ ...options, remoteAddress: INJECTED_ADDRESS }) }),
  );

  const operator = await buildOperator(deps, keys);
  await app.ready();
  // Expected payments are matched where bank reads are answered (this gateway's reply address);
  // replicas share the work through the lease, one matching at a time (docs/decisions/0199-expected-payments-matcher-cursor-and-lease.md).
  const expected = startExpectedMatcher(
    {
      store: given.store,
      creditos: accountReads({ routing: deps.routing, store: given.store, client: replies.reads, readTimeoutMs: config.queryTimeoutMs })
        .creditos,
      holder: replies.gatewayId,
      leaseMs: EXPECTED_MATCHER_LEASE_MS,
      log: deps.log,
    },
    EXPECTED_MATCHER_INTERVAL_MS,
  );
  return {
    app,
    operator,
    replies,
    expected,
    close: async () => {
      await expected.stop();
      clearInterval(beating);
      await app.close();
      await operator.close();
      await keys.stop();
      await replies.stop();
    },
  };
}
export { SwitchKeySecurity };

/** Whether a raw URL names the admin API in any spelling the router could match (%-encoded, //, case). */
export function isAdminPath(url: string): boolean {
  let path = url.split('?')[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // not decodable: judged as written
  }
  path = path.replace(/\/{2,}/g, '/').toLowerCase();
  return path === '/admin' || path.startsWith('/admin/') || path.startsWith('/admin;');
}

/** Request ids and the HTTP series on a listener. */
function observe(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL: label values stay a bounded set.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { service: 'gateway', route, method: request.method };
    metrics.httpRequests.inc({ service: 'gateway', route, method: request.method, status_code: String(reply.statusCode) });
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}

/**
 * The operator listener (`OPERATOR_HOST`:`OPERATOR_PORT`, default 127.0.0.1:9100), apart from the
 * merchant port: metrics, probes and the admin API never share a port with merchants. The admin API
 * is authenticated before routing (an unknown /admin path answers exactly like a bad token) and
 * failed attempts are limited per source address.
 */
async function buildOperator(deps: GatewayDeps, keys: KeyCache): Promise<FastifyInstance> {
  const { config } = deps;
  const operator = Fastify({
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => `req_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    ajv: { customOptions: { coerceTypes: false, allErrors: true, useDefaults: true, removeAdditional: false } },
  });
  installErrorHandling(operator);
  observe(operator);
  operator.removeContentTypeParser('text/plain');

  operator.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
  operator.get('/healthz', { schema: { hide: true } }, async (request, reply) => {
    const problems = deps.live?.() ?? [];
    if (problems.length === 0) return { status: 'ok' };
    request.log.error({ problems }, 'not live');
    return sendError(reply, 'SERVICE_UNAVAILABLE', { message: problems.join('; ') });
  });
  operator.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      // Bounded: a paused broker or an unreachable store gets a 503 within a second, not a hung probe.
      await checkReady({ dependencies: deps.ready ?? (() => deps.store.ping()) }, READY_TIMEOUT_MS + 100);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ error: error instanceof Error ? error.message : String(error) }, 'not ready');
      return sendError(reply, 'SERVICE_UNAVAILABLE', { message: 'a dependency (store or bus) is unreachable' });
    }
  });

  // Every /admin request, routed or not, passes the token check first (no route enumeration).
  const guard = adminGuard(config.adminToken, { maxFailures: config.adminMaxFailures, lockoutMs: config.adminLockoutSeconds * 1000 });
  operator.addHook('onRequest', async (request, reply) => {
    if (isAdminPath(request.url)) return guard(request, reply);
  });
  if (config.adminToken) {
    const adminToken = config.adminToken;
    await operator.register(async (admin) =>
      adminRoutes(admin, {
        store: deps.store,
        bus: deps.bus,
        adminToken,
        webhookDestinations: config.webhookDestinations,
        keys,
        secrets: deps.secrets,
        topicNamespace: config.topicNamespace,
      }),
    );
  }
  await operator.ready();
  return operator;
}
