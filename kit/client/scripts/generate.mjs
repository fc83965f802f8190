// npm run -w @switch-pagos/client generate (after `npm run build` at the repository's root):
// asks an in-process switch for its /openapi.json and writes openapi.json and src/schema.ts.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentText, GENERATION_HOST, generateTypes } from './codegen.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const require = createRequire(import.meta.url);
const { startEmbeddedSwitch } = require(join(root, '../../services/embedded/dist/index.js'));
const { createLogger } = require(join(root, '../../packages/platform/dist/telemetry/logger.js'));

const sw = await startEmbeddedSwitch({ log: createLogger('client-generate', 'silent'), config: {} });
try {
  const res = await sw.gateway.app.inject({ method: 'GET', url: '/openapi.json', headers: { host: GENERATION_HOST } });
  if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
  const document = res.json();
  writeFileSync(join(root, 'openapi.json'), documentText(document));
  writeFileSync(join(root, 'src/schema.ts'), await generateTypes(document));
  process.stdout.write('wrote kit/client/openapi.json and kit/client/src/schema.ts\n');
} finally {
  await sw.close();
}
