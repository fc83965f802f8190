import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Runs a command to its end without blocking this worker's event loop, and answers its exit status
 * and output whatever the status. A synchronous child process (spawnSync) held the loop for minutes on
 * a fresh machine, where ci/check-deploy.sh first fetches its tools: vitest's calls from the worker to
 * the main process (a test's progress, `onTaskUpdate`) wait on that loop and give up after 60 s, which
 * fails the whole run with an unhandled error.
 */
async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { ...options, encoding: 'utf8', maxBuffer: 16 << 20 });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const exited = error as { code?: unknown; stdout?: string; stderr?: string };
    // Not started, or killed (by the timeout): no exit status to answer.
    if (typeof exited.code !== 'number') throw error;
    return { status: exited.code, stdout: exited.stdout ?? '', stderr: exited.stderr ?? '' };
  }
}

/**
 * The deployment checks as part of the suite: kustomize renders both overlays, kubeconform validates
 * them against the Kubernetes schemas, the alert rules pass promtool (or Prometheus' own rule parser),
 * the dashboard parses, and every metric they use is one the services export (deploy/metrics.txt);
 * the production image leaves no bank emulator code (checked statically on the Dockerfile).
 */
describe('deployment manifests, dashboard and alerts', () => {
  it(
    'pass ci/check-deploy.sh',
    async () => {
      const checks = await run('bash', [resolve(__dirname, '../../ci/check-deploy.sh')], { timeout: 25 * 60_000 });
      expect(checks.status, `${checks.stdout}\n${checks.stderr}`.slice(-4000)).toBe(0);
      expect(checks.stdout).not.toMatch(/FAIL/);
      expect(checks.stdout).toMatch(/PASS {2}the production image's build stage leaves no emulator code/);
    },
    26 * 60_000,
  );

  it('the emulator check fails a Dockerfile that would ship an emulator', async () => {
    const dockerfile = readFileSync(resolve(__dirname, '../../Dockerfile'), 'utf8');
    const check = async (text: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'dockerfile-'));
      try {
        writeFileSync(join(dir, 'Dockerfile'), text);
        return await run('python3', [
          resolve(__dirname, '../../deploy/tools/check_image.py'),
          join(dir, 'Dockerfile'),
          resolve(__dirname, '../..'),
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    expect((await check(dockerfile)).status).toBe(0);
    expect(dockerfile).toContain('rm -rf /out/services/*/dist/emulator');
    // Without the deletion, or copying the whole build tree into the runtime stage, it fails.
    expect((await check(dockerfile.replace('rm -rf /out/services/*/dist/emulator', 'true'))).status).toBe(1);
    expect((await check(dockerfile.replace('COPY --from=build /out/ ./', 'COPY --from=build /app/ ./'))).status).toBe(1);
    // The test-only emulators stage must not become the default target (the last stage).
    const emulatorsStage = dockerfile.slice(dockerfile.indexOf('# --- emulators'), dockerfile.indexOf('# --- runtime'));
    expect(emulatorsStage).toContain('AS emulators');
    expect((await check(`${dockerfile.replace(emulatorsStage, '')}\n${emulatorsStage}`)).status).toBe(1);
  });

  it('the policy refuses the test-only emulators with the switch image, or with the switch label', async () => {
    const rendered = resolve(__dirname, '../../.cache/deploy-test-only.yaml');
    const build = await run(
      resolve(process.env.HOME ?? '', '.cache/switch-pagos-tools/bin/kustomize'),
      ['build', 'deploy/k8s/overlays/test'],
      {
        cwd: resolve(__dirname, '../..'),
      },
    );
    expect(build.status, build.stderr).toBe(0);
    const policy = (yaml: string) => {
      writeFileSync(rendered, yaml);
      const env = { ...process.env, PYTHONPATH: resolve(process.env.HOME ?? '', '.cache/switch-pagos-tools/python') };
      return run('python3', [resolve(__dirname, '../../deploy/tools/check_deploy.py'), 'policy', rendered], { env });
    };
    expect((await policy(build.stdout)).status).toBe(0);
    expect((await policy(build.stdout.replaceAll('/switch-pagos-emulators:', '/switch-pagos:'))).stdout).toMatch(/is not the test-only/);
    expect((await policy(build.stdout.replaceAll('part-of: switch-pagos-sandbox', 'part-of: switch-pagos'))).stdout).toMatch(
      /must not carry part-of/,
    );
    expect((await policy(build.stdout.replaceAll('namespace: switch-test', 'namespace: switch-live'))).stdout).toMatch(
      /rendered into a live environment/,
    );
    rmSync(rendered, { force: true });
  });
});
