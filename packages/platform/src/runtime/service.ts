import { createServer, type Server } from 'node:http';
import type { Bus } from '../ports/bus';
import type { Store } from '../ports/store';
import type { Logger } from '../telemetry/logger';
import { busConfig, storeConfig, type BusConfig, type InfraSettings, type StoreConfig } from '../config/infra';
import { MemoryBus } from '../adapters/memory/bus';
import { MemoryStore } from '../adapters/memory/store';
import { KafkaBus } from '../adapters/kafka/bus';
import { MongoStore } from '../adapters/mongo/store';
import { labelTopicsIn, registry } from '../telemetry/metrics';
import { checkReady, READY_TIMEOUT_MS } from './readiness';
import { secretBox, type SecretBox } from './secret-box';

export interface InfraConfig {
  bus: BusConfig;
  store: StoreConfig;
  /**
   * The secrets key (`SWITCH_SECRETS_KEY`, previous keys `SWITCH_SECRETS_PREVIOUS_KEYS`): required over
   * MongoDB, whose records outlive the process; ephemeral over the in-memory store.
   */
  secrets: SecretBox;
}

/**
 * Which bus and store a service process uses. A service started on its own needs Kafka and MongoDB
 * (`SWITCH_BUS=kafka`, `SWITCH_STORE=mongo`, the defaults); memory adapters only make sense when all
 * services share one process (the embedded switch).
 */
export function infraConfig(s: InfraSettings): InfraConfig {
  const bus = busConfig(s.bus);
  const store = storeConfig(s.store);
  return { bus, store, secrets: secretBox(s.secrets, store.kind === 'mongo') };
}

export interface Adapters {
  bus: Bus;
  store: Store;
  /** Seals and opens what the store keeps sealed (packages/platform/src/runtime/secret-box.ts). */
  secrets: SecretBox;
  /** Resolves when both connections answer (readiness). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export async function connectAdapters(config: InfraConfig, clientId: string, log: Logger): Promise<Adapters> {
  const store: Store =
    config.store.kind === 'mongo'
      ? await MongoStore.connect({ url: config.store.url, database: config.store.database })
      : new MemoryStore();
  if (store instanceof MongoStore) log.info('store connected');
  const { bus: b } = config;
  if (b.kind === 'kafka') labelTopicsIn(b.namespace);
  const bus: Bus & { ping?: () => Promise<void> } =
    b.kind === 'kafka'
      ? new KafkaBus({
          brokers: b.brokers,
          schemaRegistryUrl: b.schemaRegistryUrl,
          clientId,
          // The bus logs each retried handler failure at warn (no payloads) and kafkajs' own lines.
          logger: log,
          sessionTimeoutMs: b.sessionTimeoutMs,
          namespace: b.namespace,
          partitions: b.partitions,
        })
      : new MemoryBus({ logger: log });
  return {
    bus,
    store,
    secrets: config.secrets,
    // Side by side and each bounded: answers within a second even while a dependency hangs.
    ready: () => checkReady({ store: () => store.ping(), bus: async () => bus.ping?.() }),
    close: async () => {
      await bus.close();
      await store.close();
    },
  };
}

/**
 * `/healthz` (the process lives), `/readyz` (its connections answer) and `/metrics` (Prometheus) for services without an
 * HTTP API of their own, on `HEALTH_PORT`.
 */
export function startHealthServer(
  port: number,
  host: string,
  ready: () => Promise<void>,
  extra: Record<string, () => unknown> = {},
): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/healthz') return send(200, { status: 'ok' });
    if (req.url === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': registry.contentType });
          res.end(text);
        },
        (e: unknown) => send(500, { error: 'INTERNAL', message: String(e) }),
      );
      return;
    }
    if (req.url === '/readyz') {
      // Bounded here too: `ready` may be any function, and a probe must get an answer (503), not a hang.
      checkReady({ dependencies: ready }, READY_TIMEOUT_MS + 100).then(
        () => send(200, { status: 'ready' }),
        (e: unknown) => send(503, { error: 'SERVICE_UNAVAILABLE', message: e instanceof Error ? e.message : String(e) }),
      );
      return;
    }
    const route = req.url ? extra[req.url] : undefined;
    if (route) {
      // A route may read the store (bank-sim's ledger): its answer may come later, or fail.
      Promise.resolve()
        .then(route)
        .then(
          (body) => send(200, body),
          (e: unknown) => send(503, { error: 'SERVICE_UNAVAILABLE', message: e instanceof Error ? e.message : String(e) }),
        );
      return;
    }
    send(404, { error: 'NOT_FOUND' });
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

/**
 * Graceful shutdown on SIGTERM/SIGINT: `stop` stops taking work and lets in-flight work finish and
 * commit; if that takes longer than `limitMs` (`SWITCH_SHUTDOWN_MS`) the process exits anyway (non-zero).
 */
export function onShutdown(log: Logger, stop: () => Promise<void>, limitMs: number): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error({ limitMs }, 'shutdown took too long, exiting');
      process.exit(1);
    }, limitMs);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGINT', () => handler('SIGINT'));
}
