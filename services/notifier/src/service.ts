import type { Static } from '@sinclair/typebox';
import { ConfigError, readSettings, setting, settings, type EnvSource } from '@switch/platform/config/env';
import { instanceId as hostInstanceId } from '@switch/platform/config/instance';
import { DestinationSettings, destinationPolicy } from '@switch/platform/config/webhooks';
import { measured, metrics } from '@switch/platform/telemetry/metrics';
import { TOPICS, TRANSACTION_WEBHOOK_HEADER } from '@switch/core/contracts/topics';
import { WEBHOOK_EVENTS } from '@switch/core/contracts/webhook';
import type { Bus, Subscription } from '@switch/platform/ports/bus';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { Sealer } from '@switch/platform/runtime/secret-box';
import type { DeliveryQueue } from '@switch/platform/ports/delivery-queue';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import { planDeliveries } from './deliveries';
import { EndpointBook, Dispatcher, type DispatcherConfig, SPEC_SCHEDULE_MS } from './dispatcher';

export interface NotifierConfig extends DispatcherConfig {
  pollIntervalMs: number;
  /** How long a merchant's endpoints are remembered; changes made through the switch are forgotten at once by event. */
  endpointCacheMs: number;
}

/** Webhook delivery: SPEC 6.3's schedule, each attempt's bound, and the fair share per merchant. */
export const NotifierSettings = settings(
  {
    // Shortened only for tests and drills; the default is SPEC 6.3's.
    schedule: setting.durations('SWITCH_WEBHOOK_SCHEDULE_MS', SPEC_SCHEDULE_MS, 'SPEC 6.3 schedule; shorten only for drills'),
    attemptTimeoutMs: setting.int('SWITCH_WEBHOOK_TIMEOUT_MS', 10_000, "an attempt's bound", { min: 100, max: 60_000 }),
    leaseMs: setting.optionalInt(
      'SWITCH_WEBHOOK_LEASE_MS',
      'how long a replica holds a delivery; more than the attempt timeout',
      { max: 3_600_000 },
      { defaultText: '3 × timeout' },
    ),
    concurrency: setting.int(
      'SWITCH_WEBHOOK_CONCURRENCY',
      8,
      'attempts at once per replica for one merchant in one mode (its fair share: a slow endpoint fills only its own share)',
      { min: 1, max: 256 },
    ),
    pollIntervalMs: setting.int('SWITCH_NOTIFIER_POLL_MS', 500, 'how often due deliveries are looked for', { min: 10, max: 60_000 }),
    endpointCacheMs: setting.int(
      'SWITCH_WEBHOOK_ENDPOINT_CACHE_MS',
      10_000,
      "how long a merchant's endpoints are remembered; changes made through the switch are forgotten at once by event",
      { min: 0, max: 300_000 },
    ),
  },
  'Notifier',
);

export const NotifierConfigSettings = settings({ notifier: NotifierSettings, destinations: DestinationSettings });

/**
 * `secrets`: the process's secret box (from `SWITCH_SECRETS_KEY`), which opens the endpoints' secrets.
 * `listening`: the ports this process listens on, never a webhook destination.
 */
export function notifierConfig(
  s: Static<typeof NotifierConfigSettings>,
  secrets: Pick<Sealer, 'open'>,
  listening: readonly number[] = [],
): NotifierConfig {
  const n = s.notifier;
  const destinations = destinationPolicy(s.destinations, listening);
  const leaseMs = n.leaseMs ?? n.attemptTimeoutMs * 3;
  if (leaseMs < n.attemptTimeoutMs + 1)
    throw new ConfigError('SWITCH_WEBHOOK_LEASE_MS', `${leaseMs} is below the minimum ${n.attemptTimeoutMs + 1}`);
  return {
    schedule: n.schedule,
    attemptTimeoutMs: n.attemptTimeoutMs,
    leaseMs,
    allowPrivateDestinations: destinations.allowPrivate,
    allowLoopbackDestinations: destinations.allowLoopback,
    ownPorts: destinations.ownPorts,
    concurrency: n.concurrency,
    pollIntervalMs: n.pollIntervalMs,
    endpointCacheMs: n.endpointCacheMs,
    secrets,
  };
}

