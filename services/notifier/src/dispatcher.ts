import { TOPICS } from '@switch/core/contracts/topics';
import type { Bus, Subscription } from '@switch/platform/ports/bus';
import { type MerchantDirectory, type WebhookEndpoint, signingSecrets } from '@switch/platform/ports/merchant-directory';
import type { Mode } from '@switch/core/contracts/bancos';
import { randomUUID } from 'node:crypto';
import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { EVENT_HEADER, SIGNATURE_HEADER, signWebhook, standardWebhookHeaders } from '@switch/core/contracts/webhook';
import { metrics } from '@switch/platform/telemetry/metrics';
import { laneKey, type DeliveryLane, type WebhookDelivery, type DeliveryQueue } from '@switch/platform/ports/delivery-queue';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { Sealer } from '@switch/platform/runtime/secret-box';
import {
  attemptErrorCategory,
  destinationAgent,
  postVia,
  refusedDestination,
  type DestinationPolicy,
  type Resolver,
} from '@switch/platform/runtime/destination';

/**
 * A merchant's webhook endpoints per mode, remembered for `ttlMs` so that planning and attempting
 * deliveries do not read the endpoint store for every event. A change made through the switch (an
 * endpoint added, changed or removed) is announced on the merchant-changes topic and forgotten at
 * once by every notifier; `ttlMs` bounds a change made behind the switch's back.
 */
export class EndpointBook {
  private readonly entries = new Map<string, { endpoints: WebhookEndpoint[]; until: number }>();
  private subscription: Subscription | undefined;

