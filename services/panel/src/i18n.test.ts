import { describe, expect, it } from 'vitest';
import { translate } from './i18n';

describe('translate', () => {
  it('looks up own texts only: a key naming an inherited property shows itself (it threw)', () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(translate('es', key)).toBe(key);
    expect(translate('en', 'login.throttled')).toMatch(/Too many failed attempts/);
    expect(translate('es', 'x {constructor}', { a: 1 })).toBe('x {constructor}');
  });
});
