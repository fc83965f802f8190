import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
// The generation script's own functions: the committed files are what it would write today.
import { documentText, GENERATION_HOST, generateTypes } from '../../kit/client/scripts/codegen.mjs';
import { startTestSwitch, type TestSwitch } from './helpers';

const CLIENT = resolve(__dirname, '../../kit/client');
const REGENERATE = 'run `npm run build && npm run -w @switch-pagos/client generate` and commit kit/client';

let t: TestSwitch;
let served: unknown;
beforeAll(async () => {
  t = await startTestSwitch();
  const res = await t.inject({ method: 'GET', url: '/openapi.json', headers: { host: GENERATION_HOST } });
  expect(res.statusCode).toBe(200);
  served = res.json();
});
afterAll(() => t?.close());

describe('kit/client is generated from the served OpenAPI document (it cannot drift)', () => {
  it(`kit/client/openapi.json is the document the switch serves (else ${REGENERATE})`, () => {
    expect(readFileSync(resolve(CLIENT, 'openapi.json'), 'utf8')).toBe(documentText(served));
  });

  it(`kit/client/src/schema.ts is openapi-typescript's output for it (else ${REGENERATE})`, async () => {
    expect(readFileSync(resolve(CLIENT, 'src/schema.ts'), 'utf8')).toBe(await generateTypes(served));
  });
});
