import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { TOPICS, type TransactionEventMessage } from '@switch/core/contracts/topics';
import type { Bus } from '@switch/platform/ports/bus';
import type { RoutingTable } from '@switch/core/routing';
import { startRouter, type RouterHandle } from './service';

const log = createLogger('router-service-test', 'silent');
const BNC: RoutingTable = { test: [{ banco: 'bnc', capabilities: [...CAPABILITIES] }], live: [] };

describe('router service: every stored state is announced, without a restart', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  it('an event publish that keeps failing is announced by the redelivered message once the broker answers, without a restart', async () => {
    const inner = new MemoryBus();
    const store = new MemoryStore();
    // The events topic refuses every publish until `brokerBack`: the handler fails each time it runs.
    let brokerBack = false;
    let refused = 0;
    const bus: Bus = {
      publish: async (topic, key, value, headers) => {
        if (topic.name === TOPICS.transactions.name && !brokerBack) {
          refused++;
          throw new Error('broker unreachable');
        }
        return inner.publish(topic, key, value, headers);
      },
      subscribe: inner.subscribe.bind(inner),
      deadLetters: inner.deadLetters.bind(inner),
      redriveDeadLetters: inner.redriveDeadLetters.bind(inner),
      close: inner.close.bind(inner),
    };
    const router: RouterHandle = await startRouter({ bus, store, routing: BNC, log });
    stops.push(
      () => router.stop(),
      () => inner.close(),
    );
    const events: TransactionEventMessage[] = [];
    await inner.subscribe(TOPICS.transactions, { group: 'probe' }, async ({ value }) => {
      events.push(value);
    });

    const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
    const key = randomUUID();
    const cuenta = {
      tipo: 'cuenta' as const,
      valor: '01910000000000000001',
      banco: '0191',
      identificacion: 'J123456789',
      nombre: 'Tienda',
    };
    const telefono = { tipo: 'telefono' as const, valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };
    await inner.publish(TOPICS.routerInbox, txnId, {
      type: 'execute',
      txnId,
      merchantId: 'm',
      mode: 'test',
      idempotencyKey: key,
      fingerprint: 'f',
      request: {
        kind: 'pagar',
        body: {
          idempotency_key: key,
          monto: { valor: 5, moneda: 'VES' },
          concepto: 'x',
          ordenante: cuenta,
          beneficiario: telefono,
          via: 'pago_movil',
        },
      },
    });
    // The dispatch write is stored; its announcement fails over and over.
    await vi.waitFor(async () => expect((await store.transactions.get(txnId))?.attempts).toHaveLength(1), {
      timeout: 10_000,
      interval: 10,
    });
    await vi.waitFor(() => expect(refused).toBeGreaterThan(3), { timeout: 10_000, interval: 10 });
    const stored = (await store.transactions.get(txnId))!;
    expect(events).toHaveLength(0);

    brokerBack = true;
    await vi.waitFor(() => expect(events.some((e) => e.txnId === txnId && e.version === stored.version)).toBe(true), {
      timeout: 10_000,
      interval: 10,
    });
  });
});
