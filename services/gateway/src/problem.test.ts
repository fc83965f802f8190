import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HttpProblem, sendError } from './problem';

const services = resolve(__dirname, '../..');

/** The TypeScript sources (tests aside) of the services that answer HTTP. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('errors are answered through the catalogue only', () => {
  it('no route writes an error code of its own: no literal `error: CODE` body, no hand-set error status', () => {
    const offenders: string[] = [];
    for (const file of ['gateway/src', 'panel/src'].flatMap((dir) => sources(join(services, dir)))) {
      const text = readFileSync(file, 'utf8');
      const literal = /\berror: '(?:[A-Z][A-Z_]{3,}|unauthorized)'/.exec(text);
      if (literal) offenders.push(`${relative(services, file)}: ${literal[0]}`);
    }
    expect(offenders).toEqual([]);
  });

  it('a problem takes its status from its code, and its body keeps the order the extras are given in', () => {
    const problem = new HttpProblem('REVERSO_EXISTENTE', { message: 'has one', reverso: 'txn_1' });
    expect(problem.statusCode).toBe(409);
    expect(JSON.stringify(problem.body)).toBe('{"error":"REVERSO_EXISTENTE","message":"has one","reverso":"txn_1"}');
    expect(new HttpProblem('CUENTA_BLOQUEADA').statusCode).toBe(422);
    // A code outside the catalogue does not compile (`npm run typecheck` checks this file).
    // @ts-expect-error: NOT_A_CODE is no catalogue code.
    const unknown = () => new HttpProblem('NOT_A_CODE');
    // @ts-expect-error: the same for a reply.
    const unknownReply = () => sendError(null as never, 'NOT_A_CODE');
    expect([unknown, unknownReply]).toHaveLength(2);
  });
});
