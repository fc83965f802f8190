import { context, propagation } from '@opentelemetry/api';
import { EndpointBook } from './dispatcher';
import { webhookEventOf, type WebhookBody } from '@switch/core/contracts/webhook';
import { pendingDelivery, type DeliveryQueue, type WebhookDelivery } from '@switch/platform/ports/delivery-queue';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import type { TransactionEventMessage } from '@switch/core/contracts/topics';

/**
 * Turns an announced state change into one delivery per endpoint of that merchant and mode that
 * subscribed to the event (SPEC 6). Idempotent: the delivery id derives from the transaction version
 * and the endpoint, so an event seen twice creates nothing new.
 */
export async function planDeliveries(
  store: DeliveryQueue & Pick<MerchantDirectory, 'webhooks'>,
  event: TransactionEventMessage,
  now: Date,
  endpoints: Pick<EndpointBook, 'list'> = new EndpointBook(store, 0),
  /** Inserts each new delivery already leased to its first attempt (the caller makes it at once); see `Dispatcher.attemptNow`. */
  leaseFor?: () => WebhookDelivery['lease'],
): Promise<WebhookDelivery[]> {
  const type = webhookEventOf(event);
  if (!type || !event.transition || !event.resultado) return [];
  const subscribed = (await endpoints.list(event.merchantId, event.mode)).filter((e) => e.active && e.events.includes(type));
  const created: WebhookDelivery[] = [];
  for (const endpoint of subscribed) {
    const body: WebhookBody = {
      type,
      // The first attempt is made at once, so its time is the delivery's creation time (DESIGN).
      sentAt: now.toISOString(),
      data: {
        id: event.txnId,
        estado: event.transition.to,
        monto: event.monto,
        moneda: event.moneda,
        concepto: event.concepto,
        banco: event.banco,
        referencia: event.resultado.referencia_banco,
        operacion: event.kind,
        ...(event.reversoDe ? { reverso_de: event.reversoDe } : {}),
      },
    };
    const delivery: WebhookDelivery = {
      ...pendingDelivery(
        {
          id: `${event.txnId}.v${event.version}.${endpoint.id}`,
          merchantId: event.merchantId,
          mode: event.mode,
          endpointId: endpoint.id,
          url: endpoint.url,
          txnId: event.txnId,
          event: type,
          body: JSON.stringify(body),
        },
        now,
      ),
      lease: leaseFor?.() ?? null,
      traceContext: traceContext(),
    };
    if (await store.deliveries.insert(delivery)) created.push(delivery);
  }
  return created;
}

/** The active trace context (the consumed event's), empty when tracing is off. */
function traceContext(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}
