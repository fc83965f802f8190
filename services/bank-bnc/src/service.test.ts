import { randomUUID } from 'node:crypto';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { TOPICS, bankRequests, type BankRequestMessage, type RouterInboxMessage } from '@switch/core/contracts/topics';
import { createLogger } from '@switch/platform/telemetry/logger';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { startConnectorService, type BankService } from '@switch/platform/runtime/bank-service';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type Emulator } from '../emulator';
import { BncConnector } from './connector';
import { bncService } from './service';

const credentials = {
  clientGuid: '4A074C46-DD4E-4E54-8010-B80A6A8758F4',
  masterKey: 'test-master-key',
  clientId: 'J000121532',
  account: '01910001482101010049',
};
const log = createLogger('bank-bnc-test', 'silent');

function payout(
  mode: 'live' | 'test',
  via: 'pago_movil' | 'credito_inmediato' = 'pago_movil',
): Extract<BankRequestMessage, { op: 'execute' }> {
  const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
  const persona =
    via === 'pago_movil'
      ? { tipo: 'telefono' as const, valor: '04241234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' }
      : { tipo: 'cuenta' as const, valor: '01020000000000000001', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };
  return {
    op: 'execute',
    txnId,
    attempt: 1,
    orderRef: `${txnId}-1`,
    mode,
    rail: via,
    idempotencyKey: randomUUID(),
    request: {
      kind: 'pagar',
      body: {
        idempotency_key: randomUUID(),
        monto: { valor: 15, moneda: 'VES' },
        concepto: 'vuelto',
        ordenante: persona,
        beneficiario: persona,
        via,
      },
    },
    related: null,
    // A live order always carries the merchant's registered account (the bank worker refuses one
    // without): here the switch's own configured account, registered to the merchant.
    ...(mode === 'live' ? { merchantId: 'tienda', account: { cuenta: credentials.account, telefono: null } } : {}),
  };
}

describe('BNC service on the bus', () => {
  let emu: Emulator;
  let bus: MemoryBus;
  let service: BankService<BncConnector>;
  const results: RouterInboxMessage[] = [];

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, credentials });
    bus = new MemoryBus();
    await bus.subscribe(TOPICS.routerInbox, { group: 'observer' }, async ({ value }) => void results.push(value));
    service = await startConnectorService(bncService, {
      secrets: SecretBox.ephemeral(),
      bus,
      store: new MemoryStore(),
      log,
      config: {
        live: {
          baseUrl: emu.url,
          clientGuid: credentials.clientGuid,
          masterKey: credentials.masterKey,
          clientId: credentials.clientId,
          account: credentials.account,
          terminal: 'T1',
          timeoutMs: 10_000,
        },
      },
    });
  });
  afterAll(async () => {
    await service.stop();
    await bus.close();
    await emu.close();
  });

  it('runs live bnc orders and answers the router; test-mode bnc orders are left to the simulated bank', async () => {
    const test = payout('test');
    const live = payout('live');
    await bus.publish(bankRequests('bnc'), test.txnId, test);
    await bus.publish(bankRequests('bnc'), live.txnId, live);
    await vi.waitFor(() =>
      expect(results.find((r) => r.txnId === live.txnId)).toMatchObject({
        type: 'bank_result',
        op: 'execute',
        outcome: { type: 'settled' },
      }),
    );
    expect(results.find((r) => r.txnId === test.txnId)).toBeUndefined();
    expect(emu.controls.orderCount()).toBe(1);
    expect(service.connectors.live?.breakers.states()).toMatchObject({ 'MobPayment/SendP2P': 'closed' });
  });

  // The first delivery reached BNC but its claim and answer were lost (another store, a crash): the
  // redelivery carries the same Reference, BNC rejects it as a duplicate (G94 → DUPLICADA), and the
  // bank worker asks the original's status instead of reporting a rejection.
  it.each(['pago_movil', 'credito_inmediato'] as const)(
    'a duplicate Reference (%s) answers with the original order status through the bank worker, never RECHAZADA',
    async (via) => {
      const order = payout('live', via);
      const first = new BncConnector({
        baseUrl: emu.url,
        clientGuid: credentials.clientGuid,
        masterKey: credentials.masterKey,
        clientId: credentials.clientId,
        account: credentials.account,
        terminal: 'T1',
        timeoutMs: 10_000,
      });
      const original = await first.execute(order);
      await first.close();
      expect(original).toMatchObject(via === 'pago_movil' ? { type: 'settled' } : { type: 'accepted', pending: true });
      const orders = emu.controls.orderCount();
      const duplicates = emu.controls.stats().duplicates;

      await bus.publish(bankRequests('bnc'), order.txnId, order);
      await vi.waitFor(() => expect(results.find((r) => r.txnId === order.txnId)).toBeDefined());
      const result = results.find((r) => r.txnId === order.txnId) as Extract<RouterInboxMessage, { type: 'bank_result' }>;
      expect(emu.controls.stats().duplicates).toBe(duplicates + 1);
      expect(emu.controls.orderCount()).toBe(orders);
      expect(result.outcome.type).not.toBe('rejected');
      expect(result.outcome).toMatchObject(
        via === 'pago_movil'
          ? { type: 'settled', referencia: (original as { referencia: string }).referencia }
          : { type: 'accepted', pending: true, referencia: (original as { referencia: string }).referencia },
      );
      expect(result.outcome.raw).toMatchObject({ duplicate: { codigo: 'G94' } });
    },
  );

  it('without BNC_LIVE_URL nothing subscribes', async () => {
    const none = await startConnectorService(bncService, {
      secrets: SecretBox.ephemeral(),
      bus,
      store: new MemoryStore(),
      log,
      config: {},
    });
    expect(none.connectors).toEqual({});
    await none.stop();
  });
});
