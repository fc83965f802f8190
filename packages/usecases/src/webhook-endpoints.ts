import { randomUUID } from 'node:crypto';
import type { ErrorCode, ErrorStatus } from '@switch/core/contracts/errors';
import type { DeliveryView, EndpointView } from '@switch/core/contracts/webhook-endpoints';
import { WEBHOOK_EVENTS, type WebhookBody, type WebhookEvent, newWebhookSecret } from '@switch/core/contracts/webhook';
import { pendingDelivery, type DeliveryQueue, type WebhookDelivery } from '@switch/platform/ports/delivery-queue';
import type { MerchantDirectory, WebhookEndpoint } from '@switch/platform/ports/merchant-directory';
import type { PageCursor, TransactionReads } from '@switch/platform/ports/transaction-reads';

/** What a merchant's webhook endpoints and their deliveries need: the directory and the delivery queue. */
type EndpointStore = DeliveryQueue & MerchantDirectory & { transactions: TransactionReads };
import { isIP } from 'node:net';
import {
  addressClass,
  refusedDestination,
  shownAttemptError,
  type DestinationPolicy,
  type Resolver,
} from '@switch/platform/runtime/destination';
import type { SecretBox, Sealer } from '@switch/platform/runtime/secret-box';
import type { Mode } from '@switch/core/contracts/bancos';
import { findOwnTransaction } from './transaction-list';

/**
 * A merchant's webhook endpoints and their deliveries, as the merchant API and the panel manage them
 * (SPEC 6.1, 6.5): the same rules, checks and views for both. Another merchant's or mode's endpoint
 * or delivery is not found (DESIGN rule 6). Outcomes are values: the edge turns a problem into its
 * HTTP answer or its form message.
 */

export interface Caller {
  merchantId: string;
  mode: Mode;
}

/** A refusal in the house error body, its status the catalogue's (packages/core/src/contracts/errors.ts). */
type Refusal<C extends ErrorCode, Extras> = { status: ErrorStatus<C>; error: C } & Extras;
export type Problem =
  | Refusal<'VALIDATION', { detail: Record<string, string> }>
  | Refusal<'NOT_FOUND', { message: string }>
  | Refusal<'DESTINATION_REFUSED', { message: string; detail: Record<string, string> }>
  | Refusal<'ENDPOINT_LIMIT', { message: string }>;
export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: Problem };

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const notFound = (what: string): Outcome<never> => ({ ok: false, problem: { status: 404, error: 'NOT_FOUND', message: `no ${what}` } });

/**
 * Endpoints one merchant may have in one mode (deleted ones do not count). Each is attempted for every
 * event it subscribes to, so the cap bounds what one payout costs the notifier (docs/webhooks.md "Limits").
 */
export const MAX_ENDPOINTS_PER_MODE = 10;

const endpointLimit = (): Outcome<never> => ({
  ok: false,
  problem: {
    status: 422,
    error: 'ENDPOINT_LIMIT',
    message: `at most ${MAX_ENDPOINTS_PER_MODE} webhook endpoints per mode: delete one first`,
  },
});

export interface EndpointRules {
  /**
   * The destination rule, the notifier's at every attempt (`destinationPolicy`): internal addresses
   * only as the operator allows them, never a port of the switch; in test mode as in live.
   */
  destinations: DestinationPolicy;
  /** How long a rotated secret keeps signing beside the new one. */
  rotationOverlapSeconds: number;
  resolve?: Resolver;
  /** Seals each secret issued: the store keeps only the sealed form (DESIGN rule 7). */
  secrets: Pick<Sealer, 'seal'>;
}

/** An endpoint with the secret just issued for it, in clear: shown in this one answer, never again. */
export interface IssuedEndpoint {
  endpoint: WebhookEndpoint;
  secret: string;
}

