/**
 * Rules on the alerts (deploy/prometheus/alerts.yaml) and the Grafana dashboard
 * (deploy/grafana/switch-dashboard.json) that promtool does not check: every alert has a severity, a
 * summary and a runbook paragraph that exists; the dashboard is well formed; and every metric the two
 * query is one the services register (their Prometheus registry, imported) or a recording rule. PromQL
 * is parsed with Prometheus' own grammar (@prometheus-io/lezer-promql). Pure: inputs in, findings out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// An ES module package with a CommonJS build: required, as this CommonJS module can.
const { parser } = createRequire(__filename)('@prometheus-io/lezer-promql') as typeof import('@prometheus-io/lezer-promql', { with: {
  'resolution-mode': 'import',
}});

export interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
export interface RuleFile {
  groups: { name: string; rules: Rule[] }[];
}
interface Target {
  expr?: string;
  refId?: string;
  datasource?: { uid?: string };
}
interface Panel {
  id?: number;
  type?: string;
  title?: string;
  gridPos?: { x?: number; y?: number; w?: number; h?: number };
  targets?: Target[];
  datasource?: { uid?: string };
  panels?: Panel[];
}
export interface Dashboard {
  uid?: string;
  title?: string;
  schemaVersion?: number;
  panels?: Panel[];
  templating?: { list: { name: string; type?: string; query?: string | { query?: string } }[] };
}

/** Grafana's reference to the dashboard's data source variable. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a JavaScript template
const GRAFANA_DATASOURCE = '${datasource}';

const rules = (file: RuleFile) => file.groups.flatMap((g) => g.rules);

/** GitHub's anchor for a Markdown heading. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replaceAll(' ', '-');
}

/** Every alert: a severity, a summary and description, and a runbook_url whose file and heading exist. */
export function runbookFindings(file: RuleFile, runbookDir: string): string[] {
  const findings: string[] = [];
  for (const r of rules(file)) {
    if (r.alert === undefined) continue;
    const a = r.alert;
    if (!['critical', 'warning', 'info'].includes(r.labels?.severity ?? ''))
      findings.push(`${a}: severity label must be critical, warning or info`);
    if (!r.annotations?.summary || !r.annotations.description) findings.push(`${a}: summary and description annotations are required`);
    const url = r.annotations?.runbook_url ?? '';
    const m = /\/docs\/runbooks\/([\w.-]+\.md)#([\w-]+)$/.exec(url);
    if (!m) {
      findings.push(`${a}: runbook_url "${url}" does not point at docs/runbooks/<file>.md#<heading>`);
      continue;
    }
    const path = join(runbookDir, m[1]!);
    if (!existsSync(path)) {
      findings.push(`${a}: runbook ${m[1]} does not exist`);
      continue;
    }
    const anchors = new Set(
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) => slug(l.replace(/^#+/, ''))),
    );
    if (!anchors.has(m[2]!)) findings.push(`${a}: ${m[1]} has no heading for #${m[2]}`);
  }
  return findings;
}

function* panels(d: Dashboard): Generator<Panel> {
  for (const p of d.panels ?? []) {
    yield p;
    yield* p.panels ?? [];
  }
}

/** The dashboard's structure: ids, grid, queries, data source and variables. */
export function dashboardFindings(d: Dashboard): string[] {
  const findings: string[] = [];
  if (!d.uid || !d.title || !Number.isInteger(d.schemaVersion)) findings.push('uid, title and schemaVersion are required');
  const defined = new Set((d.templating?.list ?? []).map((v) => v.name));
  const ids = new Set<number | undefined>();
  const cells = new Map<string, string | undefined>();
  for (const p of panels(d)) {
    if (ids.has(p.id)) findings.push(`panel id ${p.id} is used twice`);
    ids.add(p.id);
    const { x = 0, y = 0, w = 0, h = 0 } = p.gridPos ?? {};
    if (x + w > 24) findings.push(`panel "${p.title}" is wider than the grid`);
    for (let i = x; i < x + w; i++) {
      for (let j = y; j < y + h; j++) {
        const other = cells.get(`${i},${j}`);
        if (other !== undefined && other !== p.title) findings.push(`panels "${other}" and "${p.title}" overlap`);
        cells.set(`${i},${j}`, p.title);
      }
    }
    if (p.type === 'row') continue;
    if (!p.targets?.length) findings.push(`panel "${p.title}" has no query`);
    for (const t of p.targets ?? []) {
      if (!t.expr) findings.push(`panel "${p.title}" has a query without expr`);
      if ((t.datasource ?? p.datasource)?.uid !== GRAFANA_DATASOURCE)
        findings.push(`panel "${p.title}" does not use the $datasource variable`);
    }
  }
  const text = JSON.stringify(d.panels ?? []) + JSON.stringify((d.templating?.list ?? []).map((v) => v.query));
  for (const m of text.matchAll(/\$\{?([A-Za-z_]\w*)/g)) {
    const name = m[1]!;
    if (!name.startsWith('__') && !defined.has(name)) findings.push(`variable $${name} is used but not defined`);
  }
  return [...new Set(findings)];
}

/** Grafana's variables are not PromQL: values the parser accepts in their place. */
export function grafanaToPromql(expr: string): string {
  return expr.replace(/\$\{?__(rate_interval|interval|range)(_ms|_s)?\}?/g, '5m').replace(/\$\{?([A-Za-z_]\w*)(:\w+)?\}?/g, 'x');
}

/** Every PromQL expression of the rules and the dashboard, with where it comes from. */
export function expressions(file: RuleFile, d: Dashboard): { src: string; expr: string }[] {
  const out = rules(file).map((r) => ({ src: `alerts.yaml: ${r.alert ?? r.record}`, expr: String(r.expr) }));
  for (const p of panels(d))
    for (const t of p.targets ?? []) if (t.expr) out.push({ src: `dashboard: "${p.title}" ${t.refId}`, expr: grafanaToPromql(t.expr) });
  for (const v of d.templating?.list ?? []) {
    if (v.type !== 'query') continue;
    const q = typeof v.query === 'object' ? v.query.query : v.query;
    const m = /^\s*label_values\((.*),\s*\w+\s*\)\s*$/.exec(q ?? '');
    if (m) out.push({ src: `dashboard variable $${v.name}`, expr: grafanaToPromql(m[1]!) });
  }
  return out;
}

/** The metric names an expression selects, or the place where it does not parse. */
export function metricNames(expr: string): { names: string[]; error?: string } {
  const tree = parser.parse(expr);
  const names = new Set<string>();
  let error: string | undefined;
  tree.iterate({
    enter(node) {
      if (node.type.isError && error === undefined)
        error = `does not parse at ${node.from}: "${expr.slice(Math.max(0, node.from - 20), node.from + 20)}"`;
      if (node.name === 'VectorSelector') {
        const id = node.node.getChild('Identifier');
        if (id) names.add(expr.slice(id.from, id.to));
      }
      if (node.name === 'UnquotedLabelMatcher') {
        const label = node.node.getChild('LabelName');
        const op = node.node.getChild('MatchOp');
        const value = node.node.getChild('StringLiteral');
        if (label && value && op && expr.slice(label.from, label.to) === '__name__' && expr.slice(op.from, op.to) === '=')
          names.add(expr.slice(value.from + 1, value.to - 1));
      }
    },
  });
  return { names: [...names].sort(), ...(error ? { error } : {}) };
}

/** Every metric the rules and the dashboard query is registered by the services, or is a recording rule. */
export function metricNameFindings(file: RuleFile, d: Dashboard, registered: ReadonlySet<string>): string[] {
  const findings: string[] = [];
  const recorded = new Set(rules(file).flatMap((r) => (r.record ? [r.record] : [])));
  const family = (n: string) => registered.has(n) || registered.has(n.replace(/_(bucket|count|sum)$/, ''));
  for (const { src, expr } of expressions(file, d)) {
    const { names, error } = metricNames(expr);
    if (error) findings.push(`${src}: PromQL ${error}`);
    for (const n of names) if (!recorded.has(n) && !family(n)) findings.push(`${src}: ${n} is not a metric the services register`);
  }
  return findings;
}
