import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
startTracing('panel', loadTracingConfig()); // first line: modules are instrumented as they load
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { announcingChanges } from '@switch/platform/runtime/merchant-changes';
import { connectAdapters, infraConfig, onShutdown, startHealthServer } from '@switch/platform/runtime/service';
import { createLogger } from '@switch/platform/telemetry/logger';
import { instanceId } from '@switch/platform/config/instance';
import { readSettings } from '@switch/platform/config/env';
import { routingTable } from '@switch/platform/config/routing';
import { PanelServiceSettings, panelConfig } from './config';
import { panelPlugin } from './panel';
import { startPanelReads } from './reads';
import { startOverviewFold } from './overview-fold';

/**
 * The merchant panel as its own process: `node services/panel/dist/main.js`, served at `/panel`
 * (the ingress sends `/panel` here and everything else to the gateway). It needs the store, and the
 * bus for balance and statement reads (the bank connectors answer them, as for the gateway).
 */
async function main(): Promise<void> {
  const settings = readSettings(PanelServiceSettings);
  const { server } = settings;
  const port = server.port;
  const config = panelConfig(settings.config, [port, settings.health.port]);
  const log = createLogger('panel', settings.process.logLevel);
  if (!settings.config.panel.sessionSecret)
    log.warn('SWITCH_PANEL_SESSION_SECRET is not set: sessions end with this process and are not shared by replicas');
  const adapters = await connectAdapters(infraConfig(settings.infra), 'panel', log, settings.process);
  // Stable across restarts; the port tells apart panels on one host.
  const replica = `panel-${instanceId(settings.instance, port)}`;
  // The same bank table and read timeout as the gateway's (switch-config): the same reads, the same answers.
  const accountReads = await startPanelReads({
    bus: adapters.bus,
    store: adapters.store,
    routing: routingTable(settings.routing),
    readTimeoutMs: server.queryTimeoutMs,
    instanceId: replica,
  });
  const trustProxy = server.trustProxy;
  const app = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    bodyLimit: 16_384,
    connectionTimeout: server.connectionTimeoutMs,
    requestTimeout: server.requestTimeoutMs,
    keepAliveTimeout: server.keepAliveTimeoutMs,
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
    apiBaseUrl: settings.config.panel.publicUrl,
    accounts: accountReads.reads,
  });
  await app.listen({ host: server.host, port });
  const health = await startHealthServer(settings.health.port, settings.health.host, adapters);
  // The overview's hour summaries, folded by one panel replica at a time (decision 0215): the panel
  // is their only reader, and the fold is a read of the same hours its views read.
  const fold = startOverviewFold({ store: adapters.store, log, instanceId: replica });
  log.info('panel ready');
  onShutdown(
    log,
    async () => {
      await app.close();
      await fold.stop();
      await accountReads.close();
      await adapters.close();
      health.close();
    },
    adapters.timings.shutdownMs,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`panel failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
