import { describe, expect, it } from 'vitest';
import { caracasDate as venezuelanDate, FormatError } from '@switch/connector-kit/formats';
import { fechaFromPlaza, fechaToPlaza, horaFromPlaza, montoFromPlaza, naturalezaFromPlaza } from './responses';

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
