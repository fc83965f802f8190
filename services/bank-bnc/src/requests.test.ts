import { describe, expect, it } from 'vitest';
import {
  FormatError,
  addDays,
  codigoBancoInt,
  codigoBancoStr,
  daysBetween,
  envelopeReference,
  fechaBnc,
  fechaDesdeBnc,
  identificacionBnc,
  instrumentoSimf,
  montoBnc,
  operationRef,
  otpBnc,
  telefonoBnc,
  telefonoLocal,
  textoBnc,
  venezuelanDate,
} from './requests';

describe('BNC instrument formats', () => {
  it('phones: 11 local digits ↔ 58 and 10 digits', () => {
    expect(telefonoBnc('04141234567')).toBe('584141234567');
    expect(telefonoLocal('584141234567')).toBe('04141234567');
    expect(() => telefonoBnc('4141234567')).toThrow(FormatError);
    expect(() => telefonoLocal('04141234567')).toThrow(FormatError);
  });

  it('ids: type letter and the number padded to 9 digits', () => {
    expect(identificacionBnc('V12345678')).toBe('V012345678');
    expect(identificacionBnc('J123456789')).toBe('J123456789');
    expect(identificacionBnc('E1')).toBe('E000000001');
    expect(() => identificacionBnc('V-12345678')).toThrow(FormatError);
  });

  it('bank codes: int fields and 4-digit strings', () => {
    expect(codigoBancoInt('0102')).toBe(102);
    expect(codigoBancoInt('0191')).toBe(191);
    expect(codigoBancoStr(191)).toBe('0191');
    expect(() => codigoBancoInt('102')).toThrow(FormatError);
  });

  it('amounts: positive numbers of at most 2 decimals, sent as JSON numbers', () => {
    expect(montoBnc(10.01)).toBe(10.01);
    expect(JSON.stringify({ Amount: montoBnc(1234567.89) })).toBe('{"Amount":1234567.89}');
    expect(() => montoBnc(0)).toThrow(FormatError);
    expect(() => montoBnc(1.234)).toThrow(FormatError);
  });

  it('SIMF instruments: 20-digit account CNTA, phone CELE', () => {
    expect(instrumentoSimf({ tipo: 'cuenta', valor: '01020000000000000001' })).toEqual({ account: '01020000000000000001', type: 'CNTA' });
    expect(instrumentoSimf({ tipo: 'telefono', valor: '04241234567' })).toEqual({ account: '584241234567', type: 'CELE' });
  });

  it('texts are cut at 100 characters without control characters; the OTP is an int', () => {
    expect(textoBnc(`a\nb${'x'.repeat(200)}`)).toHaveLength(100);
    expect(textoBnc('a\nb')).toBe('a b');
    expect(otpBnc('12345678')).toBe(12345678);
    expect(() => otpBnc('12ab')).toThrow(FormatError);
  });

  it('references: deterministic, alphanumeric, OperationRef at most 20 characters', () => {
    const orderRef = 'txn_0123456789abcdef0123456789abcdef-1';
    expect(envelopeReference(orderRef)).toMatch(/^[A-Za-z0-9]{1,40}$/);
    expect(envelopeReference(orderRef)).toBe(envelopeReference(orderRef));
    expect(envelopeReference('txn_0123456789abcdef0123456789abcdef-2')).not.toBe(envelopeReference(orderRef));
    // Stripping separators alone would make these two collide.
    expect(envelopeReference('a-b1')).not.toBe(envelopeReference('ab-1'));
    expect(envelopeReference('ABC123')).toBe('ABC123');
    expect(operationRef(orderRef)).toHaveLength(20);
    expect(operationRef(orderRef)).toBe(operationRef(orderRef));
    expect(operationRef(`${orderRef}x`)).not.toBe(operationRef(orderRef));
  });

  it('dates: Venezuelan day (UTC-4), BNC DateTime and dd/MM/yyyy', () => {
    expect(venezuelanDate(new Date('2025-03-02T03:59:59Z'))).toBe('2025-03-01');
    expect(venezuelanDate(new Date('2025-03-02T04:00:00Z'))).toBe('2025-03-02');
    expect(fechaBnc('2024-08-01')).toBe('2024-08-01T00:00:00');
    expect(fechaDesdeBnc('07/08/2024')).toBe('2024-08-07');
    expect(fechaDesdeBnc('7/8/2024')).toBe('2024-08-07');
    expect(daysBetween('2024-01-30', '2024-03-01')).toBe(31);
    expect(addDays('2024-02-28', 2)).toBe('2024-03-01');
  });
});
