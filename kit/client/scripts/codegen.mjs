// The one way the client's files are made from the OpenAPI document: the generation script and the
// test that the committed files match the served document (test/api/client-generated.test.ts) both use it.
import openapiTS, { astToString } from 'openapi-typescript';

/** The Host the document is asked with, so its `servers` entry is the same on every run: `npm start`'s address. */
export const GENERATION_HOST = '127.0.0.1:3000';

const HEADER = `/**
 * Generated from the Switch de pagos OpenAPI document (/openapi.json) by openapi-typescript.
 * Do not edit: run \`npm run build && npm run -w @switch-pagos/client generate\`.
 */

`;

/** `src/schema.ts`: the document's paths, operations and named schemas as TypeScript types. */
export async function generateTypes(document) {
  const ast = await openapiTS(document, { alphabetize: false, exportType: false, defaultNonNullable: false });
  return HEADER + astToString(ast);
}

/** `openapi.json`: the document the types were generated from, shipped with the package. */
export function documentText(document) {
  return `${JSON.stringify(document, null, 2)}\n`;
}
