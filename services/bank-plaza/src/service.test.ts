import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { bankRequests, TOPICS, type RouterInboxMessage } from '@switch/core/contracts/topics';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { startConnectorService, type BankService } from '@switch/platform/runtime/bank-service';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { startEmulator, type Emulator } from '../emulator';
import { loadPlazaConfig } from './config';
import { plazaService } from './service';
import type { BancoPlazaConnector } from './connector';

let emulator: Emulator;
let bus: MemoryBus;
let service: BankService<BancoPlazaConnector>;

beforeAll(async () => {
  emulator = await startEmulator({ credentials: { apiKey: 'svc-key', apiSecret: 'svc-secret' }, settleDelayMs: null });
  bus = new MemoryBus();
  const config = loadPlazaConfig({
    PLAZA_TEST_URL: emulator.url,
    PLAZA_TEST_API_KEY: 'svc-key',
    PLAZA_TEST_API_SECRET: 'svc-secret',
    PLAZA_TEST_RIF: 'J123456789',
    PLAZA_TEST_ACCOUNT: '01380000000000000001',
    PLAZA_TEST_PHONE: '04140000001',
    PLAZA_TIMEOUT_MS: '5000',
  });
  service = await startConnectorService(plazaService, {
    secrets: SecretBox.ephemeral(),
    bus,
    store: new MemoryStore(),
    log: createLogger('bank-plaza-test', 'silent'),
    config,
  });
});
afterAll(async () => {
  await service.stop();
  await bus.close();
  await emulator.close();
});

describe('bank-plaza service', () => {
  it('serves test-mode orders from the bus and answers the router; live has no connector', async () => {
    expect(Object.keys(service.connectors)).toEqual(['test']);
    const results: RouterInboxMessage[] = [];
    await bus.subscribe(TOPICS.routerInbox, { group: 'probe' }, async ({ value }) => void results.push(value));
    const txnId = `tx-${randomUUID()}`;
    await bus.publish(bankRequests('banco_plaza'), txnId, {
      op: 'execute',
      txnId,
      attempt: 1,
      orderRef: `${txnId}-1`,
      mode: 'test',
      rail: 'pago_movil',
      idempotencyKey: randomUUID(),
      request: {
        kind: 'pagar',
        body: {
          idempotency_key: randomUUID(),
          monto: { valor: 12.5, moneda: 'VES' },
          concepto: 'vuelto',
          ordenante: { tipo: 'cuenta', valor: '01380000000000000001', banco: '0138', identificacion: 'J123456789', nombre: 'Tienda' },
          beneficiario: { tipo: 'telefono', valor: '04241112233', banco: '0105', identificacion: 'V7654321', nombre: 'Beto' },
          via: 'pago_movil',
        },
      },
      related: null,
    });
    await vi.waitFor(() => expect(results.find((r) => r.type === 'bank_result' && r.txnId === txnId)).toBeDefined(), {
      timeout: 10_000,
      interval: 20,
    });
    const result = results.find((r) => r.type === 'bank_result' && r.txnId === txnId);
    expect(result).toMatchObject({ op: 'execute', attempt: 1, outcome: { type: 'settled', referencia: expect.any(String) } });
    expect(emulator.controls.callsFor(`${txnId}-1`)).toBe(1);
  });
});
