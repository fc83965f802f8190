import { describe, expect, it } from 'vitest';
import { decodeDocument, decodeKey, encodeDocument, encodeKey } from './keys';

/** What MongoDB and FerretDB refuse: keys with '.' or a leading '$', and arrays inside arrays. */
function storable(value: unknown, insideArray = false): boolean {
  if (Array.isArray(value)) return !insideArray && value.every((v) => storable(v, true));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([k, v]) => !k.includes('.') && !k.startsWith('$') && storable(v));
  }
  return true;
}

describe('mongo key codec', () => {
  // Parsed from text, as a bank's body is: JSON.parse makes "__proto__" an own data property.
  const bankAnswer = JSON.parse(`{
    "resultado.codigo": "00",
    "$error": { "$code": 5, "det.alle": ["a.b", { "x.y": null }] },
    "a%2Eb": "a literal escape sequence in a key",
    "%": 1,
    "%25%": 2,
    "%array": "a key that looks like the array wrapper",
    "mid$dle": true,
    "": "empty key",
    "__proto__": { "polluted": true },
    "matrix": [[1, 2], [[3], []], [{ "k.k": [[4]] }]],
    "plain": { "nested": [{ "ok": 1 }], "n": null, "f": 10.5 }
  }`);

  it('round-trips arbitrary bank JSON exactly', () => {
    const encoded = encodeDocument(bankAnswer);
    expect(decodeDocument(encoded)).toStrictEqual(bankAnswer);
    expect(Object.keys(decodeDocument(encoded) as object)).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('produces only keys and shapes both servers accept', () => {
    expect(storable(bankAnswer)).toBe(false);
    expect(storable(encodeDocument(bankAnswer))).toBe(true);
  });

  it("leaves ordinary documents untouched, so the switch's fields stay queryable", () => {
    const doc = { estado: 'ACEPTADA', createdAt: '2020-01-01T00:00:00.000Z', history: [{ raw: { codigo: '00' } }], raw: null };
    expect(encodeDocument(doc)).toStrictEqual(doc);
  });

  it('escapes with the documented percent scheme', () => {
    expect(encodeKey('a.b$c%d')).toBe('a%2Eb%24c%25d');
    expect(encodeKey('$set')).toBe('%24set');
    expect(decodeKey('a%2Eb%24c%25d')).toBe('a.b$c%d');
    expect(decodeKey(encodeKey('%2E'))).toBe('%2E');
    expect(encodeDocument([[1]])).toStrictEqual([{ '%array': [1] }]);
    expect(encodeDocument({ '%array': [1] })).toStrictEqual({ '%25array': [1] });
  });
});
