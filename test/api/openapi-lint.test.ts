import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestSwitch, type TestSwitch } from './helpers';

/**
 * The document the switch serves, linted as CI lints it: Redocly's `recommended` rules (redocly.yaml)
 * and Spectral's `oas` ruleset (.spectral.yaml) report nothing, not even a warning.
 */
const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);

let t: TestSwitch;
let dir: string;
let file: string;
beforeAll(async () => {
  t = await startTestSwitch();
  const baseUrl = await t.sw.gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const res = await fetch(`${baseUrl}/openapi.json`);
  expect(res.status).toBe(200);
  dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  file = join(dir, 'openapi.json');
  writeFileSync(file, await res.text());
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The tool's JSON report, whatever its exit status (non-zero when it found something). */
async function report(command: string, args: string[]): Promise<string> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  try {
    return (await run(command, args, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    if (!stdout) throw new Error(`${command} failed: ${stderr}`);
    return stdout;
  }
}

describe('/openapi.json passes the OpenAPI linters with no error and no warning', () => {
  it('Redocly CLI, recommended rules', { timeout: 180_000 }, async () => {
    const out = JSON.parse(await report(bin('redocly'), ['lint', '--config', 'redocly.yaml', '--format', 'json', file])) as {
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    expect(out.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  it("Spectral, the 'spectral:oas' ruleset", { timeout: 180_000 }, async () => {
    const out = JSON.parse(await report(bin('spectral'), ['lint', '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet', file])) as {
      code: string;
      severity: number;
      message: string;
      path: string[];
    }[];
    expect(out.map((p) => `${p.severity} ${p.code} ${p.path.join('.')}: ${p.message}`)).toEqual([]);
  });
});
