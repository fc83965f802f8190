import { Type, type Static } from '@sinclair/typebox';

/** Only VES moves over these rails; anything else is refused naming the field (DESIGN formats). */
export const Moneda = Type.Literal('VES', { default: 'VES', description: 'ISO-4217; only VES is accepted' });

export const Monto = Type.Object(
  {
    valor: Type.Number({
      exclusiveMinimum: 0,
      maximum: 999_999_999_999.99,
      multipleOf: 0.01,
      description: 'Positive amount with at most 2 decimals',
    }),
    moneda: Type.Optional(Moneda),
  },
);
export type Monto = Static<typeof Monto>;
