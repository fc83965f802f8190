#!/usr/bin/env python3
"""Checks of deploy/ that need a YAML parser; driven by ci/check-deploy.sh (one subcommand per check).

  schemas WHEEL DEST VERSION...        extract Kubernetes JSON schemas from the kubernetes-validate wheel
                                       into kubeconform's layout (refs made local, see below)
  policy RENDERED.yaml...              invariants of the rendered overlays (security, probes, ports,
                                       secrets never inlined, HPA bounds, PDBs, network policies,
                                       Prometheus Operator objects)
  dashboard DASHBOARD.json             structure of the Grafana dashboard
  runbooks RULES.yaml RUNBOOK_DIR      every alert has severity, summary and a runbook_url whose
                                       file and heading exist
  exprs RULES.yaml DASHBOARD.json      print {"src","expr"} JSON lines of every PromQL expression
                                       (Grafana variables replaced) for the PromQL parser helper
  names METRICS.txt RULES.yaml DASHBOARD.json [--parsed FILE]
                                       every metric name the expressions use is in METRICS.txt
  rules-fallback RULES.yaml            structural check of the rule file when promtool is unavailable

Exit status 0 = pass, 1 = fail; findings go to stdout, one per line.
"""
import json
import os
import re
import sys
import zipfile

try:
    import yaml
except ImportError:  # ci/check-deploy.sh installs PyYAML when it is missing
    sys.exit('PyYAML is required (python3 -m pip install pyyaml)')

# --------------------------------------------------------------------------------------------------
# What the manifests must say, from the services' sources (services/*/src/main.ts, shared/src/...)
# --------------------------------------------------------------------------------------------------
SERVICES = {
    # name: (entrypoint inside the image, port, source of the entrypoint)
    'gateway': ('services/gateway/dist/main.js', 3000, 'services/gateway/src/main.ts'),
    'router': ('services/router/dist/main.js', 9101, 'services/router/src/main.ts'),
    'bank-sim': ('services/bank-sim/dist/main.js', 9102, 'services/bank-sim/src/main.ts'),
    'notifier': ('services/notifier/dist/main.js', 9103, 'services/notifier/src/main.ts'),
    'reconciler': ('services/reconciler/dist/main.js', 9104, 'services/reconciler/src/main.ts'),
    'bank-plaza': ('services/bank-plaza/dist/src/main.js', 9105, 'services/bank-plaza/src/main.ts'),
    'bank-bancaribe': ('services/bank-bancaribe/dist/src/main.js', 9106, 'services/bank-bancaribe/src/main.ts'),
    'bank-activo': ('services/bank-activo/dist/src/main.js', 9107, 'services/bank-activo/src/main.ts'),
    'bank-bnc': ('services/bank-bnc/dist/src/main.js', 9108, 'services/bank-bnc/src/main.ts'),
    'panel': ('services/panel/dist/main.js', 9109, 'services/panel/src/main.ts'),
}
# Operator listeners apart from the service's main port (services/gateway/src/config.ts: OPERATOR_PORT):
# /healthz, /readyz, /metrics and the admin API, never exposed by the Ingress, scraped by Prometheus only.
OPERATOR_PORTS = {'gateway': 9100}
# Partitions of the topic each autoscaled consumer reads (shared/src/contracts/topics.ts): more
# replicas than partitions would idle. The gateway reads replies in a private group per pod.
PARTITION_BOUND = {
    'router': 12,  # switch.router.inbox.v2
    'notifier': 12,  # switch.transactions.events.v1
    'bank-plaza': 6, 'bank-bancaribe': 6, 'bank-activo': 6, 'bank-bnc': 6,  # switch.bank.<bank>.requests.v1
}
AUTOSCALED = {'gateway', 'router', 'notifier', 'bank-plaza', 'bank-bancaribe', 'bank-activo', 'bank-bnc'}
BANK_CONNECTORS = {'bank-plaza', 'bank-bancaribe', 'bank-activo', 'bank-bnc'}
# Test-only Deployments (deploy/k8s/overlays/test): name -> the image they must run, never the switch's.
# They are not switch services: their own checks (test_only_one) instead of the services' below.
TEST_ONLY = {'bank-emulators': 'switch-pagos-emulators'}
CRD_KINDS = {'ServiceMonitor', 'PodMonitor', 'PrometheusRule'}
# Variable names that hold secrets: never a literal value, never in a ConfigMap.
SECRET_NAME = re.compile(r'(^MONGO_URL$|^SWITCH_SECRETS_|_API_KEY$|_API_SECRET$|_SECRET$|_TOKEN$|_PASSWORD$|_MASTER_KEY$|_CLIENT_GUID$|_CLIENT_HASH$|_CONSUMER_KEY$)')
PRIVATE_V4 = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '127.0.0.0/8']

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


class Findings:
    def __init__(self):
        self.errors, self.warnings = [], []

    def error(self, msg):
        self.errors.append(msg)

    def warn(self, msg):
        self.warnings.append(msg)

    def check(self, cond, msg):
        if not cond:
            self.error(msg)
        return cond

    def finish(self, ok_msg):
        for w in self.warnings:
            print(f'  warning: {w}')
        for e in self.errors:
            print(f'  error: {e}')
        if not self.errors:
            print(f'  {ok_msg}')
        return 1 if self.errors else 0


