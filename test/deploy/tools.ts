/**
 * The deployment checks' tools, pinned and installed from the package registries on first use, then
 * cached in SWITCH_TOOLS_DIR (default ~/.cache/switch-pagos-tools, outside the work tree, so every clone
 * on a machine shares them; docs/decisions/0150-deploy-checks-in-typescript-and-well-kept-tools.md):
 *   kustomize, kubeconform, conftest   the Go module proxy (`go install module@version`)
 *   promtool                           the Go module proxy, built in a throwaway module (prometheus'
 *                                      go.mod has a replace directive, which `go install` refuses)
 *   Kubernetes JSON schemas            PyPI's kubernetes-validate wheel (`pip download`), which ships them
 *                                      per Kubernetes version
 * Each tool is rebuilt only when its pinned version changes (a stamp file beside it).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const VERSIONS = {
  kustomize: 'v5.8.1',
  kubeconform: 'v0.7.0',
  conftest: 'v0.71.1',
  /** Go module github.com/prometheus/prometheus: Prometheus 3.x's promtool. */
  prometheus: 'v0.315.0',
  /** PyPI kubernetes-validate: the Kubernetes JSON schemas. */
  kubernetesSchemas: '1.37.0',
} as const;

/** Kubernetes versions the manifests are validated against: the oldest supported and the newest. */
export const KUBERNETES_VERSIONS = ['1.30.0', '1.37.0'] as const;

const GO_MODULES = {
  kustomize: 'sigs.k8s.io/kustomize/kustomize/v5',
  kubeconform: 'github.com/yannh/kubeconform/cmd/kubeconform',
  conftest: 'github.com/open-policy-agent/conftest',
} as const;

export const TOOLS_DIR = process.env.SWITCH_TOOLS_DIR ?? join(homedir(), '.cache/switch-pagos-tools');
const BIN = join(TOOLS_DIR, 'bin');

/** Runs a command to its end without blocking the worker's event loop; rejects with its output on failure. */
export async function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { ...options, encoding: 'utf8', maxBuffer: 64 << 20 });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const exited = error as { code?: unknown; stdout?: string; stderr?: string };
    // Not started, or killed (by the timeout): no exit status to answer.
    if (typeof exited.code !== 'number') throw error;
    return { status: exited.code, stdout: exited.stdout ?? '', stderr: exited.stderr ?? '' };
  }
}

