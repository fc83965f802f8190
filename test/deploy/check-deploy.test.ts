import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The deployment checks as part of the suite: kustomize renders both overlays, kubeconform validates
 * them against the Kubernetes schemas, the alert rules pass promtool (or Prometheus' own rule parser),
 * the dashboard parses, and every metric they use is one the services export (deploy/metrics.txt);
 * the production image leaves no bank emulator code (checked statically on the Dockerfile).
 */
describe('deployment manifests, dashboard and alerts', () => {
  it(
    'pass ci/check-deploy.sh',
    () => {
      const run = spawnSync('bash', [resolve(__dirname, '../../ci/check-deploy.sh')], { encoding: 'utf8', timeout: 25 * 60_000 });
      expect(run.status, `${run.stdout}\n${run.stderr}`.slice(-4000)).toBe(0);
      expect(run.stdout).not.toMatch(/FAIL/);
      expect(run.stdout).toMatch(/PASS {2}the production image's build stage leaves no emulator code/);
    },
    26 * 60_000,
  );

  it('the emulator check fails a Dockerfile that would ship an emulator', () => {
    const dockerfile = readFileSync(resolve(__dirname, '../../Dockerfile'), 'utf8');
    const check = (text: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'dockerfile-'));
      try {
        writeFileSync(join(dir, 'Dockerfile'), text);
        return spawnSync(
          'python3',
          [resolve(__dirname, '../../deploy/tools/check_image.py'), join(dir, 'Dockerfile'), resolve(__dirname, '../..')],
          { encoding: 'utf8' },
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    expect(check(dockerfile).status).toBe(0);
    expect(dockerfile).toContain('rm -rf /out/services/*/dist/emulator');
    // Without the deletion, or copying the whole build tree into the runtime stage, it fails.
    expect(check(dockerfile.replace('rm -rf /out/services/*/dist/emulator', 'true')).status).toBe(1);
    expect(check(dockerfile.replace('COPY --from=build /out/ ./', 'COPY --from=build /app/ ./')).status).toBe(1);
    // The test-only emulators stage must not become the default target (the last stage).
    const emulatorsStage = dockerfile.slice(dockerfile.indexOf('# --- emulators'), dockerfile.indexOf('# --- runtime'));
    expect(emulatorsStage).toContain('AS emulators');
    expect(check(`${dockerfile.replace(emulatorsStage, '')}\n${emulatorsStage}`).status).toBe(1);
  });

  it('the policy refuses the test-only emulators with the switch image, or with the switch label', () => {
    const rendered = resolve(__dirname, '../../.cache/deploy-test-only.yaml');
    const build = spawnSync(
      resolve(process.env.HOME ?? '', '.cache/switch-pagos-tools/bin/kustomize'),
      ['build', 'deploy/k8s/overlays/test'],
      {
        cwd: resolve(__dirname, '../..'),
        encoding: 'utf8',
      },
    );
    expect(build.status, build.stderr).toBe(0);
    const policy = (yaml: string) => {
      writeFileSync(rendered, yaml);
      const env = { ...process.env, PYTHONPATH: resolve(process.env.HOME ?? '', '.cache/switch-pagos-tools/python') };
      return spawnSync('python3', [resolve(__dirname, '../../deploy/tools/check_deploy.py'), 'policy', rendered], {
        encoding: 'utf8',
        env,
      });
    };
    expect(policy(build.stdout).status).toBe(0);
    expect(policy(build.stdout.replaceAll('/switch-pagos-emulators:', '/switch-pagos:')).stdout).toMatch(/is not the test-only/);
    expect(policy(build.stdout.replaceAll('part-of: switch-pagos-sandbox', 'part-of: switch-pagos')).stdout).toMatch(
      /must not carry part-of/,
    );
    expect(policy(build.stdout.replaceAll('namespace: switch-test', 'namespace: switch-live')).stdout).toMatch(
      /rendered into a live environment/,
    );
    rmSync(rendered, { force: true });
  });
});
