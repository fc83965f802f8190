import { describe, expect, it } from 'vitest';
import { clonePlain } from './clone';

describe('clonePlain', () => {
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
