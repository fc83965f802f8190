import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The deployment checks as part of the suite: kustomize renders both overlays, kubeconform validates
 * them against the Kubernetes schemas, the alert rules pass promtool (or Prometheus' own rule parser),
 * the dashboard parses, and every metric they use is one the services export (deploy/metrics.txt).
 */
describe('deployment manifests, dashboard and alerts', () => {
  it('pass ci/check-deploy.sh', () => {
    const run = spawnSync('bash', [resolve(__dirname, '../../ci/check-deploy.sh')], { encoding: 'utf8', timeout: 25 * 60_000 });
    expect(run.status, `${run.stdout}\n${run.stderr}`.slice(-4000)).toBe(0);
    expect(run.stdout).not.toMatch(/FAIL/);
  }, 26 * 60_000);
});
