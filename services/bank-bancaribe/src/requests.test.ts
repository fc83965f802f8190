import { describe, expect, it } from 'vitest';
import { caracasDate, fechaBanco, fechaIso, FormatError, identificacion, monto, parseMonto, telefono, telefonoCele } from './requests';

describe('Bancaribe instrument formats', () => {
  it('keeps 11-digit phones and refuses anything else', () => {
    expect(telefono('04141234114')).toBe('04141234114');
    expect(() => telefono('4141234114')).toThrow(FormatError);
    expect(() => telefono('584141234114')).toThrow(FormatError);
  });

  it('writes a phone as the CCE CELE instrument with country code 58', () => {
    expect(telefonoCele('04141234114')).toBe('584141234114');
  });

  it('keeps persons as given and pads RIFs of J and G to 9 digits', () => {
    expect(identificacion('V12345114')).toBe('V12345114');
    expect(identificacion('E81234567')).toBe('E81234567');
    expect(identificacion('J12114')).toBe('J000012114');
    expect(identificacion('G200000001')).toBe('G200000001');
    expect(() => identificacion('V-12345')).toThrow(FormatError);
  });

  it('writes amounts with a dot and exactly 2 decimals', () => {
    expect(monto(5)).toBe('5.00');
    expect(monto(1234.5)).toBe('1234.50');
    expect(monto(0.07)).toBe('0.07');
    expect(monto(1234567.89)).toBe('1234567.89');
    expect(monto(999999999999.99)).toBe('999999999999.99');
    expect(() => monto(1.005)).toThrow(FormatError);
    expect(() => monto(-1)).toThrow(FormatError);
  });

  it('reads amounts given as numbers or dot-decimal strings', () => {
    expect(parseMonto(150)).toBe(150);
    expect(parseMonto('5.00')).toBe(5);
    expect(parseMonto('-12.5')).toBe(-12.5);
    expect(parseMonto('1.234,56')).toBeNull();
    expect(parseMonto(null)).toBeNull();
  });

  it('converts dates between YYYY-MM-DD and dd/MM/yyyy', () => {
    expect(fechaBanco('2025-03-07')).toBe('07/03/2025');
    expect(fechaIso('07/03/2025')).toBe('2025-03-07');
    expect(fechaIso('2025-03-07')).toBeNull();
    expect(() => fechaBanco('07/03/2025')).toThrow(FormatError);
  });

  it("turns the day at Caracas' midnight (UTC-4)", () => {
    expect(caracasDate(new Date('2025-03-08T03:59:59Z'))).toBe('2025-03-07');
    expect(caracasDate(new Date('2025-03-08T04:00:00Z'))).toBe('2025-03-08');
  });
});
