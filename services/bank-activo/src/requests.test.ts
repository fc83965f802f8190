import { describe, expect, it } from 'vitest';
import {
  caracasDate,
  cedulaActivo,
  fechaActivo,
  fechaIso,
  instrumentoActivo,
  montoActivo,
  parseMontoActivo,
  telefonoActivo,
  telefonoLocal,
  tipoInstrumento,
} from './requests';

describe('Banco Activo formats', () => {
  it('writes amounts with a decimal comma and two decimals', () => {
    expect(montoActivo(150)).toBe('150,00');
    expect(montoActivo(0.1 + 0.2)).toBe('0,30');
    expect(montoActivo(1234.5)).toBe('1234,50');
    expect(montoActivo(999_999_999_999.99)).toBe('999999999999,99');
  });

  it('reads comma amounts, with or without thousands dots', () => {
    expect(parseMontoActivo('1234,56')).toBe(1234.56);
    expect(parseMontoActivo('1.234,56')).toBe(1234.56);
    expect(parseMontoActivo('150')).toBe(150);
    expect(parseMontoActivo('0,5')).toBe(0.5);
    expect(parseMontoActivo('1,2,3')).toBeNull();
    expect(parseMontoActivo('abc')).toBeNull();
    expect(parseMontoActivo(undefined)).toBeNull();
  });

  it('round-trips every cent amount', () => {
    for (const v of [0.01, 0.51, 10.99, 100.07, 12345.67]) expect(parseMontoActivo(montoActivo(v))).toBe(v);
  });

  it('phones go to the CELE form 58 + 10 digits and back', () => {
    expect(telefonoActivo('04141234567')).toBe('584141234567');
    expect(telefonoLocal('584141234567')).toBe('04141234567');
  });

  it('pads legal-entity RIFs to 9 digits and leaves cédulas alone', () => {
    expect(cedulaActivo('V12345678')).toBe('V12345678');
    expect(cedulaActivo('E81234')).toBe('E81234');
    expect(cedulaActivo('J80066227')).toBe('J080066227');
    expect(cedulaActivo('G200001')).toBe('G000200001');
  });

  it('dates are dd/MM/yyyy at the bank', () => {
    expect(fechaActivo('2024-03-05')).toBe('05/03/2024');
    expect(fechaIso('05/03/2024')).toBe('2024-03-05');
    expect(fechaIso('2024-03-05')).toBeNull();
  });

  it('the bank day is the Caracas day (UTC-4)', () => {
    expect(caracasDate(new Date('2024-03-06T03:59:00Z'))).toBe('2024-03-05');
    expect(caracasDate(new Date('2024-03-06T04:00:00Z'))).toBe('2024-03-06');
  });

  it('an instrument becomes exactly one cuenta_ or telefono_ field', () => {
    expect(instrumentoActivo('pago', { tipo: 'cuenta', valor: '01710001000000000001' })).toEqual({ cuenta_pago: '01710001000000000001' });
    expect(instrumentoActivo('benef', { tipo: 'telefono', valor: '04121234567' })).toEqual({ telefono_benef: '584121234567' });
    expect(tipoInstrumento({ tipo: 'cuenta' })).toBe('CNTA');
    expect(tipoInstrumento({ tipo: 'telefono' })).toBe('CELE');
  });
});
