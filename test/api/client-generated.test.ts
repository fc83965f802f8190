import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTestSwitch, type TestSwitch } from './helpers';

const CLIENT = resolve(__dirname, '../../kit/client');
const REGENERATE = 'run `npm run build && npm run -w @switch-pagos/client generate` and commit kit/client';

let t: TestSwitch;
let served: unknown;
// The generation script's own functions (an ES module): the committed files are what it would write today.
let codegen: Awaited<ReturnType<typeof loadCodegen>>;
const loadCodegen = () => import('../../kit/client/scripts/codegen.mjs');
beforeAll(async () => {
  codegen = await loadCodegen();
  const { GENERATION_HOST } = codegen;
  t = await startTestSwitch();
  const res = await t.inject({ method: 'GET', url: '/openapi.json', headers: { host: GENERATION_HOST } });
  expect(res.statusCode).toBe(200);
  served = res.json();
});
afterAll(() => t?.close());

describe('kit/client is generated from the served OpenAPI document (it cannot drift)', () => {
  it(`kit/client/openapi.json is the document the switch serves (else ${REGENERATE})`, () => {
    expect(readFileSync(resolve(CLIENT, 'openapi.json'), 'utf8')).toBe(codegen.documentText(served));
  });

  it(`kit/client/src/schema.ts is openapi-typescript's output for it (else ${REGENERATE})`, async () => {
    expect(readFileSync(resolve(CLIENT, 'src/schema.ts'), 'utf8')).toBe(await codegen.generateTypes(served));
  });
});
