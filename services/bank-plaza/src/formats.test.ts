import { describe, expect, it } from 'vitest';
import {
  amount,
  fechaFromPlaza,
  fechaToPlaza,
  FormatError,
  horaFromPlaza,
  montoFromPlaza,
  naturalezaFromPlaza,
  phone10,
  phone11,
  phoneFrom10,
  plazaId,
  referenciaFor,
  texto35,
  venezuelanDate,
} from './formats';

describe('instrument conversions', () => {
  it('pads ids to a letter and 11 digits, RIFs to J00 + 9 digits', () => {
    expect(plazaId('V12345678')).toBe('V00012345678');
    expect(plazaId('J123456789')).toBe('J00123456789');
    expect(plazaId('e1')).toBe('E00000000001');
    expect(() => plazaId('X123')).toThrow(FormatError);
    expect(() => plazaId('V-123')).toThrow(FormatError);
  });

  it('keeps v1 phones at 11 digits and drops the 0 for v0 C2P', () => {
    expect(phone11('04141234567')).toBe('04141234567');
    expect(phone10('04141234567')).toBe('4141234567');
    expect(phoneFrom10('4141234567')).toBe('04141234567');
    expect(() => phone10('4141234567')).toThrow(FormatError);
  });

  it('accepts amounts of up to two decimals only', () => {
    expect(amount(10)).toBe(10);
    expect(amount(1234567.89)).toBe(1234567.89);
    expect(() => amount(1.234)).toThrow(FormatError);
    expect(() => amount(0)).toThrow(expect.objectContaining({ motivo: 'MONTO_INVALIDO' }));
  });

  it('cuts texts at 35 characters', () => {
    expect(texto35('x'.repeat(40))).toHaveLength(35);
    expect(texto35('  pago  ')).toBe('pago');
  });

  it('derives a stable 12-digit reference per attempt', () => {
    expect(referenciaFor('txn_a-1')).toMatch(/^[0-9]{12}$/);
    expect(referenciaFor('txn_a-1')).toBe(referenciaFor('txn_a-1'));
    expect(referenciaFor('txn_a-1')).not.toBe(referenciaFor('txn_a-2'));
  });
});

describe('statement conversions', () => {
  it('reads the bank dates and times', () => {
    expect(fechaFromPlaza('20240615')).toBe('2024-06-15');
    expect(fechaFromPlaza('15/06/2024')).toBe('2024-06-15');
    expect(fechaFromPlaza('2024-06-15T10:00:00')).toBe('2024-06-15');
    expect(fechaToPlaza('2024-06-15')).toBe('20240615');
    expect(() => fechaFromPlaza('junio')).toThrow(FormatError);
    expect(horaFromPlaza('093045')).toBe('09:30:45');
    expect(horaFromPlaza('09:30:45')).toBe('09:30:45');
    expect(horaFromPlaza(undefined)).toBeNull();
  });

  it('reads amounts in either decimal style', () => {
    expect(montoFromPlaza(12.5)).toBe(12.5);
    expect(montoFromPlaza('1.234,56')).toBe(1234.56);
    expect(montoFromPlaza('1234.56')).toBe(1234.56);
    expect(() => montoFromPlaza('abc')).toThrow(FormatError);
  });

  it('reads the movement nature, falling back on the sign', () => {
    expect(naturalezaFromPlaza('C', 1)).toBe('credito');
    expect(naturalezaFromPlaza('DB', 1)).toBe('debito');
    expect(naturalezaFromPlaza(undefined, -5)).toBe('debito');
  });

  it('dates in Venezuelan time (UTC-4)', () => {
    expect(venezuelanDate(new Date('2024-06-15T03:59:00Z'))).toBe('2024-06-14');
    expect(venezuelanDate(new Date('2024-06-15T04:00:00Z'))).toBe('2024-06-15');
  });
});
