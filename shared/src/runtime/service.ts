import { createServer, type Server } from 'node:http';
import type { Bus } from '../ports/bus';
import type { Store } from '../ports/store';
import type { Logger } from '../telemetry/logger';
import { envReader, ConfigError, type EnvReader } from '../config/env';
import { MemoryBus } from '../adapters/memory/bus';
import { MemoryStore } from '../adapters/memory/store';
import { KafkaBus } from '../adapters/kafka/bus';
import { MongoStore } from '../adapters/mongo/store';
import { registry } from '../telemetry/metrics';
import { checkReady, READY_TIMEOUT_MS } from './readiness';
import { loadSecretBox, type SecretBox } from './secret-box';

export interface InfraConfig {
  bus:
    | {
        kind: 'kafka';
        brokers: string[];
        schemaRegistryUrl: string;
        /** How soon a member that died without leaving (kill -9) loses its partitions. Default 6000 ms. */
        sessionTimeoutMs?: number;
      }
    | { kind: 'memory' };
  store: { kind: 'mongo'; url: string; database: string } | { kind: 'memory' };
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
export function loadInfraConfig(env: EnvReader = envReader()): InfraConfig {
  const busKind = env.oneOf('SWITCH_BUS', ['kafka', 'memory'] as const, 'kafka');
  const storeKind = env.oneOf('SWITCH_STORE', ['mongo', 'memory'] as const, 'mongo');
  const required = (name: string) => {
    const v = env.optionalString(name);
    if (!v) throw new ConfigError(name, 'is required (or run all services in one process with `npm start`)');
    return v;
  };
  return {
    bus:
      busKind === 'kafka'
        ? {
            kind: 'kafka',
            brokers: required('KAFKA_BROKERS')
              .split(',')
              .map((b) => b.trim())
              .filter(Boolean),
            schemaRegistryUrl: required('SCHEMA_REGISTRY_URL'),
            // 6 s is the broker's usual minimum (group.min.session.timeout.ms); the broker refuses less.
            sessionTimeoutMs: env.int('SWITCH_KAFKA_SESSION_TIMEOUT_MS', 6_000, { min: 1_000, max: 300_000 }),
          }
        : { kind: 'memory' },
    store:
      storeKind === 'mongo'
        ? {
            kind: 'mongo',
            url: required('MONGO_URL'),
            database: env.string('MONGO_DATABASE', 'switch'),
          }
        : { kind: 'memory' },
    secrets: loadSecretBox(env, storeKind === 'mongo'),
  };
}

export interface Adapters {
  bus: Bus;
  store: Store;
  /** Seals and opens what the store keeps sealed (shared/src/runtime/secret-box.ts). */
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
  const bus: Bus & { ping?: () => Promise<void> } =
    b.kind === 'kafka'
      ? new KafkaBus({
          brokers: b.brokers,
          schemaRegistryUrl: b.schemaRegistryUrl,
          clientId,
          // The bus logs each retried handler failure at warn (no payloads) and kafkajs' own lines.
          logger: log,
          ...(b.sessionTimeoutMs !== undefined ? { sessionTimeoutMs: b.sessionTimeoutMs } : {}),
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
    if (route) return send(200, route());
    send(404, { error: 'NOT_FOUND' });
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

/** How long a graceful stop may take (`SWITCH_SHUTDOWN_MS`); a pod's grace period must be longer. */
export function shutdownLimitMs(env: EnvReader): number {
  return env.int('SWITCH_SHUTDOWN_MS', 20_000, { min: 100, max: 600_000 });
}

/**
 * Graceful shutdown on SIGTERM/SIGINT: `stop` stops taking work and lets in-flight work finish and
 * commit; if that takes longer than `SWITCH_SHUTDOWN_MS` the process exits anyway (non-zero).
 */
export function onShutdown(log: Logger, stop: () => Promise<void>, env: EnvReader = envReader()): void {
  const limitMs = shutdownLimitMs(env);
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
