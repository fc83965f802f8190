import { describe, expect, it } from 'vitest';
import type { CreditoRecibido } from './contracts/bancos';
import {
  applyCredit,
  canMoveEsperado,
  ESTADOS_ESPERADO,
  expiryOf,
  paymentForCredit,
  TRANSITIONS_ESPERADO,
  type EsperadoJudged,
} from './esperados';

const payment = (over: Partial<EsperadoJudged & { id: string }> = {}): EsperadoJudged & { id: string } => ({
  id: 'a',
  estado: 'ESPERADO',
  monto: 100,
  recibido: 0,
  codigo: 'EABC234',
  createdAt: '2026-11-20T14:00:00.000Z',
  venceEn: '2026-11-21T14:00:00.000Z',
  ...over,
});

const credit = (over: Partial<CreditoRecibido> = {}): CreditoRecibido => ({
  banco: 'bnc',
  cuenta: '01910000000000000001',
  referencia: '12345678',
  fecha: '2026-11-20',
  hora: '12:00:00',
  monto: 100,
  concepto: 'PAGO',
  pagador: { telefono: null, identificacion: null, banco: null },
  ...over,
});

describe('expected payment states', () => {
  it('every move of the table has a reason and leaves a state the matcher may enter from', () => {
    for (const m of TRANSITIONS_ESPERADO) {
      expect(m.why).not.toBe('');
      for (const from of m.from) expect(canMoveEsperado(from, m.to, m.motivo)).toBe(true);
    }
    expect(ESTADOS_ESPERADO).toEqual(['ESPERADO', 'RECIBIDO', 'PAGO_PARCIAL', 'SOBREPAGO', 'VENCIDO']);
  });

  it('a credit of the exact amount receives it; less is a partial payment; more an overpayment', () => {
    expect(applyCredit(payment(), 100)).toEqual({ from: 'ESPERADO', to: 'RECIBIDO', motivo: 'pago_exacto' });
    expect(applyCredit(payment(), 60)).toEqual({ from: 'ESPERADO', to: 'PAGO_PARCIAL', motivo: 'pago_menor' });
    expect(applyCredit(payment(), 100.01)).toEqual({ from: 'ESPERADO', to: 'SOBREPAGO', motivo: 'pago_mayor' });
  });

  it('a partial payment completes with the rest (cents exact), or overflows', () => {
    expect(applyCredit(payment({ estado: 'PAGO_PARCIAL', recibido: 60.1 }), 39.9)?.to).toBe('RECIBIDO');
    expect(applyCredit(payment({ estado: 'PAGO_PARCIAL', recibido: 60 }), 50)?.to).toBe('SOBREPAGO');
    expect(applyCredit(payment({ estado: 'PAGO_PARCIAL', recibido: 60 }), 10)?.to).toBe('PAGO_PARCIAL');
  });

  it('a closed payment takes no credit; only a payment with nothing received expires, once its time is past', () => {
    for (const estado of ['RECIBIDO', 'SOBREPAGO', 'VENCIDO'] as const) expect(applyCredit(payment({ estado }), 1)).toBeNull();
    expect(expiryOf(payment(), new Date('2026-11-21T13:59:59Z'))).toBeNull();
    expect(expiryOf(payment(), new Date('2026-11-21T14:00:00Z'))).toEqual({ from: 'ESPERADO', to: 'VENCIDO', motivo: 'vencimiento' });
    expect(expiryOf(payment({ estado: 'PAGO_PARCIAL', recibido: 10 }), new Date('2026-11-22T00:00:00Z'))).toBeNull();
    expect(canMoveEsperado('PAGO_PARCIAL', 'VENCIDO', 'vencimiento')).toBe(false);
  });
});

describe('which expected payment a credit pays', () => {
  const a = payment({ id: 'a', createdAt: '2026-11-20T13:00:00.000Z' });
  const b = payment({ id: 'b', codigo: 'EXYZ789', createdAt: '2026-11-20T13:30:00.000Z' });

  it('the code in the concept names it whatever the amount', () => {
    expect(paymentForCredit([a, b], credit({ concepto: 'pago exyz 789 pedido', monto: 3 }))?.id).toBe('b');
  });

  it('without a code, the exact amount names the oldest waiting payment; another amount names none', () => {
    expect(paymentForCredit([b, a], credit())?.id).toBe('a');
    expect(paymentForCredit([a, b], credit({ monto: 99 }))).toBeNull();
  });

  it('a credit booked before the payment day or after its expiry pays nothing', () => {
    expect(paymentForCredit([a], credit({ fecha: '2026-11-19' }))).toBeNull();
    // a was created at 09:00 Caracas: a credit of its amount booked at 08:00 that day is someone else's.
    expect(paymentForCredit([a], credit({ hora: '08:00:00' }))).toBeNull();
    expect(paymentForCredit([a], credit({ hora: '08:56:00' }))?.id).toBe('a');
    expect(paymentForCredit([a], credit({ hora: null }))?.id).toBe('a');
    expect(paymentForCredit([a], credit({ fecha: '2026-11-21', hora: '10:00:01' }))).toBeNull();
    expect(paymentForCredit([a], credit({ fecha: '2026-11-21', hora: '09:59:59' }))?.id).toBe('a');
    // A bank that books only the day: the expiry's day is in time, the next is not.
    expect(paymentForCredit([a], credit({ fecha: '2026-11-21', hora: null }))?.id).toBe('a');
    expect(paymentForCredit([a], credit({ fecha: '2026-11-22', hora: null }))).toBeNull();
  });
});
