import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository explains itself: every relative link in the README and under `docs/` names a file
 * of this repository, and a link that leaves it goes only to a public standard or tool the page
 * cannot do without.
 */
const REPO = resolve(__dirname, '../..');

/**
 * Hosts a page may link to: the specifications and tools the switch implements or is checked with, and
 * the upstream tracker of a library the project carries a patch for (github.com).
 */
const PUBLIC_REFERENCES = new Set(['schemathesis.readthedocs.io', 'www.standardwebhooks.com', 'modelcontextprotocol.io', 'github.com']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const PAGES = [join(REPO, 'README.md'), ...markdownFiles(join(REPO, 'docs'))];

/** The page's text outside fenced code blocks (examples there are shell or JSON, not links). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** Targets of inline links and images: `[text](target)`, `![alt](target "title")`. */
function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** Paths of the repository named in code spans, such as `docs/operations.md`. */
function namedPages(text: string): string[] {
  return [...prose(text).matchAll(/`((?:docs|infra|kit|services|shared|test|deploy|ci)\/[\w./-]+\.md)`/g)].map((m) => m[1]!);
}

/** What is wrong with the links of `text`, the content of the page at `page`. */
function problemsIn(page: string, text: string): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(text)) {
    if (target.startsWith('#') || target.startsWith('mailto:')) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      const host = URL.canParse(target) ? new URL(target).host : target;
      if (!PUBLIC_REFERENCES.has(host)) problems.push(`${target}: leaves the repository`);
      continue;
    }
    const path = resolve(dirname(page), decodeURIComponent(target.split('#')[0]!));
    if (path !== REPO && !path.startsWith(REPO + sep)) problems.push(`${target}: outside the repository`);
    else if (!existsSync(path)) problems.push(`${target}: no such file`);
  }
  // A link that names a decision record by number leads to that record.
  for (const m of prose(text).matchAll(/\[(?:decision\s+)?(\d{4})\]\(([^)]*?)(\d{4})-[^)]*\)/g)) {
    if (m[1] !== m[3]) problems.push(`[${m[1]}] links to record ${m[3]}`);
  }
  for (const named of namedPages(text)) {
    if (!existsSync(join(REPO, named))) problems.push(`\`${named}\`: no such file`);
  }
  return problems;
}

/** Source, scripts and manifests that may name a documentation page in a comment. */
const CODE_DIRS = ['shared', 'services', 'kit', 'test', 'infra', 'deploy', 'ci', '.ci'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.cache']);

function codeFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : codeFiles(path);
    return /\.(ts|mjs|cjs|js|ya?ml|sh|patch|md)$|^run$/.test(entry.name) ? [path] : [];
  });
}

/** Where a file names a documentation page (`docs/….md`) that does not exist. */
function missingPagesNamedIn(text: string): string[] {
  return [...text.matchAll(/\bdocs\/[\w./-]+?\.md\b/g)].map((m) => m[0]).filter((page) => !existsSync(join(REPO, page)));
}

describe('the documentation links', () => {
  it('finds the pages', () => {
    expect(PAGES.map((p) => relative(REPO, p))).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/api.md']));
  });

  it.each(PAGES.map((p) => [relative(REPO, p), p]))('%s: every link resolves inside the repository', (_name, page) => {
    expect(problemsIn(page, readFileSync(page, 'utf8'))).toEqual([]);
  });

  it('every documentation page named in the code, scripts and manifests exists', () => {
    const self = resolve(__filename);
    const files = CODE_DIRS.flatMap((dir) => codeFiles(join(REPO, dir))).filter((file) => file !== self);
    expect(files.map((f) => relative(REPO, f))).toEqual(expect.arrayContaining(['services/router/src/actor.ts', '.ci/run']));
    const missing = files.flatMap((file) =>
      missingPagesNamedIn(readFileSync(file, 'utf8')).map((page) => `${relative(REPO, file)}: ${page}`),
    );
    expect(missing).toEqual([]);
    expect(missingPagesNamedIn('see docs/decisions/0017-failing-message-handlers.md and docs/gone.md')).toEqual(['docs/gone.md']);
  });

  it('reads links the way a markdown renderer does', () => {
    const sample = [
      'See [the API](api.md#errors), ![a picture](panel/login.png "Login") and [a site](https://example.org).',
      '```bash',
      'echo "[not a link](nowhere.md)"',
      '```',
      'A page named in code: `docs/benchmarks.md`.',
    ].join('\n');
    expect(linkTargets(sample)).toEqual(['api.md#errors', 'panel/login.png', 'https://example.org']);
    expect(namedPages(sample)).toEqual(['docs/benchmarks.md']);
  });

  it('refuses a link that leaves the repository or names a missing file', () => {
    const page = join(REPO, 'docs', 'example.md');
    const text = [
      '[outside](../../outside/SPEC.md) [missing](missing.md) [a site](https://example.org/x)',
      '[fine](api.md) [a standard](https://www.standardwebhooks.com/) [anchor](#errors) `docs/nowhere.md`',
      '[decision 0017](decisions/0018-persist-then-announce.md)',
    ].join('\n');
    expect(problemsIn(page, text)).toEqual([
      '../../outside/SPEC.md: outside the repository',
      'missing.md: no such file',
      'https://example.org/x: leaves the repository',
      '[0017] links to record 0018',
      '`docs/nowhere.md`: no such file',
    ]);
  });
});