/** The notifier's configuration from `source` (by default the process environment). */
export function loadNotifierConfig(secrets: Pick<Sealer, 'open'>, source?: EnvSource): NotifierConfig {
  return notifierConfig(readSettings(NotifierConfigSettings, source), secrets);
}

export interface NotifierHandle {
  dispatcher: Dispatcher;
  stop(): Promise<void>;
}

/**
 * Subscribes to state changes (creating durable deliveries) and attempts due deliveries on a timer.
 * Deliveries live in the store, so a restarted notifier resumes each at its next scheduled attempt.
 */
export async function startNotifier(deps: {
  bus: Bus;
  /** The delivery queue, and the merchants' webhook endpoints it delivers to. */
  store: DeliveryQueue & Pick<MerchantDirectory, 'webhooks'>;
  log: Logger;
  config: NotifierConfig;
  /** This replica's stable id (names its own consumer group); default the host name. */
  instanceId?: string;
}): Promise<NotifierHandle> {
  const endpoints = new EndpointBook(deps.store, deps.config.endpointCacheMs ?? 0);
  await endpoints.follow(deps.bus, deps.instanceId ?? hostInstanceId());
  const dispatcher = new Dispatcher(deps.store, deps.config, deps.log, undefined, endpoints);
  let running: Promise<unknown> = Promise.resolve();
  let inRound = false;
  let again = false;
  let stopped = false;
  let countedAt = 0;
  // One round at a time; a tick during a round asks for one more round after it. A round leases and
  // starts what is due and returns: it never waits for an attempt (a silent endpoint would hold the
  // poll for everyone); each attempt that ends leases its lane's next delivery itself.
  const tick = () => {
    if (inRound) {
      again = true;
      return;
    }
    inRound = true;
    running = (async () => {
      do {
        again = false;
        await dispatcher.startDue();
        // The queue gauges (pending and exhausted deliveries, not the history): at most every 5 s.
        if (Date.now() - countedAt >= 5_000) {
          countedAt = Date.now();
          const counts = await deps.store.deliveries.countByStatus();
          for (const [status, n] of Object.entries(counts)) metrics.webhookQueue.set({ status }, n);
        }
      } while (again && !stopped);
    })()
      .catch((error: unknown) => deps.log.error({ err: error }, 'delivery round failed'))
      .finally(() => (inRound = false));
  };
  const subscription: Subscription = await deps.bus.subscribe(
    TOPICS.transactions,
    // Events that call for no webhook (a route and order, a wait) are skipped undecoded.
    { group: 'notifier', only: { header: TRANSACTION_WEBHOOK_HEADER, values: WEBHOOK_EVENTS } },
    measured('notifier', TOPICS.transactions.name, async ({ value }) => {
      // A first attempt is made at once, here, while the merchant's share (in this mode) has room;
      // beyond that (its slow receiver), its deliveries wait unleased for its turn, and no one else's do.
      const inline = dispatcher.hasRoom(value) && !stopped;
      const created = await planDeliveries(deps.store, value, new Date(), endpoints, inline ? () => dispatcher.leaseFromNow() : undefined);
      if (created.length === 0 || stopped) return;
      if (!inline) return tick();
      // A delivery its lane has no room for (several endpoints of one event) is handed back to the queue.
      for (const delivery of created) await dispatcher.attemptNow(delivery);
    }),
  );
  const timer = setInterval(() => {
    void running.then(() => {
      if (!stopped) tick();
    });
  }, deps.config.pollIntervalMs);
  timer.unref();
  return {
    dispatcher,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await subscription.close();
      await endpoints.stop();
      await dispatcher.drain();
      await running;
      await dispatcher.close();
    },
  };
}
