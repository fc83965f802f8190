import { Type, type SchemaOptions, type TLiteral, type TUnion, type TSchema, type Static } from '@sinclair/typebox';
import type { FuncKeywordDefinition } from 'ajv';

/** A JSON-Schema union of string literals whose static type is the union of the values. */
export function literals<T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<TLiteral<T[number]>[]>;
}

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

/** 4-digit central-bank code of a person's bank (SPEC 2.1). */
export const CodigoBanco = Type.String({ pattern: '^[0-9]{4}$', description: '4-digit central bank code' });

/** V/E natural person, J/G legal entity, P passport; 1 to 9 digits, no separators (DESIGN formats). */
export const Identificacion = Type.String({
  pattern: '^[VEJGP][0-9]{1,9}$',
  description: 'Person-type prefix V, E, J, G or P (upper case) followed by 1 to 9 digits',
  examples: ['V12345678'],
});

export const NumeroCuenta = Type.String({ pattern: '^[0-9]{20}$', description: '20-digit account number' });
export const NumeroTelefono = Type.String({ pattern: '^0[0-9]{10}$', description: '11-digit local mobile number with a leading 0' });

/** Control characters a name must not carry to a bank (CR/LF/NUL break fixed-width and XML rails). */
const NOT_CONTROL = '[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]';
/** Printable text with at least one non-blank character. */
export const NOMBRE_PATTERN = `^${NOT_CONTROL}*[^\\s\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]${NOT_CONTROL}*$`;

/**
 * Origin or destination of money. `valor` depends on `tipo`, expressed as if/then so that a
 * validation error names `valor` rather than a union branch.
 */
export const Instrumento = Type.Object(
  {
    tipo: Type.Union([Type.Literal('cuenta'), Type.Literal('telefono')]),
    valor: Type.String({ description: '20-digit account when tipo=cuenta; 11-digit phone with leading 0 when tipo=telefono' }),
    banco: CodigoBanco,
    identificacion: Identificacion,
    nombre: Type.String({
      minLength: 1,
      maxLength: 40,
      pattern: NOMBRE_PATTERN,
      description: '1 to 40 characters, not all blank; no control characters (C0, DEL, C1, U+2028, U+2029)',
    }),
  },
  {
    allOf: [
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords, not a thenable
      { if: { properties: { tipo: { const: 'cuenta' } }, required: ['tipo'] }, then: { properties: { valor: NumeroCuenta } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords, not a thenable
      { if: { properties: { tipo: { const: 'telefono' } }, required: ['tipo'] }, then: { properties: { valor: NumeroTelefono } } },
    ],
  },
);
export type Instrumento = Static<typeof Instrumento>;

/** Only VES moves over these rails; anything else is refused naming the field (DESIGN formats). */
export const Moneda = Type.Literal('VES', { default: 'VES', description: 'ISO-4217; only VES is accepted' });

/**
 * JSON-Schema keyword `x-max-decimals: n`: a number written with at most n decimals, checked
 * exactly. `multipleOf: 0.01` cannot do it in binary floating point: ajv refuses about one in seven
 * amounts with cents above a million (1234567.89 / 0.01 is 123456788.99999999).
 */
export const MAX_DECIMALS_KEYWORD = 'x-max-decimals';

export function hasAtMostDecimals(value: number, decimals: number): boolean {
  const scale = 10 ** decimals;
  // Both operands of the division are exact, so it gives back `value` only when `value` is the
  // double nearest to a number of at most `decimals` decimals.
  return Number.isFinite(value) && Math.round(value * scale) / scale === value;
}

const validateMaxDecimals: FuncKeywordDefinition['validate'] = function check(decimals: number, data: number): boolean {
  const ok = hasAtMostDecimals(data, decimals);
  (check as { errors?: unknown }).errors = ok
    ? null
    : [{ keyword: MAX_DECIMALS_KEYWORD, message: `must have at most ${decimals} decimals`, params: { limit: decimals } }];
  return ok;
};

/** Register on every ajv instance that validates money (`ajv.addKeyword(maxDecimalsKeyword)`). */
export const maxDecimalsKeyword: FuncKeywordDefinition = {
  keyword: MAX_DECIMALS_KEYWORD,
  type: 'number',
  schemaType: 'number',
  errors: true,
  validate: validateMaxDecimals,
};

/** An ajv plugin adding the money keywords (fastify's `ajv.plugins`). */
export function addMoneyKeywords<A extends { addKeyword(definition: FuncKeywordDefinition): A }>(ajv: A): A {
  return ajv.addKeyword(maxDecimalsKeyword);
}

export const Monto = Type.Object({
  valor: Type.Number({
    exclusiveMinimum: 0,
    maximum: 999_999_999_999.99,
    [MAX_DECIMALS_KEYWORD]: 2,
    description:
      'Positive amount with at most 2 decimals. Test mode with `banco_preferido` naming an emulated bank: ' +
      'the cents pick the outcome, e.g. .51 → RECHAZADA SALDO_INSUFICIENTE, .81 → DESCONOCIDA then LIQUIDADA, ' +
      ".82 → DESCONOCIDA then RECHAZADA, .83 → slow settlement (each bank's table: its `sandbox` in GET /bancos, docs/sandbox.md)",
  }),
  moneda: Type.Optional(Moneda),
});
export type Monto = Static<typeof Monto>;
