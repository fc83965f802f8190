import { describe, expect, it } from 'vitest';
import { BodyRefused, charsetOf, parseJsonBody, scanStructure } from './json';

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof BodyRefused) return { status: e.statusCode, body: e.body };
    throw e;
  }
  throw new Error('not refused');
};

describe('the gateway JSON parser', () => {
  it('parses ordinary bodies as JSON.parse does', () => {
    const text = '{"a":[1,{"b":"x\\"y","c":[[],{}]}],"d":null,"e":"\\u00e9😀","f":-1.5e3}';
    expect(parseJsonBody(Buffer.from(text), 'application/json')).toEqual(JSON.parse(text));
  });

  it('counts depth through strings holding brackets and escaped quotes without being fooled', () => {
    expect(() => scanStructure(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`)).not.toThrow();
    expect(() => scanStructure(`{"a":${'['.repeat(32)}${']'.repeat(32)}}`)).toThrow(BodyRefused);
    expect(() => scanStructure(`${'['.repeat(32)}${']'.repeat(32)}`)).not.toThrow();
  });

  it('names the path of a duplicate key inside arrays and nested objects', () => {
    expect(refusal(() => parseJsonBody(Buffer.from('{"a":[{"x":1},{"y":1,"y":2}]}'), undefined)).body).toEqual({
      error: 'VALIDATION',
      detail: { 'a.1.y': 'duplicate key' },
    });
    // The same key in sibling objects is no duplicate.
    expect(() => parseJsonBody(Buffer.from('{"a":{"k":1},"b":{"k":1}}'), undefined)).not.toThrow();
  });

  it('leaves malformed text to JSON.parse: 400 must be valid JSON, never a throw of another kind', () => {
    for (const text of ['{', '{"a":', '{"a" 1}', '["\\', '}}}', '{"a":1}}', 'nul', '"\\uZZZZ"']) {
      expect(refusal(() => parseJsonBody(Buffer.from(text), undefined)).status).toBe(400);
    }
  });

  it('reads the charset parameter', () => {
    expect(charsetOf('application/json; charset=UTF-16')).toBe('utf-16');
    expect(charsetOf('application/json;charset="utf-8"')).toBe('utf-8');
    expect(charsetOf('application/json')).toBeUndefined();
  });
});
