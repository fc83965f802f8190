import type { Mode } from '@switch/core/contracts/bancos';
import type { WebhookEvent } from '@switch/core/contracts/webhook';
import type { EventoEsperado } from '@switch/core/contracts/esperados';
import type { PageCursor } from './transaction-reads';

/** One attempt to deliver a webhook (SPEC 6.3); every attempt is kept. */
export interface DeliveryAttempt {
  n: number;
  at: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/**
 * A webhook delivery: one state change to one endpoint. The body bytes are fixed when it is created
 * and sent unchanged on every attempt, so the signature is always over the body actually sent.
 */
/** Whose deliveries share one fair share of the notifier's attempts: one merchant in one mode. */
export interface DeliveryLane {
  merchantId: string;
  mode: Mode;
}

/** A lane as one string (`mode|merchantId`), for maps and sets of lanes. */
export const laneKey = (lane: DeliveryLane): string => `${lane.mode}|${lane.merchantId}`;

export interface WebhookDelivery {
  /** `<txnId>.v<version>.<endpointId>`: a redelivered event cannot create a second delivery. */
  id: string;
  merchantId: string;
  mode: Mode;
  endpointId: string;
  url: string;
  txnId: string;
  /** A transaction's event, or an expected payment's (`txnId` then holds the expected payment's id). */
  event: WebhookEvent | EventoEsperado;
  body: string;
  status: 'pending' | 'delivered' | 'exhausted';
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  /** W3C trace context of the state change, so every attempt (retries too) joins the operation's trace. */
  traceContext?: Record<string, string>;
  /** Which notifier replica holds it, until when: two replicas never attempt it at the same time. */
  lease: { owner: string; until: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** A delivery not yet attempted, due at `now`: what the notifier leases next. */
export function pendingDelivery(
  d: Pick<WebhookDelivery, 'id' | 'merchantId' | 'mode' | 'endpointId' | 'url' | 'txnId' | 'event' | 'body'>,
  now: Date,
): WebhookDelivery {
  const at = now.toISOString();
  return { ...d, status: 'pending', attempts: [], nextAttemptAt: at, lease: null, createdAt: at, updatedAt: at };
}

/**
 * The notifier's durable queue of webhook deliveries (SPEC 6): created from transaction events,
 * leased and attempted by the notifier; listed and redelivered on a merchant's request (gateway, panel).
 */
export interface DeliveryQueue {
  deliveries: {
    /** Creates a delivery; `false` when one with that id exists (the event was seen before). */
    insert(delivery: WebhookDelivery): Promise<boolean>;
    get(id: string): Promise<WebhookDelivery | null>;
    /** A transaction's deliveries, oldest first. */
    listForTransaction(txnId: string): Promise<WebhookDelivery[]>;
    /** A transaction's deliveries a page at a time, newest first (ties by id), after `after` when given. */
    pageForTransaction(txnId: string, limit: number, after?: PageCursor): Promise<WebhookDelivery[]>;
    /** An endpoint's deliveries, newest first (ties by id), after `after` when given. */
    listForEndpoint(endpointId: string, limit: number, after?: PageCursor): Promise<WebhookDelivery[]>;
    /**
     * Leases one of the pending deliveries due earliest (nextAttemptAt ≤ now) whose lease is free or
     * expired, atomically: of replicas asking at once, one gets it. Null when none is due, or (a
     * shared store) when concurrent callers took every early candidate: ask again at the next poll.
     * Deliveries of the `busy` lanes (merchant and mode) are passed over: a merchant whose attempts
     * fill its share waits alone, the others' deliveries are leased meanwhile (docs/webhooks.md).
     */
    claimDue(now: string, owner: string, leaseUntil: string, busy?: readonly DeliveryLane[]): Promise<WebhookDelivery | null>;
    /** Records an attempt's result and releases the lease; only the lease owner may. */
    complete(
      id: string,
      owner: string,
      update: Pick<WebhookDelivery, 'status' | 'attempts' | 'nextAttemptAt' | 'updatedAt'>,
    ): Promise<boolean>;
    /** A manual redelivery: pending again, due now, its attempts kept. */
    requeue(id: string, now: string): Promise<boolean>;
    /**
     * Deliveries waiting (pending) and given up (exhausted): the queue gauges. Delivered ones are the
     * history, counted by the attempt counters instead, so the gauges cost the same at any age.
     */
    countByStatus(): Promise<Record<'pending' | 'exhausted', number>>;
  };
}
