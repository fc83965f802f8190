import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { bankRequests, TOPICS, type RouterInboxMessage } from '@switch/core/contracts/topics';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { startConnectorService, type BankService } from '@switch/platform/runtime/bank-service';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { startEmulator, type Emulator } from '../emulator';
import { activoService } from './service';
import type { ActivoConnector } from './connector';

let emulator: Emulator;
let bus: MemoryBus;
let service: BankService<ActivoConnector>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, credentials: { apiKey: 'svc-key' }, settleDelayMs: null });
  bus = new MemoryBus();
  service = await startConnectorService(activoService, {
    secrets: SecretBox.ephemeral(),
    bus,
    store: new MemoryStore(),
    log: createLogger('bank-activo-test', 'silent'),
    config: { test: { baseUrl: emulator.url, apiKey: 'svc-key', rif: 'J080066227', telefono: '04140000001', timeoutMs: 5_000 } },
  });
});
afterAll(async () => {
  await service.stop();
  await bus.close();
  await emulator.close();
});

describe('bank-activo service', () => {
  it('serves test-mode orders from the bus and answers the router; live has no connector', async () => {
    expect(Object.keys(service.connectors)).toEqual(['test']);
    const results: RouterInboxMessage[] = [];
    await bus.subscribe(TOPICS.routerInbox, { group: 'probe' }, async ({ value }) => void results.push(value));
    const txnId = `tx-${randomUUID()}`;
    const key = randomUUID();
    await bus.publish(bankRequests('banco_activo'), txnId, {
      op: 'execute',
      txnId,
      attempt: 1,
      orderRef: `${txnId}-1`,
      mode: 'test',
      rail: 'pago_movil',
      idempotencyKey: key,
      related: null,
      request: {
        kind: 'pagar',
        body: {
          idempotency_key: key,
          monto: { valor: 15, moneda: 'VES' },
          concepto: 'vuelto',
          via: 'pago_movil',
          ordenante: { tipo: 'telefono', valor: '04140000001', banco: '0171', identificacion: 'J80066227', nombre: 'Comercio' },
          beneficiario: { tipo: 'telefono', valor: '04121112233', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
        },
      },
    });
    await vi.waitFor(() => expect(results).toHaveLength(1), { timeout: 5_000, interval: 20 });
    expect(results[0]).toMatchObject({ type: 'bank_result', txnId, op: 'execute', outcome: { type: 'settled' } });
    expect(emulator.controls.callsFor(`${txnId}-1`)).toBe(1);
  });
});
