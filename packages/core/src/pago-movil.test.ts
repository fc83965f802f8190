import { describe, expect, it } from 'vitest';
import type { CreditoRecibido } from './contracts/bancos';
import { daysToRead, matchPayment, referencesMatch, retryAfter, sandboxConcept, type PagoDeclarado } from './pago-movil';

const credit = (over: Partial<CreditoRecibido> = {}): CreditoRecibido => ({
  banco: 'banco_plaza',
  cuenta: '01380000000000000001',
  referencia: '000123456789',
  fecha: '2026-11-20',
  hora: '10:15:00',
  monto: 150.25,
  concepto: 'PAGO MOVIL',
  pagador: { telefono: '04141234567', identificacion: 'V12345678', banco: '0102' },
  ...over,
});
const pago = (over: Partial<PagoDeclarado> = {}): PagoDeclarado => ({
  monto: 150.25,
  banco_pagador: '0102',
  telefono_pagador: '04141234567',
  referencia: '000123456789',
  fecha: '2026-11-20',
  ...over,
});

describe('references per bank', () => {
  it('match when one ends in the other, leading zeros and separators aside, with the bank minimum of digits', () => {
    expect(referencesMatch('banco_plaza', '000123456789', '123456789')).toBe(true);
    expect(referencesMatch('banco_plaza', '456789', '000123456789')).toBe(true);
    expect(referencesMatch('banco_plaza', '6789', '000123456789')).toBe(false);
    expect(referencesMatch('bnc', '6789', '23456789')).toBe(true);
    expect(referencesMatch('bnc', '789', '23456789')).toBe(false);
    expect(referencesMatch('banco_activo', '0001-2345-6789', '0123456789')).toBe(true);
    expect(referencesMatch('bancaribe', '123456780', '123456789')).toBe(false);
    // Digits a payer gives that start with a zero count as given.
    expect(referencesMatch('banco_activo', '012345', '9876012345')).toBe(true);
    expect(referencesMatch('bancaribe', '000123456789', '123456789')).toBe(true);
  });
});

describe('the window around midnight', () => {
  it('reads the day the payer saw and the next, never a day after today', () => {
    expect(daysToRead('bnc', '2026-11-20', '2026-11-27')).toEqual(['2026-11-20', '2026-11-21']);
    expect(daysToRead('bnc', '2026-11-27', '2026-11-27')).toEqual(['2026-11-27']);
  });
  it('asks to retry while the bank may still book it, not after', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    expect(retryAfter('bnc', '2026-11-27', '2026-11-27', now)).toBe('2026-11-27T12:02:00.000Z');
    expect(retryAfter('bnc', '2026-11-26', '2026-11-27', now)).toBe('2026-11-27T12:02:00.000Z');
    expect(retryAfter('bnc', '2026-11-25', '2026-11-27', now)).toBeNull();
  });
});

describe('matchPayment', () => {
  it('finds the credit with that reference, payer and amount', () => {
    expect(matchPayment('banco_plaza', pago(), [credit({ referencia: '999999999999' }), credit()])).toEqual({
      kind: 'found',
      credits: [credit()],
    });
  });
  it('a reference given with fewer digits still finds it', () => {
    expect(matchPayment('banco_plaza', pago({ referencia: '456789' }), [credit()]).kind).toBe('found');
  });
  it('the same reference and payer with another amount is another amount, naming the credit', () => {
    expect(matchPayment('banco_plaza', pago({ monto: 15.25 }), [credit()])).toEqual({ kind: 'other_amount', credit: credit() });
  });
  it('a payment booked the next day is found; one booked two days later or the day before is not', () => {
    expect(matchPayment('banco_plaza', pago(), [credit({ fecha: '2026-11-21' })]).kind).toBe('found');
    expect(matchPayment('banco_plaza', pago(), [credit({ fecha: '2026-11-22' })]).kind).toBe('not_found');
    expect(matchPayment('banco_plaza', pago(), [credit({ fecha: '2026-11-19' })]).kind).toBe('not_found');
  });
  it("a payer detail the bank gives that contradicts the payer's makes it someone else's payment", () => {
    expect(matchPayment('banco_plaza', pago({ telefono_pagador: '04149999999' }), [credit()]).kind).toBe('not_found');
    expect(matchPayment('banco_plaza', pago({ banco_pagador: '0134' }), [credit()]).kind).toBe('not_found');
    expect(matchPayment('banco_plaza', pago({ identificacion_pagador: 'V1' }), [credit()]).kind).toBe('not_found');
    // A bank that does not give the payer's phone cannot contradict it.
    const silent = credit({ pagador: { telefono: null, identificacion: null, banco: null } });
    expect(matchPayment('banco_plaza', pago({ telefono_pagador: '04149999999' }), [silent]).kind).toBe('found');
  });
  it('ranks the day the payer saw before the next day', () => {
    const next = credit({ fecha: '2026-11-21' });
    const same = credit();
    const r = matchPayment('banco_plaza', pago(), [next, same]);
    expect(r).toEqual({ kind: 'found', credits: [same, next] });
  });
});

it("the sandbox concept tells merchants apart and shows no merchant's id", () => {
  expect(sandboxConcept('m-1')).not.toBe(sandboxConcept('m-2'));
  expect(sandboxConcept('m-1')).not.toContain('m-1');
});
