import { Type, type SchemaOptions, type TLiteral, type TUnion } from '@sinclair/typebox';

/** A JSON-Schema union of string literals whose static type is the union of the values. */
export function literals<T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnion<TLiteral<T[number]>[]>;
}
