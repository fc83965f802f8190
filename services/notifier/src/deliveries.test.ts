import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { validatorFor } from '@switch/core/contracts/validation';
import { WebhookBody } from '@switch/core/contracts/webhook';
import type { TransactionEventMessage } from '@switch/core/contracts/topics';
import { planDeliveries } from './deliveries';

/** Issue 26 item 2: a reverso's webhook says what moved back, and is told apart from a payment. */
describe("a reverso's webhook", () => {
  const reversoSettled: TransactionEventMessage = {
    txnId: 'txn_reverso',
    merchantId: 'tienda',
    mode: 'test',
    kind: 'reverso',
    version: 2,
    settledForReply: true,
    transition: { from: null, to: 'LIQUIDADA', at: '2026-11-27T10:00:00.000Z' },
    resultado: {
      id: 'txn_reverso',
      estado: 'LIQUIDADA',
      banco_usado: 'banco_plaza',
      referencia_banco: 'R-1',
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1,
    },
    monto: 150.5,
    moneda: 'VES',
    concepto: '',
    banco: 'banco_plaza',
    reversoDe: 'txn_original',
  };

  it('carries the amount reversed, `operacion: reverso` and the original in `reverso_de`, valid against WebhookBody', async () => {
    const store = new MemoryStore();
    await store.webhooks.insert({
      id: 'we_1',
      merchantId: 'tienda',
      mode: 'test',
      url: 'https://tienda.example/hooks',
      events: ['transaccion.liquidada'],
      sealedSecret: 'sealed',
      active: true,
      createdAt: '2026-11-27T09:00:00.000Z',
    });
    const [delivery] = await planDeliveries(store, reversoSettled, new Date('2026-11-27T10:00:00.000Z'));
    const body = JSON.parse(delivery!.body) as WebhookBody;
    expect(body).toMatchObject({
      type: 'transaccion.liquidada',
      data: { id: 'txn_reverso', monto: 150.5, operacion: 'reverso', reverso_de: 'txn_original' },
    });
    const valid = validatorFor(WebhookBody);
    expect(valid(body), JSON.stringify(valid.errors)).toBe(true);
    // A payment's webhook has no `reverso_de`.
    const { reversoDe: _, ...pago } = { ...reversoSettled, txnId: 'txn_pago', kind: 'pagar' as const };
    const [plain] = await planDeliveries(store, pago, new Date('2026-11-27T10:00:00.000Z'));
    expect(JSON.parse(plain!.body).data).not.toHaveProperty('reverso_de');
  });
});