# --------------------------------------------------------------------------------------------------
# schemas
# --------------------------------------------------------------------------------------------------
def cmd_schemas(whl, dest, *versions):
    """kubernetes-validate ships, per Kubernetes version, one schema per kind whose $ref point at
    "/api/_definitions.json" relative to an https $id. kubeconform loads one file per kind and cannot
    resolve that, so the $id is dropped and the refs point at the local _definitions.json file."""
    def rewrite(node, url):
        if isinstance(node, dict):
            return {k: (url + v[len('/api/_definitions.json'):] if k == '$ref' and isinstance(v, str) and v.startswith('/api/_definitions.json')
                        else rewrite(v, url)) for k, v in node.items()}
        if isinstance(node, list):
            return [rewrite(v, url) for v in node]
        return node

    with zipfile.ZipFile(whl) as z:
        names = z.namelist()
        for v in versions:
            prefix = f'kubernetes_validate/kubernetes-json-schema/v{v}-local-strict/'
            out = os.path.abspath(os.path.join(dest, f'v{v}-local-strict'))
            os.makedirs(out, exist_ok=True)
            url = 'file://' + os.path.join(out, '_definitions.json')
            n = 0
            for name in names:
                if not name.startswith(prefix) or not name.endswith('.json'):
                    continue
                data = json.loads(z.read(name))
                base = os.path.basename(name)
                if base != '_definitions.json':
                    data.pop('$id', None)
                    data = rewrite(data, url)
                with open(os.path.join(out, base), 'w') as f:
                    json.dump(data, f)
                n += 1
            if n == 0:
                print(f'  error: no schemas for Kubernetes {v} in {whl}')
                return 1
            print(f'  Kubernetes v{v}: {n} schemas')
    return 0


# --------------------------------------------------------------------------------------------------
# policy
# --------------------------------------------------------------------------------------------------
def quantity(q):
    """CPU in cores or memory in bytes."""
    q = str(q)
    units = {'m': 1e-3, 'Ki': 2**10, 'Mi': 2**20, 'Gi': 2**30, 'Ti': 2**40, 'k': 1e3, 'M': 1e6, 'G': 1e9}
    for u in sorted(units, key=len, reverse=True):
        if q.endswith(u):
            return float(q[:-len(u)]) * units[u]
    return float(q)


def matches(selector, labels):
    labels = labels or {}
    for k, v in (selector.get('matchLabels') or {}).items():
        if labels.get(k) != v:
            return False
    for e in selector.get('matchExpressions') or []:
        k, op, vals = e['key'], e['operator'], e.get('values') or []
        if op == 'In' and labels.get(k) not in vals:
            return False
        if op == 'NotIn' and labels.get(k) in vals:
            return False
        if op == 'Exists' and k not in labels:
            return False
        if op == 'DoesNotExist' and k in labels:
            return False
    return True


def documented_secrets():
    path = os.path.join(ROOT, 'deploy', 'k8s', 'secrets.example.yaml')
    out = {}
    with open(path) as f:
        for doc in yaml.safe_load_all(f):
            if doc and doc.get('kind') == 'Secret':
                keys = set((doc.get('stringData') or {}).keys()) | set((doc.get('data') or {}).keys())
                out[doc['metadata']['name']] = keys
    return out