  constructor(
    private readonly store: Pick<MerchantDirectory, 'webhooks'>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Each notifier follows every change (a group of its own, named after its stable instance id; newest messages only). */
  async follow(bus: Bus, instanceId: string): Promise<void> {
    this.subscription = await bus.subscribe(
      TOPICS.merchantChanges,
      { group: `notifier-${instanceId}`, latestOnly: true, maxAttempts: 1 },
      async ({ value }) => {
        if (value.change === 'webhooks') this.forget(value.merchantId);
      },
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
  }

  /** `fresh`: read the store whatever is remembered (and remember what it says). */
  async list(merchantId: string, mode: Mode, options: { fresh?: boolean } = {}): Promise<WebhookEndpoint[]> {
    const key = `${merchantId}|${mode}`;
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > at && !options.fresh) return hit.endpoints;
    const endpoints = await this.store.webhooks.listForMerchant(merchantId, mode);
    if (this.ttlMs > 0) this.entries.set(key, { endpoints, until: at + this.ttlMs });
    return endpoints;
  }

  forget(merchantId: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${merchantId}|`)) this.entries.delete(key);
  }
}

/**
 * SPEC 6.3: attempt 1 at once, then 30 s, 2 min, 5 min, 15 min and 1 h, each counted from the previous
 * failed attempt; 6 attempts at most.
 */
export const SPEC_SCHEDULE_MS: readonly number[] = [0, 30_000, 120_000, 300_000, 900_000, 3_600_000];

/** When the attempt after `attemptsMade` failed ones is due, or null when the schedule is exhausted. */
export function nextAttemptAt(schedule: readonly number[], attemptsMade: number, lastFailedAt: Date): Date | null {
  const wait = schedule[attemptsMade];
  return wait === undefined ? null : new Date(lastFailedAt.getTime() + wait);
}

export interface DispatcherConfig {
  schedule: readonly number[];
  /** Only a 2xx within this time counts as delivered. */
  attemptTimeoutMs: number;
  /** How long a replica holds a delivery it is attempting (must exceed the attempt timeout). */
  leaseMs: number;
  /** Deliveries (test and live) to internal addresses are refused unless this is set (`SWITCH_WEBHOOK_ALLOW_PRIVATE`). */
  allowPrivateDestinations: boolean;
  /** Deliveries to loopback addresses are refused unless this (or the above) is set (`SWITCH_WEBHOOK_ALLOW_LOOPBACK`). */
  allowLoopbackDestinations?: boolean;
  /**
   * The switch's own listening ports, never connected to on an internal address (the configuration's
   * `destinationPolicy`: every service's default port, this process's and `SWITCH_OWN_PORTS`). The
   * embedded switch passes a set it completes once its listeners have ports.
   */
  ownPorts: ReadonlySet<number>;
  /**
   * Attempts under way at once by this replica for one merchant in one mode (its lane): a slow or
   * silent endpoint fills only its own merchant's share, and test traffic has shares apart from live.
   */
  concurrency: number;
  /** Name resolution of destinations (tests inject a rebinding resolver); default the system's. */
  resolve?: Resolver;
  /** Opens the endpoints' sealed signing secrets (the store keeps them sealed, DESIGN rule 7). */
  secrets: Pick<Sealer, 'open'>;
}

export interface AttemptResult {
  delivery: WebhookDelivery;
  outcome: 'delivered' | 'retry' | 'exhausted';
}

/**
 * Attempts due deliveries from the durable queue. A delivery is leased before it is attempted, so
 * two replicas never attempt it at the same time; a replica that dies mid-attempt loses its lease
 * and the delivery is attempted again after the lease expires.
 */
export class Dispatcher {
  readonly owner = `notifier-${randomUUID().slice(0, 8)}`;
  private readonly listeners: ((r: AttemptResult) => void)[] = [];
  /** Attempts under way per lane (`mode|merchantId`). */
  private readonly underWay = new Map<string, number>();
  private readonly attempts = new Set<Promise<void>>();
  private started = 0;
  private leasing: Promise<number> | null = null;
  private leaseAgain = false;
  private closing = false;
  /** Every delivery, test and live, connects only through it: the address checked is the address connected to. */
  private readonly guarded;
  private readonly destinations: DestinationPolicy;

  constructor(
    private readonly store: DeliveryQueue & Pick<MerchantDirectory, 'webhooks'>,
    private readonly config: DispatcherConfig,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
    private readonly endpoints: Pick<EndpointBook, 'list'> = new EndpointBook(store, 0),
  ) {
    this.destinations = {
      allowLoopback: config.allowLoopbackDestinations ?? false,
      allowPrivate: config.allowPrivateDestinations,
      ownPorts: config.ownPorts,
    };
    this.guarded = destinationAgent({
      ...(config.resolve ? { resolve: config.resolve } : {}),
      connectTimeoutMs: config.attemptTimeoutMs,
      policy: this.destinations,
    });
  }

  /** Stops leasing, waits for the attempts under way and closes the agent's connections. */
  async close(): Promise<void> {
    await this.drain();
    await this.guarded.close().catch(() => undefined);
  }

  onAttempt(listener: (r: AttemptResult) => void): void {
    this.listeners.push(listener);
  }

  /** Whether `lane` may start one more attempt now (its share is not full). */
  hasRoom(lane: DeliveryLane): boolean {
    return (this.underWay.get(laneKey(lane)) ?? 0) < this.config.concurrency;
  }

  /**
   * Leases every due delivery whose lane has room and starts its attempt; resolves with how many it
   * started once nothing more can be leased (the attempts go on). A lane whose attempts fill its share
   * (a slow or silent endpoint) is passed over by the lease query itself, so it delays only itself;
   * its next delivery is leased as soon as one of its attempts ends. One leasing pass at a time, so
   * the busy lanes it names are never stale; a call during a pass asks for one more pass.
   */
  startDue(): Promise<number> {
    if (this.leasing) {
      this.leaseAgain = true;
      return this.leasing;
    }
    const pass = async () => {
      let started = 0;
      do {
        this.leaseAgain = false;
        for (;;) {
          if (this.closing) return started;
          const now = this.now();
          const delivery = await this.store.deliveries.claimDue(
            now.toISOString(),
            this.owner,
            new Date(now.getTime() + this.config.leaseMs).toISOString(),
            this.busyLanes(),
          );
          if (!delivery) break;
          started++;
          // A retry or a manual redelivery reads the endpoint afresh: it may follow a secret rotation or a
          // change whose announcement has not reached this notifier yet (the cache serves first attempts).
          this.track(delivery, true);
        }
      } while (this.leaseAgain);
      return started;
    };
    this.leasing = pass().finally(() => {
      this.leasing = null;
    });
    return this.leasing;
  }

  /**
   * Attempts every delivery due now and waits for those attempts (and the ones they make room for);
   * returns how many were attempted. A leasing failure (the store) is thrown once the attempts under
   * way have ended.
   */
  async runDue(): Promise<number> {
    const before = this.started;
    let failure: unknown;
    for (;;) {
      await this.startDue().catch((error: unknown) => {
        failure ??= error;
      });
      if (failure !== undefined || this.attempts.size === 0) break;
      await Promise.all([...this.attempts]);
    }
    await Promise.all([...this.attempts]);
    if (failure !== undefined) throw failure;
    return this.started - before;
  }

  /**
   * The first attempt of a delivery this notifier has just created leased to itself, made at once
   * (SPEC 6: immediately) without the poll's query and lease write. The lease is what makes it safe:
   * if this process stops before recording the attempt, the lease runs out and any notifier's poll
   * attempts the delivery. When its lane has no room, the lease is handed back and the delivery waits
   * its lane's turn like any other.
   */
  async attemptNow(delivery: WebhookDelivery): Promise<void> {
    if (this.closing || !this.hasRoom(delivery)) {
      await this.store.deliveries.complete(delivery.id, this.owner, {
        status: 'pending',
        attempts: delivery.attempts,
        nextAttemptAt: delivery.nextAttemptAt,
        updatedAt: delivery.updatedAt,
      });
      return;
    }
    this.track(delivery, false);
  }

  /** Stops leasing and waits for the attempts under way. */
  async drain(): Promise<void> {
    this.closing = true;
    await this.leasing?.catch(() => undefined);
    while (this.attempts.size > 0) await Promise.all([...this.attempts]);
  }

  private busyLanes(): DeliveryLane[] {
    const busy: DeliveryLane[] = [];
    for (const [key, n] of this.underWay) {
      if (n < this.config.concurrency) continue;
      const [mode, merchantId] = key.split('|', 2) as [Mode, string];
      busy.push({ merchantId, mode });
    }
    return busy;
  }

  /** Runs one attempt in its lane's share; when it ends, its lane has room again and leasing resumes. */
  private track(delivery: WebhookDelivery, fresh: boolean): void {
    const key = laneKey(delivery);
    this.underWay.set(key, (this.underWay.get(key) ?? 0) + 1);
    this.started++;
    // Each attempt, retries included, runs in the trace of the state change it announces.
    const attempt = context
      .with(propagation.extract(ROOT_CONTEXT, delivery.traceContext ?? {}), () => this.attempt(delivery, fresh))
      .catch((error: unknown) =>
        this.log.error({ err: error, deliveryId: delivery.id }, 'webhook attempt failed to be recorded; attempted again after its lease'),
      )
      .finally(() => {
        const left = (this.underWay.get(key) ?? 1) - 1;
        if (left > 0) this.underWay.set(key, left);
        else this.underWay.delete(key);
        this.attempts.delete(attempt);
        if (!this.closing)
          this.startDue().catch((error: unknown) => this.log.error({ err: error }, 'leasing due deliveries failed; the poll tries again'));
      });
    this.attempts.add(attempt);
  }

  /** A lease for a delivery's first attempt by this notifier, from now. */
  leaseFromNow(): NonNullable<WebhookDelivery['lease']> {
    return { owner: this.owner, until: new Date(this.now().getTime() + this.config.leaseMs).toISOString() };
  }

  private async attempt(delivery: WebhookDelivery, fresh = false): Promise<void> {
    const endpoint = (await this.endpoints.list(delivery.merchantId, delivery.mode, { fresh })).find((e) => e.id === delivery.endpointId);
    const startedAt = this.now();
    const n = delivery.attempts.length + 1;
    let statusCode: number | null = null;
    let error: string | null = null;
    if (!endpoint?.active) {
      error = 'endpoint removed or inactive';
    } else {
      // One rule for both modes. A readable reason first (for the operator's log); the connection
      // itself is vetted again inside the guarded agent, which resolves the name once and connects to
      // the vetted address only (no DNS rebinding).
      const refused = await refusedDestination(delivery.url, this.destinations, this.config.resolve);
      if (refused) {
        error = 'destination refused';
        this.log.info({ deliveryId: delivery.id, merchantId: delivery.merchantId, reason: refused }, 'webhook destination refused');
      } else ({ statusCode, error } = await this.post(delivery, signingSecrets(endpoint, startedAt, this.config.secrets), startedAt));
    }
    const finishedAt = this.now();
    metrics.webhookDuration.observe((finishedAt.getTime() - startedAt.getTime()) / 1000);
    metrics.webhookAttempts.inc({
      outcome:
        statusCode !== null && statusCode >= 200 && statusCode < 300 ? 'delivered' : error === 'destination refused' ? 'refused' : 'failed',
    });
    const attempts = [
      ...delivery.attempts,
      { n, at: startedAt.toISOString(), statusCode, latencyMs: finishedAt.getTime() - startedAt.getTime(), error },
    ];
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const next = ok ? null : nextAttemptAt(this.config.schedule, attempts.length, finishedAt);
    const status = ok ? 'delivered' : next ? 'pending' : 'exhausted';
    const saved = await this.store.deliveries.complete(delivery.id, this.owner, {
      status,
      attempts,
      nextAttemptAt: next?.toISOString() ?? null,
      updatedAt: finishedAt.toISOString(),
    });
    if (!saved) {
      this.log.warn({ deliveryId: delivery.id }, 'lease lost before the attempt was recorded');
      return;
    }
    if (status === 'exhausted') metrics.webhookExhausted.inc();
    if (status === 'exhausted')
      this.log.error({ deliveryId: delivery.id, txnId: delivery.txnId, attempts: attempts.length }, 'webhook delivery exhausted');
    const result: AttemptResult = {
      delivery: { ...delivery, status, attempts, nextAttemptAt: next?.toISOString() ?? null, lease: null },
      outcome: ok ? 'delivered' : next ? 'retry' : 'exhausted',
    };
    for (const l of this.listeners) l(result);
  }

  private async post(delivery: WebhookDelivery, secrets: string[], at: Date): Promise<{ statusCode: number | null; error: string | null }> {
    // A timer cleared when the attempt ends, not `AbortSignal.timeout`: that one's timer lives its whole
    // span, holding the attempt's objects in memory until then (10,000 of them at 1,000 webhooks/s over 10 s).
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      this.config.attemptTimeoutMs,
    );
    try {
      const status = await postVia(this.guarded, delivery.url, {
        headers: {
          'content-type': 'application/json',
          [EVENT_HEADER]: delivery.event,
          ...signatureHeaders(delivery, secrets, at),
        },
        body: delivery.body,
        signal: deadline.signal,
      });
      return { statusCode: status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` };
    } catch (e) {
      // The merchant reads a category (delivery lists of the API and the panel): an address, a port or
      // an error text of the switch's network would make webhooks a port scanner. The operator reads
      // the whole error here.
      this.log.info({ deliveryId: delivery.id, merchantId: delivery.merchantId, err: e }, 'webhook attempt failed');
      return { statusCode: null, error: attemptErrorCategory(e) };
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * During a secret rotation's overlap (docs/webhooks.md "Rotating the secret"): `x-service-signature`
 * carries the NEW secret's signature only (SPEC 6 gives it one `sha256=<hex>` value, compared whole),
 * and the Standard Webhooks `webhook-signature` carries one `v1,…` per secret, space-separated, so a
 * receiver still on the old secret verifies that header until it switches.
 */
function signatureHeaders(delivery: WebhookDelivery, secrets: string[], at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const standard = secrets.map((s) => standardWebhookHeaders(delivery.id, timestamp, delivery.body, s));
  return {
    [SIGNATURE_HEADER]: signWebhook(delivery.body, secrets[0]!),
    ...standard[0],
    'webhook-signature': standard.map((h) => h['webhook-signature']).join(' '),
  };
}
