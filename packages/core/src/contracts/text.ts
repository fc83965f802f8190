import type { TSchema } from '@sinclair/typebox';

/**
 * Free text a merchant sends (`nombre`, `concepto`, a merchant's name) reaches the banks' messages,
 * the payer's statement and the panel. Besides letters of any script (accents, ñ, ü), digits, spaces,
 * punctuation and symbols, it must not carry characters that are invisible or change how the text
 * around them reads:
 *
 * - controls: C0, DEL, C1, and the line and paragraph separators U+2028, U+2029;
 * - format characters: bidi marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
 *   U+202A–U+202E, U+2066–U+2069), zero-width characters and joiners (U+200B–U+200D, U+2060–U+2064),
 *   the byte order mark U+FEFF, the soft hyphen U+00AD, U+180E, U+FFF9–U+FFFB;
 * - private use U+E000–U+F8FF and the noncharacters U+FDD0–U+FDEF, U+FFFE, U+FFFF;
 * - and every character beyond the Basic Multilingual Plane (emoji, tags U+E0000–U+E007F, private use
 *   of planes 15 and 16, astral noncharacters): bank messages carry BMP text, and an astral character
 *   is where invisible tags and private-use glyphs hide.
 *
 * The rule is written as a positive class of the visible BMP characters, in `\u` escapes only, so every
 * validator reads it the same with or without Unicode patterns: ajv (`u` flag, one code point per
 * astral character, outside the class), a validator without it (two surrogates, outside the class too),
 * and Python's `re` in schemathesis. One rule: the schemas' pattern is what the server refuses.
 */
const INVISIBLE_CLASS =
  '\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f' +
  '\\ue000-\\uf8ff\\ufdd0-\\ufdef\\ufeff\\ufff9-\\ufffb\\ufffe\\uffff';

/** The visible characters of the Basic Multilingual Plane: all of it but INVISIBLE_CLASS and the surrogates. */
const VISIBLE_CLASS = complementInBmp(`${INVISIBLE_CLASS}\\ud800-\\udfff`);

/** Text of visible characters (see above), at least one. */
export const TEXT_PATTERN = `^[${VISIBLE_CLASS}]+$`;
/** Text of visible characters, at least one of them not blank. */
export const NONBLANK_TEXT_PATTERN = `^(?!\\s*$)[${VISIBLE_CLASS}]*$`;

/** What the schemas' descriptions and the 400's `detail` say about it. */
export const TEXT_RULE =
  'letters of any script (accents, ñ, ü), digits, spaces, punctuation and symbols of the Basic Multilingual Plane; no control characters nor invisible ones (C0, DEL, C1, U+2028/2029, bidi marks and overrides, zero-width characters, U+FEFF, soft hyphen, private use, noncharacters), nor characters beyond U+FFFF (emoji, tags)';

/** The BMP code points outside `cls` (a class body of `\uXXXX` and `\uXXXX-\uXXXX`), as a class body. */
function complementInBmp(cls: string): string {
  const ranges = [...cls.matchAll(/\\u([0-9a-f]{4})(?:-\\u([0-9a-f]{4}))?/gi)]
    .map((m) => [Number.parseInt(m[1]!, 16), Number.parseInt(m[2] ?? m[1]!, 16)] as const)
    .sort((a, b) => a[0] - b[0]);
  const hex = (n: number) => `\\u${n.toString(16).padStart(4, '0')}`;
  const out: string[] = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) out.push(from - 1 === next ? hex(next) : `${hex(next)}-${hex(from - 1)}`);
    next = Math.max(next, to + 1);
  }
  if (next <= 0xffff) out.push(next === 0xffff ? hex(next) : `${hex(next)}-${hex(0xffff)}`);
  return out.join('');
}

/**
 * The HTTP form of a contract schema: every text pattern of the contracts (`from`, the bus messages'
 * registered one, which the registry's BACKWARD check would not let tighten) replaced by the
 * stricter rule of this file. HTTP validation and the published OpenAPI use this form; the bus keeps
 * the registered one, and only what passed the HTTP form reaches it.
 */
export function httpTextForm<T extends TSchema>(schema: T, replacements: ReadonlyMap<string, { pattern: string; description: string }>): T {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string | symbol, unknown> = {};
    for (const key of Reflect.ownKeys(node)) out[key] = visit((node as Record<string | symbol, unknown>)[key]);
    const replacement = typeof out.pattern === 'string' ? replacements.get(out.pattern) : undefined;
    if (replacement) {
      out.pattern = replacement.pattern;
      out.description = replacement.description;
    }
    return out;
  };
  return visit(schema) as T;
}