export const toEndpointView = (e: WebhookEndpoint, now = new Date()): EndpointView => ({
  id: e.id,
  url: e.url,
  events: e.events,
  active: e.active,
  rotacion_hasta: e.previousSecret && e.previousSecret.until > now.toISOString() ? e.previousSecret.until : null,
  creado: e.createdAt,
});

export const toDeliveryView = (d: WebhookDelivery): DeliveryView => ({
  id: d.id,
  endpoint_id: d.endpointId,
  transaccion_id: d.txnId,
  evento: d.event,
  url: d.url,
  estado: d.status,
  proximo_intento: d.status === 'pending' ? d.nextAttemptAt : null,
  // Attempts stored by an older notifier may hold an address in their error: shown as its category.
  intentos: d.attempts.map((a) => ({
    n: a.n,
    en: a.at,
    codigo_http: a.statusCode,
    latencia_ms: a.latencyMs,
    error: shownAttemptError(a.error),
  })),
  creada: d.createdAt,
});

/**
 * Re-seals every stored endpoint secret under the current secrets key, after a key rotation
 * (docs/operations.md "Rotating the secrets key"). Each write is conditional on the sealed secret it
 * read, so a merchant's rotation made meanwhile is never overwritten (it was sealed under the current
 * key anyway). Counts what was re-sealed and what was already current.
 */
export async function resealWebhookSecrets(
  store: EndpointStore,
  box: SecretBox,
): Promise<{ resealed: number; current: number; changed: number }> {
  const counts = { resealed: 0, current: 0, changed: 0 };
  for (const merchant of await store.merchants.list()) {
    for (const e of await store.webhooks.listForMerchant(merchant.id)) {
      const previous = e.previousSecret;
      if (!box.isStale(e.sealedSecret) && !(previous && box.isStale(previous.sealedSecret))) {
        counts.current++;
        continue;
      }
      const patch = {
        sealedSecret: box.reseal(e.sealedSecret),
        ...(previous ? { previousSecret: { ...previous, sealedSecret: box.reseal(previous.sealedSecret) } } : {}),
      };
      if (await store.webhooks.update(e.id, patch, { sealedSecret: e.sealedSecret })) counts.resealed++;
      else counts.changed++;
    }
  }
  return counts;
}

/**
 * The URL rules: parseable http(s), no credentials, a destination the rule allows (test mode as live:
 * test traffic is no licence to reach the switch's network); in live mode https, unless the operator
 * allowed local receivers (which have no certificate).
 */
export async function checkEndpointUrl(url: string, mode: Mode, rules: EndpointRules): Promise<Problem | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { status: 400, error: 'VALIDATION', detail: { url: 'is not a valid URL' } };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return { status: 400, error: 'VALIDATION', detail: { url: 'must be http or https' } };
  if (parsed.username || parsed.password) return { status: 400, error: 'VALIDATION', detail: { url: 'must not carry credentials' } };
  if (mode === 'live' && parsed.protocol !== 'https:' && !localReceiver(parsed, rules.destinations))
    return { status: 400, error: 'VALIDATION', detail: { url: 'must be https in live mode' } };
  // The notifier refuses such destinations at every attempt; refuse them here first. A test-mode name
  // that resolves nowhere (yet: the sandbox's example URLs) is taken: each attempt resolves it again.
  const refused = await refusedDestination(url, rules.destinations, rules.resolve, { acceptUnresolvable: mode === 'test' });
  if (refused) return { status: 422, error: 'DESTINATION_REFUSED', message: `webhook url refused: ${refused}`, detail: { url: refused } };
  return null;
}

/** A receiver the operator allowed on an internal address (no certificate there): plain http is fine in live mode too. */
function localReceiver(url: URL, destinations: DestinationPolicy): boolean {
  if (!destinations.allowLoopback && !destinations.allowPrivate) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || (isIP(host) !== 0 && addressClass(host) !== 'public');
}

