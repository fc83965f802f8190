import { startTracing } from '@switch/shared/dist/telemetry/tracing';
startTracing('panel'); // first line: modules are instrumented as they load
import Fastify, { type FastifyBaseLogger } from 'fastify';
import {
  announcingChanges,
  connectAdapters,
  createLogger,
  envReader,
  listenPort,
  loadInfraConfig,
  loadInstanceId,
  loadRoutingTable,
  onShutdown,
  startHealthServer,
} from '@switch/shared';
import { loadPanelConfig } from './config';
import { panelPlugin } from './panel';
import { startPanelReads } from './reads';

/**
 * The merchant panel as its own process: `node services/panel/dist/main.js`, served at `/panel`
 * (the ingress sends `/panel` here and everything else to the gateway). It needs the store, and the
 * bus for balance and statement reads (the bank connectors answer them, as for the gateway).
 */
async function main(): Promise<void> {
  const env = envReader();
  const log = createLogger('panel');
  const config = loadPanelConfig(env);
  const port = listenPort(env, 'panel-web');
  if (!env.optionalString('SWITCH_PANEL_SESSION_SECRET'))
    log.warn('SWITCH_PANEL_SESSION_SECRET is not set: sessions end with this process and are not shared by replicas');
  const adapters = await connectAdapters(loadInfraConfig(env), 'panel', log);
  // The same bank table and read timeout as the gateway's (switch-config): the same reads, the same answers.
  const accountReads = await startPanelReads({
    bus: adapters.bus,
    store: adapters.store,
    routing: loadRoutingTable(env),
    readTimeoutMs: env.int('SWITCH_QUERY_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
    // Stable across restarts; the port tells apart panels on one host.
    instanceId: `panel-${loadInstanceId(env, port)}`,
  });
  const trustProxy = env.int('SWITCH_TRUST_PROXY', 0, { min: 0, max: 10 });
  const app = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    bodyLimit: 16_384,
    connectionTimeout: env.int('SWITCH_HTTP_CONNECTION_TIMEOUT_MS', 30_000, { min: 500, max: 600_000 }),
    requestTimeout: env.int('SWITCH_HTTP_REQUEST_TIMEOUT_MS', 10_000, { min: 500, max: 300_000 }),
    keepAliveTimeout: env.int('SWITCH_HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, { min: 100, max: 600_000 }),
    // Behind the ingress: the client's address (sign-in throttling) and https (`Secure` cookies).
    trustProxy: trustProxy > 0 ? (_address: string, hop: number) => hop < trustProxy : false,
  });
  await app.register(panelPlugin, {
    prefix: '/panel',
    // Keys revoked and endpoints changed here are announced to the gateways' and notifiers' caches.
    store: announcingChanges(adapters.store, adapters.bus),
    config,
    secrets: adapters.secrets,
    basePath: '/panel',
    apiBaseUrl: env.string('SWITCH_PUBLIC_URL', ''),
    accounts: accountReads.reads,
  });
  await app.listen({ host: env.string('PANEL_HOST', '127.0.0.1'), port });
  const health = await startHealthServer(listenPort(env, 'panel'), env.string('HEALTH_HOST', '127.0.0.1'), adapters.ready);
  log.info('panel ready');
  onShutdown(log, async () => {
    await app.close();
    await accountReads.close();
    await adapters.close();
    health.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`panel failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
