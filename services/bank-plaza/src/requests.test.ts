import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { amount2, FormatError, phone11 } from '@switch/connector-kit/formats';
import { decimalReference, memoryReferenceBook } from '@switch/connector-kit/references';
import { phone10, plazaId, REFERENCIA_DIGITS, referenciaFor, referenciaOf, text35 } from './requests';

const _phoneFrom10 = (t: string) => `0${t}`;

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
    expect(() => phone10('4141234567')).toThrow(FormatError);
  });

  it('accepts amounts of up to two decimals only', () => {
    expect(amount2(10)).toBe(10);
    expect(amount2(1234567.89)).toBe(1234567.89);
    expect(() => amount2(1.234)).toThrow(FormatError);
    expect(() => amount2(0)).toThrow(expect.objectContaining({ motivo: 'MONTO_INVALIDO' }));
  });

  it('cuts texts at 35 characters', () => {
    expect(text35('x'.repeat(40))).toHaveLength(35);
    expect(text35('  pago  ')).toBe('pago');
  });

  it('gives each attempt a stable 12-digit reference from the shared sequence, found again by its orderRef', async () => {
    const book = memoryReferenceBook();
    const a = await referenciaFor(book, 'J123456789', 'txn_a-1');
    expect(a).toMatch(/^[0-9]{12}$/);
    expect(await referenciaFor(book, 'J123456789', 'txn_a-1')).toBe(a);
    expect(await referenciaFor(book, 'J123456789', 'txn_a-2')).not.toBe(a);
    expect(await referenciaOf(book, 'J123456789', 'txn_a-1')).toBe(a);
    expect(await referenciaOf(book, 'J123456789', 'txn_never-1')).toBeNull();
  });

  it('never gives two orders one reference: 1,000,000 transaction ids (UUIDs), 1,000,000 distinct 12-digit references', async () => {
    const book = memoryReferenceBook();
    const seen = new Set<string>();
    for (let i = 0; i < 1_000_000; i++) {
      const ref = await referenciaFor(book, 'J123456789', `txn_${randomUUID().replace(/-/g, '')}-1`);
      expect(ref.length).toBe(REFERENCIA_DIGITS);
      seen.add(ref);
    }
    expect(seen.size).toBe(1_000_000);
  }, 120_000);

  it('refuses a number that no longer fits rather than reuse a reference', () => {
    expect(decimalReference(1, 12)).toBe('000000000001');
    expect(() => decimalReference(1_000_000_000_000, 12)).toThrow();
  });
});
