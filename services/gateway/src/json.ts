/**
 * The gateway's JSON body parser (DESIGN "Bad input"): the raw bytes must be UTF-8, the nesting
 * shallow, every object's keys distinct and none of them a prototype name, and every string free of lone surrogates. A body failing any of these is a client error naming the place, never a 5xx, and it is
 * refused before anything (authentication aside) looks at it.
 */

import { HttpProblem } from '@switch/core/contracts/errors';

/** Deepest nesting a body may have; the deepest valid request (an Instrumento in a body) is 3. */
export const MAX_JSON_DEPTH = 32;

/** A body the parser refuses: 400 VALIDATION with `detail`, or 415 for a charset other than UTF-8. */
export class BodyRefused extends HttpProblem {}

const invalid = (path: string, reason: string) => new BodyRefused('VALIDATION', { detail: { [path || 'body']: reason } });

/** `charset` of a content-type header, lower case, or undefined when it names none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '');
  return match ? match[1]!.toLowerCase() : undefined;
}

/** Every `charset` parameter of a content-type header, lower case (a repeated one must not hide a second charset). */
export function charsetsOf(contentType: string | undefined): string[] {
  return [...(contentType ?? '').matchAll(/;\s*charset\s*=\s*"?([^";\s]*)"?/gi)].map((m) => m[1]!.toLowerCase());
}

/**
 * A lone surrogate (the `u` flag makes a pair one code point, so the class matches a surrogate
 * alone): not Unicode text, unencodable in UTF-8, refused in any string of a body, known field or
 * not. Control characters are a rule of the text fields themselves (their schema pattern, e.g.
 * `nombre`), since unknown fields are ignored.
 */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

export function forbiddenCharacter(text: string): string | null {
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone surrogate';
  return null;
}

/**
 * Keys that name an object's prototype machinery. No contract field is called so, and a copy made
 * with plain assignment (`out[key] = value`) turns `__proto__` into the copy's prototype: refused
 * wherever they appear, known field or not, before anything is built or claimed.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * One pass over the text, before JSON.parse builds anything: bounds the nesting and finds duplicate
 * keys, naming the key path. It tracks structure only; the syntax itself is left to JSON.parse, so
 * on text it does not understand it stops and lets JSON.parse report the error.
 */
export function scanStructure(text: string, maxDepth = MAX_JSON_DEPTH): void {
  interface Frame {
    kind: 'object' | 'array';
    path: string;
    keys: Set<string> | null;
    index: number;
    /** For objects: the next string is a key. */
    expectKey: boolean;
    /** The key (or index) the value being read sits under. */
    current: string;
  }
  const stack: Frame[] = [];
  const n = text.length;
  let i = 0;
  const childPath = (): string => {
    const top = stack[stack.length - 1];
    return top ? join(top.path, top.current) : '';
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // A string: find its end, honouring escapes.
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x5c /* \ */) j += 2;
        else if (d === 0x22) break;
        else j++;
      }
      if (j >= n) return; // unterminated: JSON.parse reports it
      const top = stack[stack.length - 1];
      if (top && top.kind === 'object' && top.expectKey) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          return;
        }
        const path = join(top.path, key);
        if (RESERVED_KEYS.has(key)) throw invalid(path, `is a reserved name (${[...RESERVED_KEYS].join(', ')}): refused`);
        if (top.keys!.has(key)) throw invalid(path, 'duplicate key');
        top.keys!.add(key);
        top.current = key;
        top.expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const path = childPath();
      if (stack.length >= maxDepth) throw invalid(path, `nests deeper than ${maxDepth} levels`);
      const kind = c === 0x7b ? 'object' : 'array';
      stack.push({ kind, path, keys: kind === 'object' ? new Set() : null, index: 0, expectKey: kind === 'object', current: '0' });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.expectKey = true;
      else if (top) top.current = String(++top.index);
    }
    i++;
  }
}

/** Every string (keys too) free of lone surrogates; the first offender is named by its path. */
export function checkText(value: unknown, path = ''): void {
  if (typeof value === 'string') {
    const problem = forbiddenCharacter(value);
    if (problem) throw invalid(path, problem);
  } else if (Array.isArray(value)) {
    value.forEach((v, k) => {
      checkText(v, join(path, String(k)));
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const problem = forbiddenCharacter(k);
      if (problem) throw invalid(join(path, k), `key ${problem}`);
      checkText(v, join(path, k));
    }
  }
}

/** Paths of the strings holding U+FFFD: where a replaced invalid byte sequence landed. */
function replacedPaths(value: unknown, path = '', out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes('\ufffd')) out.push(path || 'body');
  } else if (Array.isArray(value)) {
    value.forEach((v, k) => {
      replacedPaths(v, join(path, String(k)), out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) replacedPaths(v, join(path, k), out);
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Lenient = new TextDecoder('utf-8');

/**
 * Raw body bytes to a value, or a BodyRefused naming what is wrong. `__proto__`, `constructor` and
 * `prototype` keys are refused at any depth (`RESERVED_KEYS`): JSON.parse keeps them as data, but
 * any later copy by assignment would not.
 */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): unknown {
  if (charsetsOf(contentType).some((charset) => charset !== 'utf-8' && charset !== 'utf8')) {
    throw new BodyRefused('UNSUPPORTED_MEDIA_TYPE', {
      message: 'send content-type: application/json with UTF-8 (charset=utf-8 or none)',
    });
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    // Name the fields where the bad bytes sit, when the rest is readable JSON.
    let paths: string[] = [];
    try {
      const lenient = utf8Lenient.decode(raw);
      scanStructure(lenient);
      paths = replacedPaths(JSON.parse(lenient));
    } catch {
      /* unreadable: the body as a whole */
    }
    const detail: Record<string, string> = {};
    for (const p of paths.length ? paths : ['body']) detail[p] = 'must be valid UTF-8';
    throw new BodyRefused('VALIDATION', { detail });
  }
  if (text.trim() === '') throw invalid('body', 'is required');
  scanStructure(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('body', 'must be valid JSON');
  }
  checkText(value);
  return value;
}
