import { describe, expect, it } from 'vitest';
import { clonePlain } from './clone';

describe('clonePlain', () => {
  it('copies a `__proto__` key (as JSON.parse makes it) as an own property: the copy keeps Object.prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":{"__proto__":{"deep":1}}}') as Record<string, unknown>;
    const copy = clonePlain(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(copy.a)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  it('copies own properties only, never inherited ones', () => {
    const value = Object.assign(Object.create({ inherited: 1 }) as object, { own: 2 });
    // A prototype other than Object.prototype goes to structuredClone, which copies own properties too.
    expect(Object.keys(clonePlain(value))).toEqual(['own']);
  });

  it('copies plain objects and arrays deeply, as structuredClone does', () => {
    const value = { a: 1, b: 'x', c: null, d: undefined, e: [1, { f: [2, 3] }], g: { h: { i: true } } };
    const copy = clonePlain(value);
    expect(copy).toStrictEqual(structuredClone(value));
    expect(copy).not.toBe(value);
    expect(copy.e).not.toBe(value.e);
    expect(copy.e[1]).not.toBe(value.e[1]);
    expect(copy.g.h).not.toBe(value.g.h);
    expect('d' in copy).toBe(true);
  });

  it('leaves the original untouched when the copy changes', () => {
    const value = { list: [{ n: 1 }], nested: { n: 1 } };
    const copy = clonePlain(value);
    copy.list[0]!.n = 2;
    copy.list.push({ n: 3 });
    copy.nested.n = 2;
    expect(value).toEqual({ list: [{ n: 1 }], nested: { n: 1 } });
  });

  it('copies other objects with structuredClone (a Date stays a Date, not shared)', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const copy = clonePlain({ at, map: new Map([['k', 1]]) });
    expect(copy.at).toBeInstanceOf(Date);
    expect(copy.at).not.toBe(at);
    expect(copy.at.getTime()).toBe(at.getTime());
    expect(copy.map.get('k')).toBe(1);
  });

  it('returns primitives and null as they are', () => {
    expect(clonePlain(null)).toBeNull();
    expect(clonePlain(3)).toBe(3);
    expect(clonePlain('s')).toBe('s');
  });
});
