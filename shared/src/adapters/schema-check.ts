import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { SchemaViolation } from '../ports/bus';
import { addMoneyKeywords } from '../contracts/monto';
import type { Topic } from '../contracts/topics';

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

/**
 * Every message on the bus is checked, so the check that passes is the one to make cheap: this one
 * stops at the first problem (the same verdict; measured 20-40 % less time per valid message than
 * listing every problem). A refused payload is checked again by `validatorFor` for its message.
 */
const verdictAjv = projectAjv({ allErrors: false });
const verdicts = new WeakMap<TSchema, ValidateFunction>();

function compiledOnce(compiler: Ajv, cache: WeakMap<TSchema, ValidateFunction>, schema: TSchema): ValidateFunction {
  let check = cache.get(schema);
  if (!check) {
    check = compiler.compile(schema);
    cache.set(schema, check);
  }
  return check;
}

/** Refuses a payload that does not match its topic's schema; every bus adapter calls this before sending. */
export function assertPayload(topic: Topic, value: unknown): void {
  if (compiledOnce(verdictAjv, verdicts, topic.schema)(value)) return;
  const check = validatorFor(topic.schema);
  check(value);
  const problems = (check.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  throw new SchemaViolation(topic.name, problems);
}
