import type { ExecuteOrder, StatusQuery } from '@switch/connector-kit/bank-port';
import type { Mode } from '@switch/core/contracts/bancos';
import type { Rail } from '@switch/core/operation';
import type { BancaribeConnectorConfig } from '../src/connector';
import { DEFAULT_MERCHANT, type Emulator } from '../emulator';

/** Builders shared by the connector tests: orders as the router would send them. */

export const CREDENTIALS = { consumerKey: 'ck_switch_test', consumerSecret: 'cs_switch_test' };

export function connectorConfig(emulator: Emulator, overrides: Partial<BancaribeConnectorConfig> = {}): BancaribeConnectorConfig {
  return {
    baseUrl: emulator.url,
    ...CREDENTIALS,
    comercio: { ...DEFAULT_MERCHANT, rif: 'J12114', ip: '10.0.0.1', terminal: 'T01' },
    timeoutMs: 3000,
    ...overrides,
  };
}

let seq = 0;
/** A fresh order reference, as the router's `<txnId>-<attempt>`. */
export const ref = (tag: string): string => `tx_${tag}_${++seq}-1`;

const persona = (tipo: 'telefono' | 'cuenta', valor: string, banco = '0102') => ({
  tipo,
  valor,
  banco,
  identificacion: 'V12345678',
  nombre: 'Ana Pérez',
});

function order(
  orderRef: string,
  rail: Rail,
  request: ExecuteOrder['request'],
  related: ExecuteOrder['related'] = null,
  mode: Mode = 'test',
): ExecuteOrder {
  return {
    txnId: orderRef.replace(/-1$/, ''),
    attempt: 1,
    orderRef,
    mode,
    rail,
    idempotencyKey: '2b7e1a1e-3c5d-4f3e-9a51-0d2f6f3c1a11',
    request,
    related,
  };
}

export function c2p(orderRef: string, monto: number, opts: { otp?: string; telefono?: string } = {}): ExecuteOrder {
  return order(orderRef, 'c2p', {
    kind: 'cobrar',
    body: {
      idempotency_key: '2b7e1a1e-3c5d-4f3e-9a51-0d2f6f3c1a11',
      monto: { valor: monto, moneda: 'VES' },
      concepto: 'Compra en tienda',
      cobrador: persona('cuenta', DEFAULT_MERCHANT.cuenta, '0114'),
      pagador: persona('telefono', opts.telefono ?? '04241234567'),
      otp: opts.otp ?? '12345678',
    },
  });
}

export function pagar(
  orderRef: string,
  monto: number,
  via: 'pago_movil' | 'credito_inmediato',
  destino: { tipo: 'telefono' | 'cuenta'; valor: string; banco?: string },
): ExecuteOrder {
  return order(orderRef, via, {
    kind: 'pagar',
    body: {
      idempotency_key: '2b7e1a1e-3c5d-4f3e-9a51-0d2f6f3c1a11',
      monto: { valor: monto, moneda: 'VES' },
      concepto: 'Vuelto',
      ordenante: persona('cuenta', DEFAULT_MERCHANT.cuenta, '0114'),
      beneficiario: persona(destino.tipo, destino.valor, destino.banco ?? '0102'),
      via,
    },
  });
}

export function token(orderRef: string): ExecuteOrder {
  const { request } = c2p(orderRef, 10);
  const { otp: _otp, ...body } = (request as Extract<ExecuteOrder['request'], { kind: 'cobrar' }>).body;
  return order(orderRef, 'debito_inmediato', { kind: 'token', body });
}

export function reverso(orderRef: string, related: { referencia: string | null; rail: Rail | null }): ExecuteOrder {
  return order(
    orderRef,
    'reverso',
    { kind: 'reverso', body: { idempotency_key: '5f0c7c44-8d0e-4c33-a4a5-3f2b8e0c9d21', id: 'tx_original' } },
    { id: 'tx_original', ...related },
  );
}

/** The status query the router would send for an order, given what the bank answered. */
export function statusOf(o: ExecuteOrder, referencia: string | null = null, endtoend: string | null = null): StatusQuery {
  return {
    txnId: o.txnId,
    attempt: o.attempt,
    orderRef: o.orderRef,
    mode: o.mode,
    rail: o.rail,
    kind: o.request.kind,
    referencia,
    endtoend,
  };
}
