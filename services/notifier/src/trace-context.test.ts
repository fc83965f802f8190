import { afterAll, describe, expect, it } from 'vitest';
import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { registerWebhook } from '@switch/usecases/onboarding';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { settledPayout } from '../test/events';
import { planDeliveries } from './deliveries';

describe('webhook deliveries keep the trace of their state change', () => {
  afterAll(() => {
    propagation.disable();
    context.disable();
  });

  it('stores the event’s W3C trace context on the delivery, so every attempt joins that trace', async () => {
    // What the SDK registers when tracing is on: W3C propagation and async context.
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const store = new MemoryStore();
    const where = { merchantId: 'tienda', mode: 'test' as const, url: 'http://127.0.0.1:9/h', events: ['transaccion.liquidada' as const] };
    await registerWebhook(store, where, SecretBox.ephemeral());
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED });
    const event = settledPayout({ txnId: 'txn_t', monto: 1 });
    await context.with(parent, () => planDeliveries(store, event, new Date()));
    const [delivery] = await store.deliveries.listForTransaction('txn_t');
    expect(delivery!.traceContext?.traceparent).toBe(`00-${traceId}-00f067aa0ba902b7-01`);
  });
});
