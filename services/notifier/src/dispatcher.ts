import { randomUUID } from 'node:crypto';
import { EndpointBook } from './endpoints';
import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import {
  EVENT_HEADER,
  metrics,
  SIGNATURE_HEADER,
  signingSecrets,
  signWebhook,
  standardWebhookHeaders,
  type Logger,
  type Sealer,
  type Store,
  type WebhookDelivery,
} from '@switch/shared';
import { nextAttemptAt } from './schedule';
import { destinationAgent, plainAgent, postVia, refusedDestination, type Resolver } from '@switch/shared';

export interface DispatcherConfig {
  schedule: readonly number[];
  /** Only a 2xx within this time counts as delivered. */
  attemptTimeoutMs: number;
  /** How long a replica holds a delivery it is attempting (must exceed the attempt timeout). */
  leaseMs: number;
  /** Live-mode deliveries to internal addresses are refused unless this is set. */
  allowPrivateDestinations: boolean;
  /** Deliveries attempted at once by this replica. */
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
  /** Live deliveries connect only through it: the address checked is the address connected to. */
  private readonly guarded;
  /** Every other delivery (test mode, or private destinations allowed): keep-alive connections, no address check. */
  private readonly plain;

  constructor(
    private readonly store: Store,
    private readonly config: DispatcherConfig,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
    private readonly endpoints: Pick<EndpointBook, 'list'> = new EndpointBook(store, 0),
  ) {
    this.guarded = destinationAgent({ ...(config.resolve ? { resolve: config.resolve } : {}), connectTimeoutMs: config.attemptTimeoutMs });
    this.plain = plainAgent({ connectTimeoutMs: config.attemptTimeoutMs });
  }

  /** Closes the agents' connections. */
  async close(): Promise<void> {
    await Promise.all([this.guarded.close().catch(() => undefined), this.plain.close().catch(() => undefined)]);
  }

  onAttempt(listener: (r: AttemptResult) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Attempts every delivery due now; returns how many were attempted. One worker looks first, and
   * each worker that finds a delivery brings in another (up to `concurrency`), so an idle poll costs
   * one store query instead of one per worker.
   */
  async runDue(): Promise<number> {
    let attempted = 0;
    const workers: Promise<void>[] = [];
    const worker = async () => {
      for (;;) {
        const now = this.now();
        const delivery = await this.store.deliveries.claimDue(
          now.toISOString(),
          this.owner,
          new Date(now.getTime() + this.config.leaseMs).toISOString(),
        );
        if (!delivery) return;
        attempted++;
        if (workers.length < this.config.concurrency) workers.push(started());
        // Each attempt, retries included, runs in the trace of the state change it announces.
        // A retry or a manual redelivery reads the endpoint afresh: it may follow a secret rotation or a
        // change whose announcement has not reached this notifier yet (the cache serves first attempts).
        await context.with(propagation.extract(ROOT_CONTEXT, delivery.traceContext ?? {}), () => this.attempt(delivery, true));
      }
    };
    // Each worker's failure is caught as it happens: one waiting its turn in the loop below would be an
    // unhandled rejection meanwhile (a store timeout then stopped the whole process).
    let failure: unknown;
    const started = () =>
      worker().catch((error: unknown) => {
        failure ??= error;
      });
    workers.push(started());
    for (let i = 0; i < workers.length; i++) await workers[i];
    if (failure !== undefined) throw failure;
    return attempted;
  }

  /**
   * The first attempt of a delivery this notifier has just created leased to itself, made at once
   * (SPEC 6: immediately) without the poll's query and lease write. The lease is what makes it safe:
   * if this process stops before recording the attempt, the lease runs out and any notifier's poll
   * attempts the delivery.
   */
  attemptNow(delivery: WebhookDelivery): Promise<void> {
    return context.with(propagation.extract(ROOT_CONTEXT, delivery.traceContext ?? {}), () => this.attempt(delivery));
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
      const guard = delivery.mode === 'live' && !this.config.allowPrivateDestinations;
      // A readable reason first; the connection itself is vetted again inside the guarded agent,
      // which resolves the name once and connects to the vetted address only (no DNS rebinding).
      const refused = guard ? await refusedDestination(delivery.url, this.config.resolve) : null;
      if (refused) error = `destination refused: ${refused}`;
      else ({ statusCode, error } = await this.post(delivery, signingSecrets(endpoint, startedAt, this.config.secrets), startedAt, guard));
    }
    const finishedAt = this.now();
    metrics.webhookDuration.observe((finishedAt.getTime() - startedAt.getTime()) / 1000);
    metrics.webhookAttempts.inc({
      outcome:
        statusCode !== null && statusCode >= 200 && statusCode < 300
          ? 'delivered'
          : error?.startsWith('destination refused')
            ? 'refused'
            : 'failed',
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

  private async post(
    delivery: WebhookDelivery,
    secrets: string[],
    at: Date,
    guard: boolean,
  ): Promise<{ statusCode: number | null; error: string | null }> {
    // A timer cleared when the attempt ends, not `AbortSignal.timeout`: that one's timer lives its whole
    // span, holding the attempt's objects in memory until then (10,000 of them at 1,000 webhooks/s over 10 s).
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      this.config.attemptTimeoutMs,
    );
    try {
      const status = await postVia(guard ? this.guarded : this.plain, delivery.url, {
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
      // The guarded agent's refusal comes as the error itself (or as its cause, wrapped by a client).
      const cause =
        e instanceof Error && e.name === 'DestinationRefused'
          ? e
          : e instanceof Error && e.cause instanceof Error && e.cause.name === 'DestinationRefused'
            ? e.cause
            : null;
      if (cause) return { statusCode: null, error: `destination refused: ${cause.message}` };
      return { statusCode: null, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
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
