import { Type, type Static } from '@sinclair/typebox';
import type { FuncKeywordDefinition } from 'ajv';

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
      'Positive amount with at most 2 decimals. Test mode with `banco_preferido` naming an emulated bank (`sandbox` in GET /bancos): ' +
      'the cents pick the outcome, e.g. .51 → RECHAZADA SALDO_INSUFICIENTE, .81 → DESCONOCIDA then LIQUIDADA, ' +
      ".82 → DESCONOCIDA then RECHAZADA, .83 → slow settlement (each bank's table: `banco_preferido`, docs/sandbox.md)",
  }),
  moneda: Type.Optional(Moneda),
});
export type Monto = Static<typeof Monto>;
