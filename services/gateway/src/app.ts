import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import rateLimit from '@fastify/rate-limit';
import { addMoneyKeywords, checkReady, metrics, READY_TIMEOUT_MS, registry, type Bus, type Logger, type RoutingTable, type Store } from '@switch/shared';
import { adminGuard, installAuth } from './auth';
import { installErrorHandling } from './errors';
import { mcpRoutes } from './mcp/http';
import { Operations } from './operations';
import { Replies } from './reply';
import { adminRoutes } from './routes/admin';
import { accountRoutes } from './routes/cuentas';
import { operationRoutes, SwitchKeySecurity } from './routes/operations';
import type { GatewayConfig } from './config';
import { openApiDocument } from './openapi';

export interface GatewayDeps {
  store: Store;
  bus: Bus;
  routing: RoutingTable;
  log: Logger;
  config: GatewayConfig;
  /** Readiness of the process's connections (store and bus); defaults to a store ping. */
  ready?: () => Promise<void>;
}

export interface Gateway {
  /** The merchant port: the merchant API, /docs, /openapi.json and /mcp only. */
  app: FastifyInstance;
  /** The operator port: /metrics, /healthz, /readyz and the admin API (/admin/v1). */
  operator: FastifyInstance;
  replies: Replies;
  close(): Promise<void>;
}

/** The merchant-facing HTTP API: authenticate, validate, claim, hand over to the actor, answer. */
export async function buildGateway(deps: GatewayDeps): Promise<Gateway> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.log as unknown as FastifyBaseLogger,
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: false,
    // A caller's own x-request-id is kept (traceable across systems) when it is a sane token.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(given) ? given : `req_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    },
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    ajv: {
      // Money must be exact JSON: "100" is not a number. Every bad field is reported, not only the first.
      customOptions: { coerceTypes: false, allErrors: true, useDefaults: true, removeAdditional: false, multipleOfPrecision: 8 },
      // Amounts: at most 2 decimals, checked exactly (see shared/src/contracts/monto.ts).
      plugins: [addMoneyKeywords],
    },
  });
  installErrorHandling(app);
  observe(app);
  // Only JSON bodies: without this, fastify's built-in text/plain parser lets a text body through
  // to validation (400) instead of refusing the media type (415).
  app.removeContentTypeParser('text/plain');

  await app.register(swagger, { openapi: openApiDocument(), hideUntagged: false });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const replies = new Replies(deps.bus);
  await replies.start();
  const operations = new Operations({
    store: deps.store,
    bus: deps.bus,
    replies,
    answerTimeoutMs: config.answerTimeoutMs,
    queryTimeoutMs: config.queryTimeoutMs,
  });

  await app.register(async (api) => {
    installAuth(api, deps.store);
    await api.register(rateLimit, {
      hook: 'preHandler',
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => `${request.caller.merchantId}|${request.caller.mode}`,
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        error: 'RATE_LIMITED',
        message: `more than ${context.max} requests a minute; retry after ${Math.ceil(context.ttl / 1000)} s`,
      }),
    });
    operationRoutes(api, operations);
    accountRoutes(api, { routing: deps.routing, replies, readTimeoutMs: config.queryTimeoutMs, store: deps.store });
  });

  // The tool-protocol server with the same key (SPEC 5.5); its tool calls are injected into the API above.
  await app.register(async (mcp) => mcpRoutes(mcp, { store: deps.store, inject: (options) => app.inject(options) }));

  const operator = await buildOperator(deps);
  await app.ready();
  return {
    app,
    operator,
    replies,
    close: async () => {
      await app.close();
      await operator.close();
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
    metrics.httpRequests.inc({ ...labels, status_code: String(reply.statusCode) });
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}

/**
 * The operator listener (`OPERATOR_HOST`:`OPERATOR_PORT`, default 127.0.0.1:9100), apart from the
 * merchant port: metrics, probes and the admin API never share a port with merchants. The admin API
 * is authenticated before routing (an unknown /admin path answers exactly like a bad token) and
 * failed attempts are limited per source address.
 */
async function buildOperator(deps: GatewayDeps): Promise<FastifyInstance> {
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

  operator.get('/metrics', { schema: { hide: true } }, async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  operator.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  operator.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      // Bounded: a paused broker or an unreachable store gets a 503 within a second, not a hung probe.
      await checkReady({ dependencies: deps.ready ?? (() => deps.store.ping()) }, READY_TIMEOUT_MS + 100);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ error: error instanceof Error ? error.message : String(error) }, 'not ready');
      return reply.code(503).send({ error: 'SERVICE_UNAVAILABLE', message: 'a dependency (store or bus) is unreachable' });
    }
  });


  // Every /admin request, routed or not, passes the token check first (no route enumeration).
  const guard = adminGuard(config.adminToken, { maxFailures: config.adminMaxFailures, lockoutMs: config.adminLockoutSeconds * 1000 });
  operator.addHook('onRequest', async (request, reply) => {
    if (isAdminPath(request.url)) return guard(request, reply);
  });
  if (config.adminToken) {
    const adminToken = config.adminToken;
    await operator.register(async (admin) => adminRoutes(admin, { store: deps.store, bus: deps.bus, adminToken, allowPrivateWebhooks: config.allowPrivateWebhooks }));
  }
  await operator.ready();
  return operator;
}
