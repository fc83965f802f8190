import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import { addMoneyKeywords, hasAtMostDecimals, Monto } from './fields';

describe('amounts with at most 2 decimals', () => {
  it('accepts every amount written with cents, however large (ajv multipleOf 0.01 does not)', () => {
    for (const s of ['0.01', '0.1', '1.1', '19.99', '947376.69', '1234567.89', '4451510.44', '5373260801.24', '999999999999.99']) {
      expect(hasAtMostDecimals(Number(s), 2), s).toBe(true);
    }
    // A deterministic sweep of cents across magnitudes.
    let cents = 1;
    for (let i = 0; i < 20_000; i++) {
      cents = (cents * 48271 + 11) % 99_999_999_999_999;
      const s = (cents / 100).toFixed(2);
      expect(hasAtMostDecimals(Number(s), 2), s).toBe(true);
    }
  });

  it('refuses a third decimal and non-finite numbers', () => {
    for (const v of [10.005, 0.001, 1234567.891, 19.999, 0.015, NaN, Infinity]) expect(hasAtMostDecimals(v, 2), String(v)).toBe(false);
    expect(hasAtMostDecimals(10, 0)).toBe(true);
    expect(hasAtMostDecimals(10.5, 0)).toBe(false);
  });

  it('the Monto schema, with the keyword registered, names the field and the reason', () => {
    const ajv = addMoneyKeywords(new Ajv({ allErrors: true }));
    const check = ajv.compile(Monto);
    expect(check({ valor: 1234567.89, moneda: 'VES' })).toBe(true);
    expect(check({ valor: 10.005 })).toBe(false);
    expect(check.errors).toEqual([expect.objectContaining({ instancePath: '/valor', message: 'must have at most 2 decimals' })]);
  });
});
