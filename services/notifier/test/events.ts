import type { Mode } from '@switch/core/contracts/bancos';
import type { TransactionEventMessage } from '@switch/core/contracts/topics';

/** A payout's LIQUIDADA event as the router announces it: what the notifier's tests deliver. */
export function settledPayout(over: { txnId: string; merchantId?: string; mode?: Mode; monto?: number }): TransactionEventMessage {
  const { txnId, merchantId = 'tienda', mode = 'test', monto = 10 } = over;
  return {
    txnId,
    merchantId,
    mode,
    kind: 'pagar',
    version: 2,
    settledForReply: true,
    transition: { from: null, to: 'LIQUIDADA', at: '2026-11-22T10:00:00.000Z' },
    resultado: {
      id: txnId,
      estado: 'LIQUIDADA',
      banco_usado: 'bnc',
      referencia_banco: 'R',
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1,
    },
    monto,
    moneda: 'VES',
    concepto: 'x',
    banco: 'bnc',
  };
}
