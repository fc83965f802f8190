import type { TSchema } from '@sinclair/typebox';

/**
 * Free text a merchant sends (`nombre`, `concepto`, a merchant's name) reaches the banks' messages,
 * the payer's statement and the panel. Besides letters of any script (accents, ñ, ü), digits, spaces,
 * punctuation and symbols (emoji included), it must not carry characters that are invisible or
 * change how the text around them reads:
 *
 * - controls: C0, DEL, C1, and the line and paragraph separators U+2028, U+2029;
 * - format characters: bidi marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
 *   U+202A–U+202E, U+2066–U+2069), zero-width characters and joiners (U+200B–U+200D, U+2060–U+2064),
 *   the byte order mark U+FEFF, the soft hyphen U+00AD, U+180E, U+FFF9–U+FFFB;
 * - private use U+E000–U+F8FF and the noncharacters U+FDD0–U+FDEF, U+FFFE, U+FFFF.
 *
 * The class is Basic Multilingual Plane `\u` escapes only, so every validator reads it the same with
 * or without Unicode patterns (ajv, the response serializer, Python's `re` in schemathesis). The
 * invisible characters beyond that plane (tags U+E0000–U+E007F, private use of planes 15 and 16,
 * the noncharacters of planes 1–16) are not text in any field: the gateway's JSON parser refuses them
 * in every string of a body (ASTRAL_INVISIBLE).
 */
export const INVISIBLE_CLASS =
  '\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f' +
  '\\ue000-\\uf8ff\\ufdd0-\\ufdef\\ufeff\\ufff9-\\ufffb\\ufffe\\uffff';

/** Tags, private use of planes 15 and 16, and every astral plane's two noncharacters (as code points: a `u` pattern). */
export const ASTRAL_INVISIBLE =
  /[\u{E0000}-\u{E007F}\u{F0000}-\u{10FFFF}]|[\u{1FFFE}\u{1FFFF}\u{2FFFE}\u{2FFFF}\u{3FFFE}\u{3FFFF}\u{4FFFE}\u{4FFFF}\u{5FFFE}\u{5FFFF}\u{6FFFE}\u{6FFFF}\u{7FFFE}\u{7FFFF}\u{8FFFE}\u{8FFFF}\u{9FFFE}\u{9FFFF}\u{AFFFE}\u{AFFFF}\u{BFFFE}\u{BFFFF}\u{CFFFE}\u{CFFFF}\u{DFFFE}\u{DFFFF}\u{EFFFE}\u{EFFFF}]/u;

/** Text of visible characters (see INVISIBLE_CLASS), possibly blank. */
export const TEXT_PATTERN = `^[^${INVISIBLE_CLASS}]*$`;
/** Text of visible characters with at least one that is not blank. */
export const NONBLANK_TEXT_PATTERN = `^[^${INVISIBLE_CLASS}]*[^\\s${INVISIBLE_CLASS}][^${INVISIBLE_CLASS}]*$`;

/** What the schemas' descriptions and the 400's `detail` say about it. */
export const TEXT_RULE =
  'letters of any script (accents, ñ, ü), digits, spaces, punctuation and symbols; no control characters nor invisible ones (C0, DEL, C1, U+2028/2029, bidi marks and overrides, zero-width characters, U+FEFF, soft hyphen, tags, private use, noncharacters)';

const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'u');

/** Whether `text` holds a character the text fields refuse (either class). */
export const hasInvisibleCharacter = (text: string): boolean => INVISIBLE.test(text) || ASTRAL_INVISIBLE.test(text);

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
