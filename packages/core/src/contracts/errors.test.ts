import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOTIVOS_RECHAZO } from '../estados';
import {
  ERROR_CATALOGUE,
  HttpProblem,
  ForbiddenTransition,
  PoisonMessage,
  ERROR_RESPONSE_BODIES,
  type ErrorCode,
  errorCatalogueMarkdown,
  errorStatus,
  HOUSE_ERROR_CODES,
  merchantCodesOf,
} from './errors';

const docs = (name: string) => readFileSync(resolve(__dirname, '../../../../docs', name), 'utf8');

/** The codes an error body schema admits: its `const` or its `enum`. */
const codesOfSchema = (schema: { properties: { error: { const?: string; enum?: string[] } } }) => {
  const error = schema.properties.error;
  return error.const !== undefined ? [error.const] : (error.enum ?? []);
};

describe('the error catalogue', () => {
  it('docs/errors.md lists exactly the catalogue, as it renders it', () => {
    const page = docs('errors.md');
    const listed = /<!-- catalogue:[^\n]*-->\n([\s\S]*?)\n<!-- catalogue end -->/.exec(page)?.[1]?.trim();
    // On a change of the catalogue: `npm run build`, then paste errorCatalogueMarkdown('all') in (docs/errors.md says how).
    expect(listed).toBe(errorCatalogueMarkdown('all'));
    for (const code of HOUSE_ERROR_CODES) expect(page).toContain(`\`${code}\` (${ERROR_CATALOGUE[code].status})`);
  });

  it('every bank refusal code is a motivo_rechazo the API contract documents', () => {
    const contract = docs('api.md');
    const refusals = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code) => !HOUSE_ERROR_CODES.includes(code as never));
    expect(refusals.length).toBeGreaterThan(0);
    for (const code of refusals) {
      expect(MOTIVOS_RECHAZO).toContain(code);
      expect(contract).toMatch(new RegExp(`^\\| ${code} `, 'm'));
    }
  });

  it('each error response body admits exactly the merchant codes of its status', () => {
    for (const [status, schema] of Object.entries(ERROR_RESPONSE_BODIES)) {
      const codes = codesOfSchema(schema as never);
      expect(codes, `status ${status}`).toEqual(merchantCodesOf(Number(status)));
      for (const code of codes) expect(errorStatus(code as ErrorCode)).toBe(Number(status));
    }
  });

  it('a code keeps the status the API contract and the DESIGN give it', () => {
    expect(errorStatus('VALIDATION')).toBe(400);
    expect(errorStatus('unauthorized')).toBe(401);
    expect(errorStatus('NOT_FOUND')).toBe(404);
    expect(errorStatus('IDEMPOTENCY_CONFLICT')).toBe(409);
    expect(errorStatus('BANCO_NO_DISPONIBLE')).toBe(422);
    expect(errorStatus('CUENTA_BLOQUEADA')).toBe(422);
    expect(errorStatus('RATE_LIMITED')).toBe(429);
    expect(errorStatus('SERVICE_UNAVAILABLE')).toBe(503);
    // A code outside the catalogue does not compile (`npm run typecheck` checks this file).
    // @ts-expect-error: NOT_A_CODE is no catalogue code.
    const unknownCode = () => errorStatus('NOT_A_CODE');
    expect(unknownCode).toBeTypeOf('function');
  });

  it('the body schemas keep the contract shapes: 401 is the code alone, 400 always names its fields', () => {
    expect(Object.keys(ERROR_RESPONSE_BODIES[401].properties)).toEqual(['error']);
    expect(ERROR_RESPONSE_BODIES[400].required).toEqual(['error', 'detail']);
    expect(Object.keys(ERROR_RESPONSE_BODIES[409].properties)).toContain('reverso');
  });
});

describe('ForbiddenTransition', () => {
  it('is a PoisonMessage: the bus dead-letters it with its reason instead of retrying it forever', () => {
    const e = new ForbiddenTransition('LIQUIDADA', 'RECHAZADA', 'bank_outcome');
    expect(e).toBeInstanceOf(PoisonMessage);
    expect(e.name).toBe('ForbiddenTransition');
    expect(e.message).toBe('transition LIQUIDADA -> RECHAZADA by bank_outcome is not allowed');
  });
});

describe('HttpProblem', () => {
  it('takes its status from its code, and its body keeps the order the extras are given in', () => {
    const problem = new HttpProblem('REVERSO_EXISTENTE', { message: 'has one', reverso: 'txn_1' });
    expect(problem.statusCode).toBe(409);
    expect(JSON.stringify(problem.body)).toBe('{"error":"REVERSO_EXISTENTE","message":"has one","reverso":"txn_1"}');
    expect(new HttpProblem('CUENTA_BLOQUEADA').statusCode).toBe(422);
    // A code outside the catalogue does not compile (`npm run typecheck` checks this file).
    // @ts-expect-error: NOT_A_CODE is no catalogue code.
    const unknown = () => new HttpProblem('NOT_A_CODE');
    expect(unknown).toBeTypeOf('function');
  });
});
