import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO, startEmbeddedProcess, type EmbeddedProcess } from './process';

/**
 * The README's walkthrough runs as written against `npm start` (the built embedded switch): its shell
 * block with bash (curl and jq, both required: CI has them), and its TypeScript client block. Only the
 * placeholders a reader fills in are replaced: the printed key and the port.
 */
const run = promisify(execFile);
const SECTION = '## A first payout, collection and query with curl';

function walkthrough(): { shell: string; typescript: string } {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf(SECTION);
  expect(start, 'the README has the walkthrough section').toBeGreaterThanOrEqual(0);
  const next = readme.indexOf('\n## ', start + SECTION.length);
  const section = readme.slice(start, next === -1 ? undefined : next);
  const blocks = (lang: string) => [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
  const [shell, ...moreShell] = blocks('bash');
  const [typescript, ...moreTs] = blocks('ts');
  expect(moreShell.length + moreTs.length, 'one shell block and one TypeScript block').toBe(0);
  return { shell: shell!, typescript: typescript! };
}

let sw: EmbeddedProcess;
beforeAll(async () => {
  // Required, never skipped: CI installs them (.ci/run, "tools").
  for (const tool of ['curl', 'jq']) {
    await run(tool, ['--version']).catch(() => {
      throw new Error(`${tool} is required by the README walkthrough test: apt-get install ${tool}`);
    });
  }
  sw = await startEmbeddedProcess();
});
afterAll(() => sw?.stop());

describe("the README's walkthrough", () => {
  it('the curl commands run as written (with the printed key and port) and do what the comments say', { timeout: 120_000 }, async () => {
    const { shell } = walkthrough();
    expect(shell).toContain("KEY='demo:sk_test_...'");
    expect(shell).toContain('http://127.0.0.1:3000');
    const script = shell.replace("KEY='demo:sk_test_...'", `KEY='${sw.key}'`).replaceAll('http://127.0.0.1:3000', sw.baseUrl);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: REPO, timeout: 100_000 });
    // No command was refused, and each did what its comment says.
    expect(stdout).not.toMatch(/"error":/);
    const id = /^(txn_[0-9a-f]{32})$/m.exec(stdout)?.[1];
    expect(id, stdout).toBeDefined();
    expect(stdout).toMatch(new RegExp(`"id": "${id}",\\s*"estado": "LIQUIDADA"`));
    expect(stdout).toMatch(/^idempotent-replayed: true\r?$/im);
    expect(stdout.match(/"estado": "LIQUIDADA"/g)?.length).toBeGreaterThanOrEqual(2);
    expect(stdout).toMatch(/"estado": "ACEPTADA"/);
    expect(stdout).toMatch(/"estado": "VERIFICADO"/);
    expect(stdout).toMatch(/"disponible":/);
    expect(stdout).toMatch(/"movimientos": \[/);
  });

  it('the TypeScript client block runs as written', { timeout: 60_000 }, async () => {
    const { typescript } = walkthrough();
    const file = join(__dirname, `.readme-client-${process.pid}.ts`);
    writeFileSync(file, `${typescript.replaceAll('http://127.0.0.1:3000', sw.baseUrl)}\nexport {};\n`);
    const logged: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
    vi.stubEnv('KEY', sw.key);
    try {
      await import(/* @vite-ignore */ file);
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
      rmSync(file, { force: true });
    }
    expect(logged).toEqual([['ACEPTADA', false], ['LIQUIDADA']]);
  });
});
