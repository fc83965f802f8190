/**
 * The production image ships no bank emulator. The image cannot be built everywhere the checks run, so
 * what makes it emulator-free is asserted on the Dockerfile and the sources:
 *   1. a plain build (no --target) produces the switch: `runtime` is the last stage;
 *   2. the build stage copies the built dist/ folders into /out, deletes every
 *      services/*\/dist/emulator there and fails its own RUN when anything named *emulator* is left,
 *      in that order and in one RUN;
 *   3. the runtime stage takes code only from that /out (and prod-deps' node_modules);
 *   4. no bank's runtime code (src/, tests aside; dist/src when built) imports its emulator, and the
 *      emulator is only the package's ./emulator export, inside dist/emulator (the folder deleted).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A bank package as the rules read it. */
export interface BankPackage {
  name: string;
  /** Its runtime sources and, when built, its dist/src files: path → text. */
  runtime: { path: string; text: string }[];
  packageJson: { main?: string; exports?: Record<string, unknown> };
}

/** [stage name, instructions with their continuation lines joined] per FROM. */
export function stages(dockerfile: string): [string, string[]][] {
  const joined: string[] = [];
  let buf = '';
  for (const line of dockerfile.split('\n')) {
    const s = line.trim();
    if ((!buf && !s) || s.startsWith('#')) continue;
    if (s.endsWith('\\')) {
      buf += `${s.slice(0, -1)} `;
      continue;
    }
    joined.push(buf + s);
    buf = '';
  }
  if (buf) joined.push(buf);
  const out: [string, string[]][] = [];
  for (const ins of joined) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(ins);
    if (from) out.push([from[1] ?? '', []]);
    else out.at(-1)?.[1].push(ins);
  }
  return out;
}

export function imageFindings(dockerfile: string, banks: readonly BankPackage[]): string[] {
  const findings: string[] = [];
  const ordered = stages(dockerfile);
  const byName = new Map(ordered);
  const last = ordered.at(-1)?.[0];
  if (last !== 'runtime') findings.push(`the last stage is "${last}", not "runtime": a plain build would not produce the switch image`);

  const build = byName.get('build');
  if (!build) findings.push('Dockerfile has no "build" stage');
  else {
    const ok = build.some((r) => {
      if (!/^RUN/i.test(r) || !r.includes('/out')) return false;
      const copy = r.indexOf('cp -a');
      const rm = r.search(/rm -rf\s+\/out\/services\/\*\/dist\/emulator\b/);
      const guard = r.search(/!\s*find\s+\/out\s+-path\s+'\*emulator\*'\s*\|\s*grep\s+-q\s+\./);
      return copy >= 0 && rm > copy && guard > rm;
    });
    if (!ok)
      findings.push(
        "build stage: no RUN that copies dist/ into /out, then runs `rm -rf /out/services/*/dist/emulator`, then `! find /out -path '*emulator*' | grep -q .`",
      );
  }

  const runtime = byName.get('runtime');
  if (!runtime) findings.push('Dockerfile has no "runtime" stage');
  for (const ins of runtime ?? []) {
    if (!/^(COPY|ADD)\b/i.test(ins)) continue;
    const from = /--from=(\S+)/.exec(ins)?.[1];
    const src = /^(?:COPY|ADD)\s+(?:--\S+\s+)*(\S+)/i.exec(ins)?.[1] ?? '';
    const allowed =
      (from === 'build' && (src === '/out/' || src === '/out')) || (from === 'prod-deps' && (src === '/app/' || src === '/app'));
    if (!allowed) findings.push(`runtime stage: "${ins}" copies something other than the build stage's /out or prod-deps' node_modules`);
  }

  const importsEmulator = /(?:from|import\(|require\()\s*['"][^'"]*emulator[^'"]*['"]/;
  for (const bank of banks) {
    for (const f of bank.runtime)
      if (importsEmulator.test(f.text)) findings.push(`${f.path}: runtime code imports an emulator (deleted from the image)`);
    const { main = '', exports = {} } = bank.packageJson;
    if (main.includes('emulator') || String(runtimeTarget(exports['.']) ?? '').includes('emulator'))
      findings.push(`${bank.name}/package.json: the main entry points at the emulator`);
    const emulator = runtimeTarget(exports['./emulator']);
    if (emulator !== undefined && !String(emulator).startsWith('./dist/emulator/'))
      findings.push(`${bank.name}/package.json: ./emulator export ${emulator} is outside dist/emulator (the folder the image deletes)`);
  }
  return findings;
}

/** What Node loads for an export: the path, or its `default` condition (`source` serves only the dependency rules). */
function runtimeTarget(entry: unknown): unknown {
  return entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>).default : entry;
}

function files(dir: string, ext: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => ext.test(f) && !f.endsWith('.test.ts'))
    .map((f) => join(dir, f));
}

/** The bank packages that carry an emulator, read from the repository. */
export function bankPackages(root: string): BankPackage[] {
  return readdirSync(join(root, 'services'))
    .filter((n) => n.startsWith('bank-') && existsSync(join(root, 'services', n, 'emulator')))
    .map((name) => {
      const dir = join(root, 'services', name);
      const runtime = [...files(join(dir, 'src'), /\.ts$/), ...files(join(dir, 'dist/src'), /\.js$/)].map((path) => ({
        path: relative(root, path),
        text: readFileSync(path, 'utf8'),
      }));
      return { name, runtime, packageJson: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) };
    });
}