/** The caller's endpoint (not deleted), or null. */
export async function findOwnEndpoint(store: EndpointStore, caller: Caller, id: string): Promise<WebhookEndpoint | null> {
  const e = await store.webhooks.get(id);
  return e && e.merchantId === caller.merchantId && e.mode === caller.mode && !e.deletedAt ? e : null;
}

export async function listEndpoints(store: EndpointStore, caller: Caller): Promise<WebhookEndpoint[]> {
  return (await store.webhooks.listForMerchant(caller.merchantId, caller.mode)).filter((e) => !e.deletedAt);
}

export async function createEndpoint(
  store: EndpointStore,
  caller: Caller,
  input: { url: string; events?: WebhookEvent[] },
  rules: EndpointRules,
  now = new Date(),
): Promise<Outcome<IssuedEndpoint>> {
  const problem = await checkEndpointUrl(input.url, caller.mode, rules);
  if (problem) return { ok: false, problem };
  if ((await listEndpoints(store, caller)).length >= MAX_ENDPOINTS_PER_MODE) return endpointLimit();
  const events = input.events && input.events.length > 0 ? [...new Set(input.events)] : [...WEBHOOK_EVENTS];
  const secret = newWebhookSecret();
  const endpoint: WebhookEndpoint = {
    id: `we_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    merchantId: caller.merchantId,
    mode: caller.mode,
    url: input.url,
    events,
    sealedSecret: rules.secrets.seal(secret),
    previousSecret: null,
    active: true,
    deletedAt: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await store.webhooks.insert(endpoint);
  // Registrations racing past the count: the earliest (by creation, then id) keep their places, a
  // later one beyond the cap is deleted again and refused, so the cap holds however many race.
  const all = (await listEndpoints(store, caller)).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  if (all.findIndex((e) => e.id === endpoint.id) >= MAX_ENDPOINTS_PER_MODE) {
    await store.webhooks.update(endpoint.id, { active: false, deletedAt: now.toISOString(), updatedAt: now.toISOString() });
    return endpointLimit();
  }
  return ok({ endpoint, secret });
}

export async function updateEndpoint(
  store: EndpointStore,
  caller: Caller,
  id: string,
  patch: { events?: WebhookEvent[]; active?: boolean },
  now = new Date(),
): Promise<Outcome<WebhookEndpoint>> {
  const e = await findOwnEndpoint(store, caller, id);
  if (!e) return notFound(`webhook endpoint ${id}`);
  if (patch.events !== undefined && patch.events.length === 0)
    return { ok: false, problem: { status: 400, error: 'VALIDATION', detail: { events: 'choose at least one event' } } };
  const change = {
    ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
    ...(patch.active !== undefined ? { active: patch.active } : {}),
    updatedAt: now.toISOString(),
  };
  await store.webhooks.update(id, change);
  return ok({ ...e, ...change });
}

/** A new secret; the old one keeps signing beside it for the configured overlap. */
export async function rotateSecret(
  store: EndpointStore,
  caller: Caller,
  id: string,
  rules: EndpointRules,
  now = new Date(),
): Promise<Outcome<IssuedEndpoint>> {
  const e = await findOwnEndpoint(store, caller, id);
  if (!e) return notFound(`webhook endpoint ${id}`);
  const previousSecret =
    rules.rotationOverlapSeconds > 0
      ? { sealedSecret: e.sealedSecret, until: new Date(now.getTime() + rules.rotationOverlapSeconds * 1000).toISOString() }
      : null;
  const secret = newWebhookSecret();
  const change = { sealedSecret: rules.secrets.seal(secret), previousSecret, updatedAt: now.toISOString() };
  await store.webhooks.update(id, change);
  return ok({ endpoint: { ...e, ...change }, secret });
}

/** Deleted: no longer listed, found or delivered to; its deliveries stay readable by transaction. */
export async function deleteEndpoint(store: EndpointStore, caller: Caller, id: string, now = new Date()): Promise<Outcome<{ id: string }>> {
  const e = await findOwnEndpoint(store, caller, id);
  if (!e) return notFound(`webhook endpoint ${id}`);
  await store.webhooks.update(id, { active: false, deletedAt: now.toISOString(), previousSecret: null, updatedAt: now.toISOString() });
  return ok({ id });
}

export async function deliveriesOfTransaction(store: EndpointStore, caller: Caller, txnId: string): Promise<Outcome<WebhookDelivery[]>> {
  if (!(await findOwnTransaction(store, caller, txnId))) return notFound(`transaction ${txnId}`);
  const all = await store.deliveries.listForTransaction(txnId);
  return ok(all.filter((d) => d.merchantId === caller.merchantId && d.mode === caller.mode));
}

/** A page of a transaction's deliveries, newest first (the panel's detail page), after `after` when given. */
export async function deliveryPageOfTransaction(
  store: EndpointStore,
  caller: Caller,
  txnId: string,
  limit: number,
  after?: PageCursor,
): Promise<Outcome<WebhookDelivery[]>> {
  if (!(await findOwnTransaction(store, caller, txnId))) return notFound(`transaction ${txnId}`);
  const page = await store.deliveries.pageForTransaction(txnId, limit, after);
  return ok(page.filter((d) => d.merchantId === caller.merchantId && d.mode === caller.mode));
}

export async function deliveriesOfEndpoint(
  store: EndpointStore,
  caller: Caller,
  endpointId: string,
  limit = 50,
  after?: PageCursor,
): Promise<Outcome<WebhookDelivery[]>> {
  if (!(await findOwnEndpoint(store, caller, endpointId))) return notFound(`webhook endpoint ${endpointId}`);
  return ok(await store.deliveries.listForEndpoint(endpointId, limit, after));
}

/** Attempts a delivery again now, with the same body (and so the same signature). */
export async function redeliver(
  store: EndpointStore,
  caller: Caller,
  deliveryId: string,
  now = new Date(),
): Promise<Outcome<WebhookDelivery>> {
  const d = await store.deliveries.get(deliveryId);
  if (!d || d.merchantId !== caller.merchantId || d.mode !== caller.mode) return notFound(`delivery ${deliveryId}`);
  if (!(await findOwnEndpoint(store, caller, d.endpointId))) return notFound(`delivery ${deliveryId}`);
  await store.deliveries.requeue(deliveryId, now.toISOString());
  return ok({ ...d, status: 'pending', nextAttemptAt: now.toISOString() });
}

/**
 * A test event to one endpoint: a delivery like any other (signed, retried, listed), about a made-up
 * transaction id `txn_prueba_…` that exists nowhere, with `concepto` saying it is a test.
 */
export async function sendTestEvent(
  store: EndpointStore,
  caller: Caller,
  endpointId: string,
  now = new Date(),
): Promise<Outcome<WebhookDelivery>> {
  const e = await findOwnEndpoint(store, caller, endpointId);
  if (!e) return notFound(`webhook endpoint ${endpointId}`);
  const txnId = `txn_prueba_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const type = e.events.includes('transaccion.liquidada') ? 'transaccion.liquidada' : e.events[0]!;
  const estado = type === 'transaccion.aprobada' ? 'ACEPTADA' : type === 'transaccion.rechazada' ? 'RECHAZADA' : 'LIQUIDADA';
  const body: WebhookBody = {
    type,
    sentAt: now.toISOString(),
    data: {
      id: txnId,
      estado,
      monto: 1,
      moneda: 'VES',
      concepto: 'Evento de prueba',
      banco: 'bnc',
      referencia: 'TEST-prueba',
      operacion: 'pagar',
    },
  };
  const delivery = pendingDelivery(
    {
      id: `${txnId}.v1.${e.id}`,
      merchantId: caller.merchantId,
      mode: caller.mode,
      endpointId: e.id,
      url: e.url,
      txnId,
      event: type,
      body: JSON.stringify(body),
    },
    now,
  );
  await store.deliveries.insert(delivery);
  return ok(delivery);
}
