import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { addMoneyKeywords } from './fields';

/**
 * The same validator options the HTTP edge uses, so a payload valid at the gateway is valid on the
 * bus and the reverse (decimal amounts checked with the same precision, if/then rules honoured).
 */
export const AJV_OPTIONS = { coerceTypes: false, allErrors: true, useDefaults: false, multipleOfPrecision: 8, strict: false } as const;

/** An ajv with the project's options, formats and money keywords: the same rules as the HTTP edge. */
export function projectAjv(overrides: { allErrors?: boolean } = {}): Ajv {
  return addMoneyKeywords(addFormats(new Ajv({ ...AJV_OPTIONS, ...overrides })));
}

const ajv = projectAjv();
const compiled = new WeakMap<TSchema, ValidateFunction>();

/** The project's validator for `schema` (every problem listed), compiled once. */
export function validatorFor(schema: TSchema): ValidateFunction {
  return compiledOnce(ajv, compiled, schema);
}

/** `schema` compiled by `compiler` the first time it is asked for, from `cache` after. */
export function compiledOnce(compiler: Ajv, cache: WeakMap<TSchema, ValidateFunction>, schema: TSchema): ValidateFunction {
  let check = cache.get(schema);
  if (!check) {
    check = compiler.compile(schema);
    cache.set(schema, check);
  }
  return check;
}