def policy_one(path, f):
    with open(path) as fh:
        docs = [d for d in yaml.safe_load_all(fh) if d]
    by_kind = {}
    for d in docs:
        by_kind.setdefault(d['kind'], []).append(d)
    name = os.path.basename(path)
    dep = {d['metadata']['name']: d for d in by_kind.get('Deployment', [])}
    cms = {d['metadata']['name']: d for d in by_kind.get('ConfigMap', [])}
    secrets_doc = documented_secrets()

    # Namespace: one, and everything namespaced is in it
    nss = by_kind.get('Namespace', [])
    if f.check(len(nss) == 1, f'{name}: expected one Namespace, found {len(nss)}'):
        ns = nss[0]['metadata']['name']
        f.check(nss[0]['metadata'].get('labels', {}).get('pod-security.kubernetes.io/enforce') == 'restricted',
                f'{name}: namespace {ns} does not enforce the "restricted" pod security standard')
        for d in docs:
            if d['kind'] != 'Namespace':
                f.check(d['metadata'].get('namespace') == ns, f'{name}: {d["kind"]}/{d["metadata"]["name"]} is not in namespace {ns}')

    f.check(not by_kind.get('Secret'), f'{name}: renders a Secret: secrets are referenced, never inlined')
    for cm in by_kind.get('ConfigMap', []):
        for k in (cm.get('data') or {}):
            f.check(not SECRET_NAME.search(k), f'{name}: ConfigMap {cm["metadata"]["name"]} holds {k}, which is a secret')

    for n in sorted(set(dep) & set(TEST_ONLY)):
        test_only_one(name, dep.pop(n), by_kind, f)
    f.check(set(dep) == set(SERVICES), f'{name}: Deployments {sorted(dep)} != services {sorted(SERVICES)}')
    hpas = {h['spec']['scaleTargetRef']['name']: h for h in by_kind.get('HorizontalPodAutoscaler', [])}

    for n, d in sorted(dep.items()):
        if n not in SERVICES:
            continue
        main, port, source = SERVICES[n]
        where = f'{name}: Deployment {n}'
        if not os.path.exists(os.path.join(ROOT, source)):
            f.warn(f'{where}: runs {main} but {source} does not exist yet (the pod would crash)')
        pod = d['spec']['template']['spec']
        labels = d['spec']['template']['metadata'].get('labels', {})
        f.check(matches(d['spec']['selector'], labels), f'{where}: selector does not match its pod labels')
        f.check(labels.get('app.kubernetes.io/part-of') == 'switch-pagos', f'{where}: pods lack app.kubernetes.io/part-of=switch-pagos (network policies, PodMonitor)')
        psc = pod.get('securityContext') or {}
        f.check(psc.get('runAsNonRoot') is True, f'{where}: pod securityContext.runAsNonRoot is not true')
        f.check(isinstance(psc.get('runAsUser'), int) and psc['runAsUser'] > 0, f'{where}: runAsUser must be a non-zero number')
        f.check((psc.get('seccompProfile') or {}).get('type') == 'RuntimeDefault', f'{where}: seccompProfile is not RuntimeDefault')
        f.check(pod.get('automountServiceAccountToken') is False, f'{where}: mounts a service account token')
        volumes = {v['name']: v for v in pod.get('volumes') or []}
        f.check(len(pod['containers']) == 1, f'{where}: expected one container')
        c = pod['containers'][0]
        sc = c.get('securityContext') or {}
        f.check(sc.get('allowPrivilegeEscalation') is False, f'{where}: allowPrivilegeEscalation is not false')
        f.check(sc.get('readOnlyRootFilesystem') is True, f'{where}: readOnlyRootFilesystem is not true')
        f.check('ALL' in ((sc.get('capabilities') or {}).get('drop') or []), f'{where}: capabilities do not drop ALL')
        f.check(not sc.get('privileged'), f'{where}: privileged')
        f.check(any(m['mountPath'] == '/tmp' and 'emptyDir' in volumes.get(m['name'], {}) for m in c.get('volumeMounts') or []),
                f'{where}: no emptyDir on /tmp (the root filesystem is read-only)')
        f.check(c.get('command') == ['node', main], f'{where}: command {c.get("command")} != ["node", "{main}"]')
        ports = {p.get('name'): p.get('containerPort') for p in c.get('ports') or []}
        f.check(ports.get('http') == port, f'{where}: container port "http" is {ports.get("http")}, expected {port}')
        op = OPERATOR_PORTS.get(n)
        if op:
            f.check(ports.get('operator') == op, f'{where}: container port "operator" is {ports.get("operator")}, expected {op}')
        probe_port, probe_name = (op, 'operator') if op else (port, 'http')
        for probe, path in (('readinessProbe', '/readyz'), ('livenessProbe', '/healthz'), ('startupProbe', '/healthz')):
            g = (c.get(probe) or {}).get('httpGet') or {}
            f.check(g.get('path') == path and g.get('port') in (probe_name, probe_port), f'{where}: {probe} must GET {path} on port {probe_name}')
        res = c.get('resources') or {}
        for kind in ('cpu', 'memory'):
            req, lim = (res.get('requests') or {}).get(kind), (res.get('limits') or {}).get(kind)
            if f.check(req is not None and lim is not None, f'{where}: {kind} request and limit are required'):
                f.check(quantity(lim) >= quantity(req), f'{where}: {kind} limit below its request')
        env = {e['name']: e for e in c.get('env') or []}
        for e in env.values():
            if SECRET_NAME.search(e['name']):
                ref = (e.get('valueFrom') or {}).get('secretKeyRef')
                if f.check('value' not in e and ref, f'{where}: {e["name"]} must come from a Secret (secretKeyRef), not a literal'):
                    f.check(ref['name'] in secrets_doc and ref['key'] in secrets_doc[ref['name']],
                            f'{where}: secret {ref["name"]}/{ref["key"]} is not documented in deploy/k8s/secrets.example.yaml')
        f.check('MONGO_URL' in env, f'{where}: MONGO_URL is not set')
        # Services over MongoDB refuse to start without it (docs/configuration.md, "Secrets key").
        f.check('SWITCH_SECRETS_KEY' in env, f'{where}: SWITCH_SECRETS_KEY is not set')
        if n == 'gateway':
            f.check((env.get('PORT') or {}).get('value') == str(port), f'{where}: PORT must be {port}')
            f.check((env.get('HOST') or {}).get('value') == '0.0.0.0', f'{where}: HOST must be 0.0.0.0 (the default 127.0.0.1 is unreachable)')
            f.check('SWITCH_ADMIN_TOKEN' in env, f'{where}: SWITCH_ADMIN_TOKEN is not set')
            f.check((env.get('OPERATOR_PORT') or {}).get('value') == str(OPERATOR_PORTS[n]), f'{where}: OPERATOR_PORT must be {OPERATOR_PORTS[n]}')
            f.check((env.get('OPERATOR_HOST') or {}).get('value') == '0.0.0.0', f'{where}: OPERATOR_HOST must be 0.0.0.0 (the default 127.0.0.1 is unreachable by probes and Prometheus)')
        else:
            f.check((env.get('HEALTH_PORT') or {}).get('value') == str(port), f'{where}: HEALTH_PORT must be {port}')
        heap = re.search(r'--max-old-space-size=(\d+)', (env.get('NODE_OPTIONS') or {}).get('value', ''))
        lim = (res.get('limits') or {}).get('memory')
        if heap and lim:
            f.check(int(heap.group(1)) * 2**20 < quantity(lim), f'{where}: --max-old-space-size is not below the memory limit')
        config = {}
        for ef in c.get('envFrom') or []:
            if 'configMapRef' in ef:
                cm_name = ef['configMapRef']['name']
                if f.check(cm_name in cms, f'{where}: envFrom ConfigMap {cm_name} is not rendered'):
                    config.update(cms[cm_name].get('data') or {})
            if 'secretRef' in ef:
                f.check(ef['secretRef']['name'] in secrets_doc, f'{where}: Secret {ef["secretRef"]["name"]} is not documented in secrets.example.yaml')
        for k in ('KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'SWITCH_SHUTDOWN_MS', 'SWITCH_KAFKA_NAMESPACE'):
            f.check(k in config, f'{where}: {k} is not in its ConfigMaps')
        shutdown_ms = int(config.get('SWITCH_SHUTDOWN_MS', 20000))
        pre = ((c.get('lifecycle') or {}).get('preStop') or {}).get('exec', {}).get('command') or []
        pre_ms = int(pre[1]) * 1000 if len(pre) == 2 and pre[0] == 'sleep' else 0
        grace = pod.get('terminationGracePeriodSeconds', 30)
        f.check(grace * 1000 > shutdown_ms + pre_ms,
                f'{where}: terminationGracePeriodSeconds {grace}s is not above SWITCH_SHUTDOWN_MS {shutdown_ms} ms + preStop {pre_ms} ms')
        # autoscaling
        if n in AUTOSCALED:
            h = hpas.get(n)
            if f.check(h is not None, f'{where}: no HorizontalPodAutoscaler'):
                mn, mx = h['spec'].get('minReplicas', 1), h['spec']['maxReplicas']
                f.check(1 <= mn <= mx, f'{name}: HPA {n}: minReplicas {mn} > maxReplicas {mx}')
                if n in PARTITION_BOUND:
                    f.check(mx <= PARTITION_BOUND[n], f'{name}: HPA {n}: maxReplicas {mx} exceeds the topic partitions ({PARTITION_BOUND[n]})')
                f.check('replicas' not in d['spec'], f'{where}: sets spec.replicas although an HPA manages it (every apply would reset the scale)')
        else:
            f.check(n not in hpas, f'{where}: unexpected HPA')
        # one Service and one PDB selecting the pods
        f.check(any(s['spec'].get('selector') and matches({'matchLabels': s['spec']['selector']}, labels)
                    and any(p.get('name') == 'http' and p.get('targetPort') in ('http', port) for p in s['spec'].get('ports', []))
                    for s in by_kind.get('Service', [])), f'{where}: no Service with port "http" selects its pods')
        f.check(any(matches(p['spec']['selector'], labels) for p in by_kind.get('PodDisruptionBudget', [])), f'{where}: no PodDisruptionBudget')
    for t in hpas:
        f.check(t in dep, f'{name}: HPA targets a missing Deployment {t}')

    # network policies
    nps = {p['metadata']['name']: p for p in by_kind.get('NetworkPolicy', [])}
    dd = nps.get('default-deny-all')
    f.check(dd is not None and dd['spec']['podSelector'] == {} and set(dd['spec'].get('policyTypes', [])) == {'Ingress', 'Egress'}
            and not dd['spec'].get('ingress') and not dd['spec'].get('egress'), f'{name}: no default-deny-all policy (Ingress and Egress)')

    def policies_for(svc, ptype):
        lbl = dep[svc]['spec']['template']['metadata'].get('labels', {}) if svc in dep else {}
        return [p for p in nps.values() if ptype in p['spec'].get('policyTypes', []) and matches(p['spec']['podSelector'], lbl)]

    for svc in dep:
        eg = policies_for(svc, 'Egress')
        ports = {(pt.get('protocol', 'TCP'), pt.get('port')) for p in eg for r in p['spec'].get('egress', []) for pt in r.get('ports', [])}
        for need, what in (((('UDP', 53)), 'DNS'), (('TCP', 9092), 'Kafka'), (('TCP', 27017), 'MongoDB')):
            f.check(need in ports, f'{name}: {svc} has no egress for {what} {need}')
        ing = policies_for(svc, 'Ingress')
        f.check(any(any(fr.get('namespaceSelector') for fr in r.get('from', [])) for p in ing for r in p['spec'].get('ingress', [])),
                f'{name}: {svc} admits no Prometheus scrape')
        op = OPERATOR_PORTS.get(svc)
        for p in ing:
            for r in p['spec'].get('ingress', []):
                rule_ports = {pt.get('port') for pt in r.get('ports', [])}
                if op and (not r.get('ports') or rule_ports & {'operator', op}):
                    f.check(bool(r.get('from')) and all(
                        (fr.get('namespaceSelector') or {}).get('matchLabels', {}).get('kubernetes.io/metadata.name') == 'monitoring' for fr in r['from']),
                        f'{name}: {p["metadata"]["name"]} admits others than monitoring to the operator port of {svc}')
                if not r.get('from'):
                    f.check(svc == 'gateway' and all(pt.get('port') == 3000 for pt in r.get('ports', [])) and r.get('ports'),
                            f'{name}: {p["metadata"]["name"]} admits anyone to {svc}: only the gateway on 3000 may be open')
        for p in eg:
            for r in p['spec'].get('egress', []):
                f.check(bool(r.get('to')) and bool(r.get('ports')), f'{name}: {p["metadata"]["name"]} allows egress without a destination or port')
                for to in r.get('to', []):
                    ib = to.get('ipBlock')
                    if ib and ib['cidr'] in ('0.0.0.0/0', '::/0'):
                        f.check(svc == 'notifier', f'{name}: {p["metadata"]["name"]} opens the internet to {svc}')
                        if ib['cidr'] == '0.0.0.0/0':
                            f.check(all(x in ib.get('except', []) for x in PRIVATE_V4), f'{name}: notifier internet egress does not exclude {PRIVATE_V4}')
                        f.check({pt.get('port') for pt in r.get('ports', [])} <= {80, 443}, f'{name}: notifier internet egress beyond 80/443')
        if svc in BANK_CONNECTORS:
            f.check(f'{svc}-egress-bank-api' in nps, f'{name}: {svc} has no egress policy to its bank')

    # Prometheus Operator objects (no schema for kubeconform: checked here)
    sms = by_kind.get('ServiceMonitor', [])
    pms = by_kind.get('PodMonitor', [])
    prs = by_kind.get('PrometheusRule', [])
    for o in sms + pms + prs:
        f.check(o.get('apiVersion') == 'monitoring.coreos.com/v1', f'{name}: {o["kind"]} {o["metadata"]["name"]} apiVersion is not monitoring.coreos.com/v1')
    gw_svc = [s for s in by_kind.get('Service', []) if s['metadata']['name'] == 'gateway']
    op_svc = [s for s in by_kind.get('Service', []) if s['metadata']['name'] == 'gateway-operator']
    f.check(len(sms) == 1 and op_svc and matches(sms[0]['spec']['selector'], op_svc[0]['metadata'].get('labels'))
            and not (gw_svc and matches(sms[0]['spec']['selector'], gw_svc[0]['metadata'].get('labels')))
            and all(e.get('port') == 'operator' and e.get('path') == '/metrics' for e in sms[0]['spec']['endpoints']),
            f'{name}: the ServiceMonitor must select the gateway-operator Service only and scrape /metrics on its "operator" port')
    if gw_svc:
        f.check(all(p.get('targetPort') in ('http', 3000) for p in gw_svc[0]['spec']['ports']),
                f'{name}: the gateway Service must carry the merchant port only (the operator port is in gateway-operator)')
    if op_svc:
        f.check(all(p.get('targetPort') in ('operator', OPERATOR_PORTS['gateway']) for p in op_svc[0]['spec']['ports']),
                f'{name}: the gateway-operator Service must carry the operator port only')
    # Ingress: the merchant port only, over TLS with a referenced (documented) certificate Secret
    ings = by_kind.get('Ingress', [])
    if f.check(len(ings) == 1, f'{name}: expected one Ingress (the merchant API), found {len(ings)}'):
        ig = ings[0]
        f.check(ig.get('apiVersion') == 'networking.k8s.io/v1', f'{name}: Ingress apiVersion is not networking.k8s.io/v1')
        tls = ig['spec'].get('tls') or []
        f.check(bool(tls) and all(t.get('secretName') in secrets_doc and {'tls.crt', 'tls.key'} <= secrets_doc[t['secretName']] for t in tls),
                f'{name}: the Ingress must terminate TLS with a Secret documented in secrets.example.yaml (tls.crt, tls.key)')
        hosts_tls = {h for t in tls for h in t.get('hosts', [])}
        backends = [ig['spec'].get('defaultBackend')] if ig['spec'].get('defaultBackend') else []
        for rule in ig['spec'].get('rules', []):
            f.check(rule.get('host') in hosts_tls, f'{name}: Ingress host {rule.get("host")} is not covered by its TLS section')
            backends += [p['backend'] for p in (rule.get('http') or {}).get('paths', [])]
        # Merchant-facing ports only: the gateway's merchant API and the panel's web port, never an operator or health port.
        public = {'gateway': ({'name': 'http'}, {'number': 3000}), 'panel': ({'name': 'web'}, {'number': 3100})}
        f.check(bool(backends) and all((b['service'].get('port') or {}) in public.get((b.get('service') or {}).get('name'), ())
                                       for b in backends), f'{name}: the Ingress may route only to the gateway\'s merchant port (http/3000) and the panel\'s (web/3100)')
    scraped = set()
    for pm in pms:
        for n, d in dep.items():
            lbl = d['spec']['template']['metadata'].get('labels', {})
            if matches(pm['spec']['selector'], lbl):
                cport = [p.get('name') for p in d['spec']['template']['spec']['containers'][0].get('ports', [])]
                ok = all(e.get('port') in cport and e.get('path') == '/metrics' for e in pm['spec']['podMetricsEndpoints'])
                f.check(ok, f'{name}: PodMonitor {pm["metadata"]["name"]} endpoint port/path does not match {n}')
                scraped.add(n)
    f.check(scraped == set(dep) - {'gateway'}, f'{name}: PodMonitors scrape {sorted(scraped)}, expected every service but the gateway')
    f.check(len(prs) == 1 and prs[0]['spec'].get('groups'), f'{name}: expected one PrometheusRule with groups')
    if prs:
        with open(os.path.join(ROOT, 'deploy', 'prometheus', 'alerts.yaml')) as fh:
            f.check(prs[0]['spec'].get('groups') == yaml.safe_load(fh)['groups'],
                    f'{name}: PrometheusRule groups differ from deploy/prometheus/alerts.yaml (run deploy/prometheus/render-prometheusrule.sh)')


def test_only_one(name, d, by_kind, f):
    """A test-only Deployment (the banks' emulators): never live, its own image, restricted pods,
    outside the switch's shared policies and monitors, reachable only from pods of its namespace."""
    n = d['metadata']['name']
    where = f'{name}: test-only Deployment {n}'
    ns = d['metadata'].get('namespace', '')
    f.check('live' not in ns and 'live' not in name, f'{where}: rendered into a live environment')
    image = TEST_ONLY[n]
    pod = d['spec']['template']['spec']
    labels = d['spec']['template']['metadata'].get('labels', {})
    f.check(matches(d['spec']['selector'], labels), f'{where}: selector does not match its pod labels')
    f.check(labels.get('app.kubernetes.io/part-of') != 'switch-pagos',
            f'{where}: its pods must not carry part-of=switch-pagos (the switch\'s egress policies and PodMonitor would take them in)')
    psc = pod.get('securityContext') or {}
    f.check(psc.get('runAsNonRoot') is True and isinstance(psc.get('runAsUser'), int) and psc['runAsUser'] > 0,
            f'{where}: pod must run as a non-zero, non-root user')
    f.check((psc.get('seccompProfile') or {}).get('type') == 'RuntimeDefault', f'{where}: seccompProfile is not RuntimeDefault')
    f.check(pod.get('automountServiceAccountToken') is False, f'{where}: mounts a service account token')
    for c in pod['containers']:
        cw = f'{where} container {c["name"]}'
        img = c.get('image', '')
        f.check(img.split('@')[0].split(':')[0].endswith('/' + image) or img.split(':')[0] == image,
                f'{cw}: image {img} is not the test-only {image} image')
        sc = c.get('securityContext') or {}
        f.check(sc.get('allowPrivilegeEscalation') is False and sc.get('readOnlyRootFilesystem') is True
                and 'ALL' in ((sc.get('capabilities') or {}).get('drop') or []) and not sc.get('privileged'),
                f'{cw}: securityContext must forbid escalation, drop ALL and keep the root filesystem read-only')
        res = c.get('resources') or {}
        f.check(all((res.get(k) or {}).get(r) for k in ('requests', 'limits') for r in ('cpu', 'memory')), f'{cw}: cpu/memory requests and limits are required')
        f.check(bool((c.get('readinessProbe') or {}).get('httpGet')), f'{cw}: no readinessProbe')
        for e in c.get('env') or []:
            if SECRET_NAME.search(e['name']):
                ref = (e.get('valueFrom') or {}).get('secretKeyRef')
                f.check('value' not in e and ref and ref['name'] in documented_secrets() and ref['key'] in documented_secrets()[ref['name']],
                        f'{cw}: {e["name"]} must come from a Secret documented in deploy/k8s/secrets.example.yaml')
    ingress = [p for p in by_kind.get('NetworkPolicy', []) if 'Ingress' in p['spec'].get('policyTypes', []) and matches(p['spec']['podSelector'], labels)]
    f.check(bool(ingress), f'{where}: no ingress policy admits its clients')
    for p in ingress:
        for r in p['spec'].get('ingress', []):
            f.check(bool(r.get('from')) and all(set(fr) == {'podSelector'} for fr in r['from']) and bool(r.get('ports')),
                    f'{name}: {p["metadata"]["name"]} must admit only named pods of its namespace, on named ports')


def cmd_policy(*paths):
    f = Findings()
    for p in paths:
        policy_one(p, f)
    return f.finish(f'{len(paths)} rendered overlay(s) meet the deployment policy')


# --------------------------------------------------------------------------------------------------
# dashboard
# --------------------------------------------------------------------------------------------------
def load_dashboard(path):
    with open(path) as fh:
        return json.load(fh)


def dashboard_panels(d):
    for p in d.get('panels', []):
        yield p
        for q in p.get('panels', []) or []:
            yield q


def cmd_dashboard(path):
    f = Findings()
    try:
        d = load_dashboard(path)
    except (OSError, json.JSONDecodeError) as e:
        print(f'  error: {path}: {e}')
        return 1
    f.check(d.get('uid') and d.get('title') and isinstance(d.get('schemaVersion'), int), 'uid, title and schemaVersion are required')
    defined = {v['name'] for v in d.get('templating', {}).get('list', [])}
    ids, n_targets, cells = set(), 0, {}
    for p in dashboard_panels(d):
        pid = p.get('id')
        f.check(pid not in ids, f'panel id {pid} is used twice')
        ids.add(pid)
        gp = p.get('gridPos') or {}
        f.check(gp.get('x', 0) + gp.get('w', 0) <= 24, f'panel "{p.get("title")}" is wider than the grid')
        for x in range(gp.get('x', 0), gp.get('x', 0) + gp.get('w', 0)):
            for y in range(gp.get('y', 0), gp.get('y', 0) + gp.get('h', 0)):
                other = cells.setdefault((x, y), p.get('title'))
                f.check(other == p.get('title'), f'panels "{other}" and "{p.get("title")}" overlap')
        if p.get('type') == 'row':
            continue
        f.check(p.get('targets'), f'panel "{p.get("title")}" has no query')
        for t in p.get('targets', []):
            n_targets += 1
            f.check(t.get('expr'), f'panel "{p.get("title")}" has a query without expr')
            f.check((t.get('datasource') or p.get('datasource') or {}).get('uid') == '${datasource}', f'panel "{p.get("title")}" does not use the $datasource variable')
    text = json.dumps(d.get('panels', [])) + json.dumps([v.get('query') for v in d.get('templating', {}).get('list', [])])
    for var in set(re.findall(r'\$\{?([A-Za-z_]\w*)', text)):
        f.check(var.startswith('__') or var in defined, f'variable ${var} is used but not defined')
    return f.finish(f'{len(ids)} panels, {n_targets} queries, variables {sorted(defined)}')


# --------------------------------------------------------------------------------------------------
# runbooks
# --------------------------------------------------------------------------------------------------
def slug(heading):
    """GitHub's anchor for a Markdown heading."""
    s = heading.strip().lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def rules_of(path):
    with open(path) as fh:
        data = yaml.safe_load(fh)
    for g in data.get('groups', []):
        for r in g.get('rules', []):
            yield g['name'], r


def cmd_runbooks(rules_path, runbook_dir):
    f = Findings()
    n = 0
    for group, r in rules_of(rules_path):
        if 'alert' not in r:
            continue
        n += 1
        a = r['alert']
        f.check((r.get('labels') or {}).get('severity') in ('critical', 'warning', 'info'), f'{a}: severity label must be critical, warning or info')
        ann = r.get('annotations') or {}
        f.check(ann.get('summary') and ann.get('description'), f'{a}: summary and description annotations are required')
        url = ann.get('runbook_url', '')
        m = re.search(r'/docs/runbooks/([\w.-]+\.md)#([\w-]+)$', url)
        if not f.check(m, f'{a}: runbook_url "{url}" does not point at docs/runbooks/<file>.md#<heading>'):
            continue
        file, anchor = m.groups()
        p = os.path.join(runbook_dir, file)
        if not f.check(os.path.exists(p), f'{a}: runbook {file} does not exist'):
            continue
        with open(p) as fh:
            anchors = {slug(line.lstrip('#')) for line in fh if line.startswith('#')}
        f.check(anchor in anchors, f'{a}: {file} has no heading for #{anchor}')
    return f.finish(f'{n} alerts, each with severity, summary and an existing runbook paragraph')


# --------------------------------------------------------------------------------------------------
# expressions and metric names
# --------------------------------------------------------------------------------------------------
def grafana_to_promql(expr):
    """Grafana variables are not PromQL: give them values the parser accepts."""
    expr = re.sub(r'\$\{?__(rate_interval|interval|range)(_ms|_s)?\}?', '5m', expr)
    return re.sub(r'\$\{?([A-Za-z_]\w*)(:\w+)?\}?', 'x', expr)


def expressions(rules_path, dashboard_path):
    out = []
    for group, r in rules_of(rules_path):
        out.append({'src': f'{os.path.basename(rules_path)}: {r.get("alert") or r.get("record")}', 'expr': str(r.get('expr', ''))})
    d = load_dashboard(dashboard_path)
    for p in dashboard_panels(d):
        for t in p.get('targets', []) or []:
            if t.get('expr'):
                out.append({'src': f'dashboard: "{p.get("title")}" {t.get("refId")}', 'expr': grafana_to_promql(t['expr'])})
    for v in d.get('templating', {}).get('list', []):
        if v.get('type') == 'query':
            q = v.get('query')
            q = q.get('query') if isinstance(q, dict) else q
            m = re.match(r'\s*label_values\((.*),\s*\w+\s*\)\s*$', q or '')
            if m:
                out.append({'src': f'dashboard variable ${v["name"]}', 'expr': grafana_to_promql(m.group(1))})
    return out


def cmd_exprs(rules_path, dashboard_path):
    for e in expressions(rules_path, dashboard_path):
        print(json.dumps(e))
    return 0


PROMQL_WORDS = {
    'sum', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'count', 'count_values', 'bottomk', 'topk', 'quantile', 'limitk', 'limit_ratio',
    'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'atan2', 'inf', 'nan', 'start', 'end',
}


def heuristic_names(expr):
    """Fallback without the PromQL parser: identifiers outside strings, label matchers, grouping
    clauses and range brackets, not followed by '(' and not a keyword."""
    e = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`[^`]*`', '""', expr)
    e = re.sub(r'\{[^{}]*\}', ' ', e)
    e = re.sub(r'\[[^\]]*\]', ' ', e)
    e = re.sub(r'\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)', ' ', e)
    names = set()
    for m in re.finditer(r'(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()', e):
        w = m.group(1)
        if w.lower() in PROMQL_WORDS or re.fullmatch(r'\d+[smhdwy]', w):
            continue
        names.add(w)
    return sorted(names)


def cmd_names(metrics_path, rules_path, dashboard_path, *rest):
    f = Findings()
    parsed = None
    if len(rest) == 2 and rest[0] == '--parsed':
        with open(rest[1]) as fh:
            parsed = [json.loads(line) for line in fh if line.strip()]
    with open(metrics_path) as fh:
        listed = [line.strip() for line in fh if line.strip()]
    f.check(len(listed) == len(set(listed)), 'metrics.txt lists a name twice')
    for n in listed:
        f.check(re.fullmatch(r'[a-zA-Z_:][a-zA-Z0-9_:]*', n), f'metrics.txt: "{n}" is not a metric name')
    listed = set(listed)
    recorded = {r['record'] for _, r in rules_of(rules_path) if 'record' in r}
    if parsed is None:
        parsed = [{'src': e['src'], 'names': heuristic_names(e['expr'])} for e in expressions(rules_path, dashboard_path)]
    used = {}
    for p in parsed:
        if p.get('error'):
            f.error(f'{p["src"]}: PromQL does not parse: {p["error"]}')
        for n in p.get('names') or []:
            used.setdefault(n, set()).add(p['src'])

    def family(n):
        if n in listed:
            return n
        for suffix in ('_bucket', '_count', '_sum'):
            if n.endswith(suffix) and n[:-len(suffix)] in listed:
                return n[:-len(suffix)]
        return None

    families = set()
    for n, srcs in sorted(used.items()):
        if n in recorded:
            continue
        fam = family(n)
        if f.check(fam, f'{n} is not in deploy/metrics.txt (used by {sorted(srcs)[0]}{" and others" if len(srcs) > 1 else ""})'):
            families.add(fam)
    for n in sorted(listed - families):
        f.warn(f'{n} is listed in deploy/metrics.txt but no dashboard panel or alert uses it')
    return f.finish(f'{len(used)} names used by {len(parsed)} expressions, all in deploy/metrics.txt ({len(families)} metric families, {len(recorded & set(used))} recording rules)')


def cmd_rules_fallback(rules_path):
    """Without promtool: the rule file's shape, names, durations, templates and bracket balance."""
    f = Findings()
    try:
        with open(rules_path) as fh:
            data = yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as e:
        print(f'  error: {e}')
        return 1
    f.check(isinstance(data, dict) and set(data) == {'groups'}, 'the file must hold only "groups"')
    names, n = set(), 0
    for g in data.get('groups', []):
        f.check(g.get('name') and g['name'] not in names, f'group name {g.get("name")} missing or repeated')
        names.add(g.get('name'))
        for r in g.get('rules', []):
            n += 1
            kind = [k for k in ('alert', 'record') if k in r]
            f.check(len(kind) == 1, f'{g["name"]}: a rule must have exactly one of alert/record: {r}')
            f.check(set(r) <= {'alert', 'record', 'expr', 'for', 'keep_firing_for', 'labels', 'annotations'}, f'{g["name"]}: unknown keys in {r}')
            if 'record' in r:
                f.check(re.fullmatch(r'[a-zA-Z_:][a-zA-Z0-9_:]*', r['record']), f'bad record name {r["record"]}')
                f.check('annotations' not in r and 'for' not in r, f'{r["record"]}: a recording rule has no for/annotations')
            if 'for' in r:
                f.check(re.fullmatch(r'(\d+[smhdwy])+', str(r['for'])), f'{r.get("alert")}: bad duration {r["for"]}')
            e = str(r.get('expr', ''))
            f.check(e.strip(), f'{r.get("alert") or r.get("record")}: empty expr')
            stripped = re.sub(r'"(?:\\.|[^"\\])*"', '""', e)
            for o, c in ('()', '[]', '{}'):
                f.check(stripped.count(o) == stripped.count(c), f'{r.get("alert") or r.get("record")}: unbalanced {o}{c}')
            for k, v in list((r.get('labels') or {}).items()) + list((r.get('annotations') or {}).items()):
                f.check(isinstance(v, str), f'{r.get("alert") or r.get("record")}: {k} is not a string')
                f.check(str(v).count('{{') == str(v).count('}}'), f'{r.get("alert")}: unbalanced template in {k}')
    return f.finish(f'{n} rules in {len(names)} groups (structural check only: promtool was not available)')


COMMANDS = {
    'schemas': cmd_schemas, 'policy': cmd_policy, 'dashboard': cmd_dashboard, 'runbooks': cmd_runbooks,
    'exprs': cmd_exprs, 'names': cmd_names, 'rules-fallback': cmd_rules_fallback,
}

if __name__ == '__main__':
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        sys.exit(__doc__)
    sys.exit(COMMANDS[sys.argv[1]](*sys.argv[2:]))