async function mustRun(command: string, args: readonly string[], options: Parameters<typeof run>[2] = {}): Promise<string> {
  const r = await run(command, args, options);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`.slice(-4000));
  return r.stdout;
}

const goEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  GOBIN: BIN,
  GOTOOLCHAIN: 'local',
  GOFLAGS: `${process.env.GOFLAGS ? `${process.env.GOFLAGS} ` : ''}-mod=mod`,
});

const stamp = (name: string) => join(BIN, `.${name}.version`);
const current = (name: string, version: string) =>
  existsSync(join(BIN, name)) && existsSync(stamp(name)) && readFileSync(stamp(name), 'utf8').trim() === version;

/** One install at a time per tool within this process (the tests ask for the same tool in parallel). */
const installing = new Map<string, Promise<string>>();
function once(name: string, install: () => Promise<string>): Promise<string> {
  let p = installing.get(name);
  if (!p) {
    p = install();
    installing.set(name, p);
  }
  return p;
}

/** kustomize, kubeconform or conftest: the path of the pinned binary, installed if missing. */
export function goTool(name: keyof typeof GO_MODULES): Promise<string> {
  return once(name, async () => {
    const version = VERSIONS[name];
    if (!current(name, version)) {
      mkdirSync(BIN, { recursive: true });
      await mustRun('go', ['install', `${GO_MODULES[name]}@${version}`], { cwd: TOOLS_DIR, env: goEnv(), timeout: 20 * 60_000 });
      writeFileSync(stamp(name), `${version}\n`);
    }
    return join(BIN, name);
  });
}

/** promtool, built in a throwaway module that requires github.com/prometheus/prometheus (heavy: minutes). */
export function promtool(): Promise<string> {
  return once('promtool', async () => {
    const version = VERSIONS.prometheus;
    if (!current('promtool', version)) {
      const dir = join(TOOLS_DIR, 'src/promtool');
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'go.mod'),
        `module switch-deploy-tools/promtool\n\ngo 1.24\n\nrequire github.com/prometheus/prometheus ${version}\n\n` +
          "// As in prometheus' own go.mod.\nreplace cloud.google.com/go => cloud.google.com/go v0.123.0\n",
      );
      writeFileSync(
        join(dir, 'tools.go'),
        '//go:build tools\n\npackage tools\n\nimport _ "github.com/prometheus/prometheus/cmd/promtool"\n',
      );
      const env = goEnv();
      await mustRun('go', ['mod', 'tidy'], { cwd: dir, env, timeout: 20 * 60_000 });
      await mustRun('go', ['build', '-o', join(BIN, 'promtool'), 'github.com/prometheus/prometheus/cmd/promtool'], {
        cwd: dir,
        env,
        timeout: 20 * 60_000,
      });
      writeFileSync(stamp('promtool'), `${version}\n`);
    }
    return join(BIN, 'promtool');
  });
}

/**
 * The Kubernetes JSON schemas in kubeconform's layout: `<dir>/v<version>-local-strict/<kind>.json`.
 * kubernetes-validate's schemas point their `$ref`s at "/api/_definitions.json" relative to an https
 * `$id`; kubeconform loads one file per kind and cannot resolve that, so the `$id` goes and the refs
 * point at the local _definitions.json.
 */
export function kubernetesSchemas(): Promise<string> {
  return once('schemas', async () => {
    const dir = join(TOOLS_DIR, 'k8s-schemas');
    const want = `kubernetes-validate==${VERSIONS.kubernetesSchemas} ${KUBERNETES_VERSIONS.join(' ')}`;
    const versionFile = join(dir, '.version');
    if (existsSync(versionFile) && readFileSync(versionFile, 'utf8').trim() === want) return dir;
    const download = mkdtempSync(join(tmpdir(), 'k8s-schemas-'));
    try {
      await mustRun(
        'python3',
        [
          '-m',
          'pip',
          'download',
          '--quiet',
          '--disable-pip-version-check',
          '--no-deps',
          '--only-binary=:all:',
          '-d',
          download,
          `kubernetes-validate==${VERSIONS.kubernetesSchemas}`,
        ],
        { timeout: 10 * 60_000 },
      );
      const wheel = readdirSync(download).find((f) => f.endsWith('.whl'));
      if (!wheel) throw new Error('pip downloaded no kubernetes-validate wheel');
      const unpacked = join(download, 'unpacked');
      const wanted = KUBERNETES_VERSIONS.map((v) => `kubernetes_validate/kubernetes-json-schema/v${v}-local-strict/*`);
      await mustRun('unzip', ['-q', join(download, wheel), ...wanted, '-d', unpacked]);
      rmSync(dir, { recursive: true, force: true });
      for (const v of KUBERNETES_VERSIONS) {
        const from = join(unpacked, 'kubernetes_validate/kubernetes-json-schema', `v${v}-local-strict`);
        const to = join(dir, `v${v}-local-strict`);
        mkdirSync(to, { recursive: true });
        const definitions = `file://${join(to, '_definitions.json')}`;
        const files = readdirSync(from).filter((f) => f.endsWith('.json'));
        if (files.length === 0) throw new Error(`no schemas for Kubernetes ${v} in ${wheel}`);
        for (const f of files) {
          const schema = JSON.parse(readFileSync(join(from, f), 'utf8'));
          if (f !== '_definitions.json') delete schema.$id;
          const text = JSON.stringify(schema).replaceAll('"$ref":"/api/_definitions.json', `"$ref":"${definitions}`);
          writeFileSync(join(to, f), f === '_definitions.json' ? JSON.stringify(schema) : text);
        }
      }
      writeFileSync(versionFile, `${want}\n`);
      return dir;
    } finally {
      rmSync(download, { recursive: true, force: true });
    }
  });
}
