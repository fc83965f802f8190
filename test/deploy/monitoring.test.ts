import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { registry } from '@switch/platform/telemetry/metrics';
import { type Dashboard, dashboardFindings, metricNameFindings, metricNames, type RuleFile, runbookFindings } from './monitoring';
import { REPO } from './rules';
import { promtool, run } from './tools';

/**
 * The alerts and the dashboard: promtool checks and unit-tests the rules; the Prometheus Operator's
 * copy is generated from them; every alert has a runbook paragraph; the dashboard is well formed; and
 * every metric either queries is one the services register (their registry, imported).
 */
const RULES = 'deploy/prometheus/alerts.yaml';
const RULE_TESTS = 'deploy/prometheus/alerts.test.yaml';
const RUNBOOKS = join(REPO, 'docs/runbooks');
const alerts = (): RuleFile => parse(readFileSync(join(REPO, RULES), 'utf8')) as RuleFile;
const dashboard = (): Dashboard => JSON.parse(readFileSync(join(REPO, 'deploy/grafana/switch-dashboard.json'), 'utf8')) as Dashboard;
let registered: Set<string>;

beforeAll(async () => {
  registered = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
});

describe('alert rules (promtool)', () => {
  beforeAll(() => promtool(), 30 * 60_000);

  it(`${RULES} passes promtool check rules`, async () => {
    const r = await run(await promtool(), ['check', 'rules', RULES], { cwd: REPO });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });

  it(`${RULE_TESTS} passes promtool test rules`, async () => {
    const r = await run(await promtool(), ['test', 'rules', RULE_TESTS], { cwd: REPO });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });

  it('promtool refuses a rule whose PromQL does not parse', async () => {
    const broken = alerts();
    broken.groups[0]!.rules[0]!.expr = 'sum by (namespace) (rate(http_requests_total[5m])';
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    try {
      writeFileSync(join(dir, 'alerts.yaml'), stringify(broken));
      const r = await run(await promtool(), ['check', 'rules', join(dir, 'alerts.yaml')]);
      expect(r.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the Prometheus Operator's rules (deploy/k8s/base/monitoring/prometheusrule.yaml)", () => {
  it(`hold the groups of ${RULES} (bash deploy/prometheus/render-prometheusrule.sh writes them)`, () => {
    const copy = parse(readFileSync(join(REPO, 'deploy/k8s/base/monitoring/prometheusrule.yaml'), 'utf8')) as { spec: RuleFile };
    expect(copy.spec.groups).toEqual(alerts().groups);
  });
});

describe('runbooks', () => {
  it('every alert has a severity, a summary and a runbook paragraph that exists', () => {
    expect(runbookFindings(alerts(), RUNBOOKS)).toEqual([]);
  });

  it('a missing runbook heading, file or severity is found', () => {
    const broken = alerts();
    const [a, b, c] = broken.groups.flatMap((g) => g.rules).filter((r) => r.alert);
    a!.annotations!.runbook_url = a!.annotations!.runbook_url!.replace(/#.*$/, '#no-such-heading');
    b!.annotations!.runbook_url = `https://git.example.com/switch-pagos/blob/main/${['docs', 'runbooks', 'nowhere.md'].join('/')}#x`;
    c!.labels!.severity = 'page';
    const findings = runbookFindings(broken, RUNBOOKS).join('\n');
    expect(findings).toMatch(/has no heading for #no-such-heading/);
    expect(findings).toMatch(/runbook nowhere.md does not exist/);
    expect(findings).toMatch(/severity label must be critical, warning or info/);
  });
});

describe('the Grafana dashboard', () => {
  it('is well formed: unique ids, panels within the grid and apart, a query each, the $datasource variable, variables defined', () => {
    expect(dashboardFindings(dashboard())).toEqual([]);
  });

  it('a repeated id, an overlap, a missing query or an undefined variable is found', () => {
    const d = dashboard();
    const leaves = (d.panels ?? []).flatMap((p) => [p, ...(p.panels ?? [])]).filter((p) => p.type !== 'row');
    const [a, b, c] = leaves;
    b!.id = a!.id;
    b!.gridPos = { ...a!.gridPos };
    c!.targets = [];
    a!.targets![0]!.expr = 'sum(rate(http_requests_total{namespace="$nowhere"}[5m]))';
    const findings = dashboardFindings(d).join('\n');
    expect(findings).toMatch(/panel id \d+ is used twice/);
    expect(findings).toMatch(/overlap/);
    expect(findings).toMatch(/has no query/);
    expect(findings).toMatch(/variable \$nowhere is used but not defined/);
  });
});

describe('metric names', () => {
  it('every metric the alerts and the dashboard query is registered by the services', () => {
    expect(metricNameFindings(alerts(), dashboard(), registered)).toEqual([]);
  });

  it('are read with PromQL grammar: selectors and __name__ matchers, not functions, labels or keywords', () => {
    expect(metricNames('sum by (bank) (rate(switch_bank_calls_total{outcome="settled"}[5m])) / on() group_left {__name__="up"}')).toEqual({
      names: ['switch_bank_calls_total', 'up'],
    });
    expect(metricNames('sum(rate(x_total[5m])').error).toMatch(/does not parse/);
  });

  it('a name the services do not register, or PromQL that does not parse, is found', () => {
    const broken = alerts();
    broken.groups[0]!.rules[0]!.expr = 'sum(rate(switch_no_such_metric_total[5m]))';
    broken.groups[0]!.rules[1]!.expr = 'sum(rate(http_requests_total[5m])';
    const findings = metricNameFindings(broken, dashboard(), registered).join('\n');
    expect(findings).toMatch(/switch_no_such_metric_total is not a metric the services register/);
    expect(findings).toMatch(/PromQL does not parse/);
  });
});
