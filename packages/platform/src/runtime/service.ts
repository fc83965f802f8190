import { createServer, type Server } from 'node:http';
import type { Bus } from '../ports/bus';
import type { Store } from '../ports/store';
import type { Logger } from '../telemetry/logger';
import {
  busConfig,
  storeConfig,
  type BusConfig,
  type InfraSettings,
  type StoreConfig,
  DEFAULT_SESSION_TIMEOUT_MS,
  secretBox,
} from '../config/infra';
import { MemoryBus } from '../adapters/memory/bus';
import { MemoryStore } from '../adapters/memory/store';
import { KafkaBus } from '../adapters/kafka/bus';
import { MongoStore } from '../adapters/mongo/store';
import { labelTopicsIn, registry } from '../telemetry/metrics';
import { checkReady, READY_TIMEOUT_MS, steadyReadiness } from './readiness';
import { processLiveness } from './liveness';
import { DEFAULT_READY_GRACE_MS, DEFAULT_SHUTDOWN_MS, DEFAULT_STALL_MS } from '../config/process';
import { deriveTimings, type Timings } from '../config/timings';
import type { SecretBox } from './secret-box';
import { switchTopics } from '@switch/core/contracts/topics';

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

/** What `/healthz` and `/readyz` ask (docs/decisions/0177-liveness-and-steady-readiness.md). */
export interface Probes {
  /** Resolves while ready: both connections answer, or stopped answering less than the grace ago. */
  ready(): Promise<void>;
  /** Why this process should be restarted (a dead consumer, a stalled event loop); empty while live. */
  live(): string[];
}

export interface Adapters extends Probes {
  bus: Bus;
  store: Store;
  /** The process's shutdown and Kafka timings, derived in one place (config/timings.ts). */
  timings: Timings;
  /** Seals and opens what the store keeps sealed (packages/platform/src/runtime/secret-box.ts). */
  secrets: SecretBox;
  close(): Promise<void>;
}

/**
 * The process's own settings the adapters need (ProcessSettings: `SWITCH_SHUTDOWN_MS`,
 * `SWITCH_READY_GRACE_MS`, `SWITCH_LIVENESS_STALL_MS`) and its longest bank exchange (bank
 * connectors only), from which its timings are derived.
 */
export interface ProbeOptions {
  shutdownMs?: number;
  readyGraceMs?: number;
  stallMs?: number;
  /** The longest single bank exchange a handler of this process may wait on; 0 (default) for none. */
  bankCallMs?: number;
  /** Clock of the readiness grace (tests); default `Date.now`. */
  now?: () => number;
}

export async function connectAdapters(config: InfraConfig, clientId: string, log: Logger, probes: ProbeOptions = {}): Promise<Adapters> {
  const store: Store =
    config.store.kind === 'mongo'
      ? await MongoStore.connect({ url: config.store.url, database: config.store.database })
      : new MemoryStore();
  if (store instanceof MongoStore) log.info('store connected');
  const { bus: b } = config;
  if (b.kind === 'kafka') labelTopicsIn(b.namespace);
  const timings = deriveTimings({
    bankCallMs: probes.bankCallMs ?? 0,
    shutdownMs: probes.shutdownMs ?? DEFAULT_SHUTDOWN_MS,
    sessionTimeoutMs: b.kind === 'kafka' ? b.sessionTimeoutMs : DEFAULT_SESSION_TIMEOUT_MS,
  });
  const bus: Bus & { ping?: () => Promise<void>; deadConsumerGroups?: () => string[] } =
    b.kind === 'kafka'
      ? new KafkaBus({
          brokers: b.brokers,
          schemaRegistryUrl: b.schemaRegistryUrl,
          clientId,
          // The bus logs each retried handler failure at warn (no payloads) and kafkajs' own lines.
          logger: log,
          sessionTimeoutMs: timings.sessionTimeoutMs,
          heartbeatIntervalMs: timings.heartbeatIntervalMs,
          rebalanceTimeoutMs: timings.rebalanceTimeoutMs,
          namespace: b.namespace,
          partitions: b.partitions,
          durability: b.durability,
          ...(b.security ? { security: b.security } : {}),
        })
      : new MemoryBus({ logger: log });
  const liveness = processLiveness({
    stallMs: probes.stallMs ?? DEFAULT_STALL_MS,
    deadConsumers: () => bus.deadConsumerGroups?.() ?? [],
  });
  if (bus instanceof KafkaBus) {
    // Every topic of the switch, created or checked before the service takes work: a topic that
    // contradicts the settings stops the start here (TopicContradiction names it), not a request later.
    try {
      await bus.ensureTopics(switchTopics());
    } catch (error) {
      await Promise.allSettled([bus.close(), store.close()]);
      throw error;
    }
  }
  return {
    bus,
    store,
    timings,
    secrets: config.secrets,
    // Side by side and each bounded: answers within a second even while a dependency hangs; a failure
    // shorter than the grace is held (logged), so one blip does not empty every Service at once.
    ready: steadyReadiness(
      () => checkReady({ store: () => store.ping(), bus: async () => bus.ping?.() }),
      probes.readyGraceMs ?? DEFAULT_READY_GRACE_MS,
      {
        ...(probes.now ? { now: probes.now } : {}),
        onHeld: (error) =>
          log.warn({ error: error instanceof Error ? error.message : String(error) }, 'a dependency failed; still ready within the grace'),
      },
    ),
    live: () => liveness.live(),
    close: async () => {
      liveness.stop();
      await bus.close();
      await store.close();
    },
  };
}

/**
 * `/healthz` (the process can work: 503 naming a dead consumer or a stalled event loop, so it is
 * restarted), `/readyz` (its connections answer) and `/metrics` (Prometheus) for services without an
 * HTTP API of their own, on `HEALTH_PORT`. `probes`: the adapters (both probes), or a readiness
 * function alone (liveness is then the event loop's only).
 */
export function startHealthServer(
  port: number,
  host: string,
  probes: Probes | (() => Promise<void>),
  extra: Record<string, () => unknown> = {},
): Promise<Server> {
  const ready = typeof probes === 'function' ? probes : () => probes.ready();
  const fallback = typeof probes === 'function' ? processLiveness({ stallMs: DEFAULT_STALL_MS }) : undefined;
  const live = typeof probes === 'function' ? () => fallback!.live() : () => probes.live();
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/healthz') {
      const problems = live();
      return problems.length === 0
        ? send(200, { status: 'ok' })
        : send(503, { error: 'SERVICE_UNAVAILABLE', message: problems.join('; ') });
    }
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
  if (fallback) server.on('close', () => fallback.stop());
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
