import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { BancoId } from '@switch/core/contracts/bancos';
import { readSettings } from '@switch/platform/config/env';
import { KafkaSettings } from '@switch/platform/config/infra';
import { bankRequests, TOPICS } from '@switch/core/contracts/topics';
import {
  BANK_CONNECTORS,
  type K8sObject,
  type PartitionBound,
  parseObjects,
  podEnvironment,
  projectFindings,
  REPO,
  type Service,
} from './rules';
import { goTool, KUBERNETES_VERSIONS, kubernetesSchemas, run } from './tools';

/**
 * The Kubernetes manifests (deploy/k8s): each overlay renders (kustomize), validates strictly against
 * the Kubernetes schemas (kubeconform), meets the generic rules (conftest, deploy/policy) and the
 * switch's own rules (./rules.ts, from the code). Each rule is shown failing a broken manifest.
 */
const OVERLAYS = ['test', 'live'] as const;
const OUT = join(REPO, '.cache/deploy-check');
const POLICY = join(REPO, 'deploy/policy');
/** The Prometheus Operator's kinds have no schema here; the switch's rules check them. */
const CRD_KINDS = 'ServiceMonitor,PodMonitor,PrometheusRule';

const rendered: Record<string, { file: string; text: string; objects: K8sObject[] }> = {};
let conftest = '';

beforeAll(async () => {
  const [kustomize, conftestPath] = await Promise.all([
    goTool('kustomize'),
    goTool('conftest'),
    goTool('kubeconform'),
    kubernetesSchemas(),
  ]);
  conftest = conftestPath;
  mkdirSync(OUT, { recursive: true });
  for (const overlay of OVERLAYS) {
    const build = await run(kustomize, ['build', `deploy/k8s/overlays/${overlay}`], { cwd: REPO });
    expect(build.status, `kustomize build deploy/k8s/overlays/${overlay}\n${build.stderr}`).toBe(0);
    const file = join(OUT, `${overlay}.yaml`);
    writeFileSync(file, build.stdout);
    rendered[overlay] = { file, text: build.stdout, objects: parseObjects(build.stdout) };
  }
}, 30 * 60_000);

const clone = (objects: readonly K8sObject[]): K8sObject[] => structuredClone(objects) as K8sObject[];
const find = (objects: K8sObject[], kind: string, name: string): K8sObject => {
  // A generated ConfigMap's name ends in its content's hash.
  const named = (n: string) => n === name || (kind === 'ConfigMap' && /^-[a-z0-9]{10}$/.test(n.slice(name.length)) && n.startsWith(name));
  const o = objects.find((x) => x.kind === kind && named(x.metadata.name));
  if (!o) throw new Error(`no ${kind}/${name} rendered`);
  return o;
};
const container = (objects: K8sObject[], deployment: string) => find(objects, 'Deployment', deployment).spec!.template!.spec.containers[0]!;

async function conftestOn(objects: readonly K8sObject[]) {
  const dir = mkdtempSync(join(tmpdir(), 'conftest-'));
  try {
    const file = join(dir, 'manifest.yaml');
    writeFileSync(file, objects.map((o) => stringify(o)).join('---\n'));
    return await run(conftest, ['test', '--no-color', '--policy', POLICY, file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * For each consumer that an HPA scales, the partitions of the topic it reads, as the code computes
 * them (the topic contract in packages/core/src/contracts/topics.ts, the count from that service's environment).
 */
async function partitions(objects: readonly K8sObject[]): Promise<PartitionBound> {
  const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((c) => [c.metadata.name, c]));
  const bound: PartitionBound = {};
  for (const service of ['router', 'notifier', ...Object.keys(BANK_CONNECTORS)] as Service[]) {
    const d = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === service);
    if (!d) continue;
    const env = podEnvironment(d.spec!.template!.spec.containers[0]!, configMaps);
    // As the Kafka adapter creates them: a per-operation topic takes the deployment's count.
    const configured = readSettings(KafkaSettings, env).partitions;
    const banco = BANK_CONNECTORS[service];
    const topic = service === 'router' ? TOPICS.routerInbox : service === 'notifier' ? TOPICS.transactions : bankRequests(banco as BancoId);
    bound[service] = topic.perOperation ? configured : topic.partitions;
  }
  return bound;
}

describe.each(OVERLAYS)('overlay %s', (overlay) => {
  it.each(KUBERNETES_VERSIONS)('is valid against the Kubernetes %s schemas (kubeconform -strict: no unknown field)', async (version) => {
    const schemas = await kubernetesSchemas();
    const location = `${schemas}/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json`;
    const r = await run(await goTool('kubeconform'), [
      '-strict',
      '-summary',
      // One worker compiles each kind's schema once (parallel workers each compile it).
      '-n',
      '1',
      '-kubernetes-version',
      version,
      '-skip',
      CRD_KINDS,
      '-schema-location',
      location,
      rendered[overlay]!.file,
    ]);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });

  it('meets the generic Kubernetes rules (conftest, deploy/policy)', async () => {
    const r = await run(conftest, ['test', '--no-color', '--policy', POLICY, rendered[overlay]!.file]);
    expect(r.status, r.stdout).toBe(0);
  });

  it("meets the switch's own rules (services, ports, configuration, partitions, secrets, network, monitoring)", async () => {
    const objects = rendered[overlay]!.objects;
    expect(projectFindings(overlay, objects, await partitions(objects))).toEqual([]);
  });

  it('every service that reads Kafka keeps three copies of each topic and min.insync.replicas 2 (decision 0170)', () => {
    const objects = rendered[overlay]!.objects;
    const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((c) => [c.metadata.name, c]));
    const weaker: string[] = [];
    const checked: string[] = [];
    for (const d of objects.filter((o) => o.kind === 'Deployment')) {
      const env = podEnvironment(d.spec!.template!.spec.containers[0]!, configMaps);
      if (env.SWITCH_BUS === 'memory' || !env.KAFKA_BROKERS) continue;
      checked.push(d.metadata.name);
      const { replicationFactor, minInsyncReplicas } = readSettings(KafkaSettings, env);
      if (replicationFactor < 3 || minInsyncReplicas < 2 || minInsyncReplicas >= replicationFactor)
        weaker.push(`${d.metadata.name}: ${replicationFactor} copies, min.insync.replicas ${minInsyncReplicas}`);
    }
    expect(weaker).toEqual([]);
    expect(checked).toEqual(expect.arrayContaining(['gateway', 'router', 'notifier', 'bank-bnc']));
  });

  it('states one partition count: every consumer reads the same SWITCH_KAFKA_PARTITIONS, and the docs quote that count', async () => {
    const bound = await partitions(rendered[overlay]!.objects);
    const counts = new Set(Object.values(bound));
    expect(counts.size, `per-operation topics of one deployment disagree: ${JSON.stringify(bound)}`).toBe(1);
    const [count] = counts;
    for (const doc of ['docs/operations.md', 'deploy/README.md', 'docs/architecture.md']) {
      const quoted = [...readFileSync(join(REPO, doc), 'utf8').matchAll(/SWITCH_KAFKA_PARTITIONS=(\d+)/g)].map((m) => Number(m[1]));
      expect(
        quoted.filter((n) => n !== count),
        `${doc} quotes another SWITCH_KAFKA_PARTITIONS than the ConfigMap's ${count}`,
      ).toEqual([]);
    }
    expect(readFileSync(join(REPO, 'docs/operations.md'), 'utf8')).toContain(`SWITCH_KAFKA_PARTITIONS=${count}`);
  });
});

describe('kubeconform', () => {
  it('refuses an unknown field', async () => {
    const objects = clone(rendered.test!.objects);
    (container(objects, 'router') as unknown as Record<string, unknown>).readinesProbe = { httpGet: { path: '/readyz', port: 'http' } };
    const dir = mkdtempSync(join(tmpdir(), 'kubeconform-'));
    try {
      const file = join(dir, 'manifest.yaml');
      writeFileSync(file, objects.map((o) => stringify(o)).join('---\n'));
      const schemas = await kubernetesSchemas();
      const r = await run(await goTool('kubeconform'), [
        '-strict',
        '-kubernetes-version',
        KUBERNETES_VERSIONS[0],
        '-skip',
        CRD_KINDS,
        '-schema-location',
        `${schemas}/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json`,
        file,
      ]);
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/readinesProbe/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Each generic rule, failing a manifest broken for it. */
const GENERIC_BREAKS: [string, (o: K8sObject[]) => void, RegExp][] = [
  [
    'a pod that may run as root',
    (o) => delete find(o, 'Deployment', 'router').spec!.template!.spec.securityContext!.runAsNonRoot,
    /runAsNonRoot must be true/,
  ],
  [
    'a pod as user 0',
    (o) => (find(o, 'Deployment', 'router').spec!.template!.spec.securityContext!.runAsUser = 0),
    /runAsUser must be a non-zero/,
  ],
  [
    'a pod without the runtime seccomp profile',
    (o) => delete find(o, 'Deployment', 'router').spec!.template!.spec.securityContext!.seccompProfile,
    /seccompProfile must be RuntimeDefault/,
  ],
  [
    'a pod with an API token',
    (o) => delete find(o, 'Deployment', 'router').spec!.template!.spec.automountServiceAccountToken,
    /automountServiceAccountToken must be false/,
  ],
  [
    'privilege escalation',
    (o) => (container(o, 'router').securityContext!.allowPrivilegeEscalation = true),
    /allowPrivilegeEscalation: false/,
  ],
  [
    'a writable root filesystem',
    (o) => (container(o, 'router').securityContext!.readOnlyRootFilesystem = false),
    /readOnlyRootFilesystem: true/,
  ],
  ['capabilities kept', (o) => (container(o, 'router').securityContext!.capabilities = { drop: ['NET_RAW'] }), /drop ALL capabilities/],
  ['a privileged container', (o) => (container(o, 'router').securityContext!.privileged = true), /is privileged/],
  ['no memory limit', (o) => delete container(o, 'router').resources!.limits!.memory, /no memory limits/],
  ['a CPU limit below its request', (o) => (container(o, 'router').resources!.limits!.cpu = '1m'), /cpu limit is below its request/],
  ['no readiness probe', (o) => delete container(o, 'router').readinessProbe, /no readinessProbe/],
  [
    'a selector that misses its pods',
    (o) => (find(o, 'Deployment', 'router').spec!.selector!.matchLabels = { 'app.kubernetes.io/name': 'routr' }),
    /does not match its pod labels/,
  ],
  [
    'a rendered Secret',
    (o) => o.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'oops', namespace: 'switch-test' }, stringData: { K: 'v' } }),
    /a rendered Secret/,
  ],
  [
    'a namespace without the restricted standard',
    (o) => delete o.find((x) => x.kind === 'Namespace')!.metadata.labels!['pod-security.kubernetes.io/enforce'],
    /restricted pod security standard/,
  ],
  [
    'an HPA whose minimum is above its maximum',
    (o) => (find(o, 'HorizontalPodAutoscaler', 'router').spec!.minReplicas = 50),
    /minReplicas is above maxReplicas/,
  ],
  ['egress to anywhere', (o) => delete find(o, 'NetworkPolicy', 'allow-egress-kafka').spec!.egress![0]!.to, /without a destination/],
  ['egress on every port', (o) => delete find(o, 'NetworkPolicy', 'allow-egress-kafka').spec!.egress![0]!.ports, /without ports/],
  [
    'an Ingress host without TLS',
    (o) => o.find((x) => x.kind === 'Ingress')!.spec!.rules!.push({ host: 'plain.example' }),
    /not covered by its TLS/,
  ],
];

describe('the generic rules (conftest) fail a manifest with', () => {
  it.each(GENERIC_BREAKS)('%s', async (_what, breakIt, finding) => {
    const objects = clone(rendered.test!.objects);
    breakIt(objects);
    const r = await conftestOn(objects);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(finding);
  });
});

/** Each of the switch's own rules, failing a manifest broken for it. */
const PROJECT_BREAKS: [string, (o: K8sObject[]) => void, RegExp][] = [
  [
    'an object outside the namespace',
    (o) => (find(o, 'Service', 'router').metadata.namespace = 'default'),
    /Service\/router is not in namespace/,
  ],
  [
    'a secret in a ConfigMap',
    (o) => (find(o, 'ConfigMap', 'switch-config').data!.SWITCH_ADMIN_TOKEN = 'x'),
    /holds SWITCH_ADMIN_TOKEN, which is a secret/,
  ],
  ['a service missing', (o) => o.splice(o.indexOf(find(o, 'Deployment', 'reconciler')), 1), /are not the services/],
  [
    'pods outside the switch',
    (o) => delete find(o, 'Deployment', 'router').spec!.template!.metadata.labels!['app.kubernetes.io/part-of'],
    /lack app.kubernetes.io\/part-of/,
  ],
  ['no writable /tmp', (o) => (container(o, 'router').volumeMounts = []), /no emptyDir on \/tmp/],
  [
    'an entry point that does not exist',
    (o) => (container(o, 'bank-plaza').command = ['node', 'services/bank-plaza/dist/main.js']),
    /is not node services\/bank-plaza\/dist\/src\/main.js/,
  ],
  [
    'a container port the service does not listen on',
    (o) => (container(o, 'notifier').ports![0]!.containerPort = 9999),
    /"http" is 9999, the service listens on 9103/,
  ],
  [
    'an environment that moves the service',
    (o) => container(o, 'router').env!.push({ name: 'HEALTH_PORT', value: '9200' }),
    /moves the service off its port 9101/,
  ],
  [
    'a gateway operator port elsewhere',
    (o) => (container(o, 'gateway').ports!.find((p) => p.name === 'operator')!.containerPort = 9200),
    /"operator" is 9200, expected 9100/,
  ],
  [
    'a probe on the wrong path',
    (o) => (container(o, 'router').livenessProbe!.httpGet!.path = '/readyz'),
    /livenessProbe must GET \/healthz/,
  ],
  [
    'a literal secret',
    (o) => (container(o, 'gateway').env!.find((e) => e.name === 'SWITCH_ADMIN_TOKEN')!.valueFrom = undefined),
    /SWITCH_ADMIN_TOKEN must come from a Secret/,
  ],
  [
    'an undocumented secret',
    (o) => (container(o, 'router').env!.find((e) => e.name === 'MONGO_URL')!.valueFrom!.secretKeyRef!.name = 'mongo'),
    /secret mongo\/MONGO_URL is not documented/,
  ],
  [
    'a missing ConfigMap',
    (o) => o.splice(o.indexOf(find(o, 'ConfigMap', 'switch-config')), 1),
    /envFrom ConfigMap switch-config-[a-z0-9]+ is not rendered/,
  ],
  [
    'no secrets key',
    (o) => (container(o, 'router').env = container(o, 'router').env!.filter((e) => e.name !== 'SWITCH_SECRETS_KEY')),
    /SWITCH_SECRETS_KEY: is required/,
  ],
  ['no Kafka brokers', (o) => delete find(o, 'ConfigMap', 'switch-config').data!.KAFKA_BROKERS, /KAFKA_BROKERS: is required/],
  [
    'no topic namespace',
    (o) => delete find(o, 'ConfigMap', 'switch-config').data!.SWITCH_KAFKA_NAMESPACE,
    /SWITCH_KAFKA_NAMESPACE is not set/,
  ],
  [
    'a gateway on loopback',
    (o) => (container(o, 'gateway').env!.find((e) => e.name === 'HOST')!.value = '127.0.0.1'),
    /HOST must be 0.0.0.0/,
  ],
  [
    'a gateway operator listener on loopback',
    (o) => (container(o, 'gateway').env = container(o, 'gateway').env!.filter((e) => e.name !== 'OPERATOR_HOST')),
    /OPERATOR_HOST must be 0.0.0.0/,
  ],
  [
    'no admin token',
    (o) => (container(o, 'gateway').env = container(o, 'gateway').env!.filter((e) => e.name !== 'SWITCH_ADMIN_TOKEN')),
    /SWITCH_ADMIN_TOKEN is not set/,
  ],
  ['health on loopback', (o) => delete find(o, 'ConfigMap', 'switch-config').data!.HEALTH_HOST, /HEALTH_HOST must be 0.0.0.0/],
  [
    'a heap above the memory limit',
    (o) => container(o, 'router').env!.push({ name: 'NODE_OPTIONS', value: '--max-old-space-size=999999' }),
    /max-old-space-size is not below the memory limit/,
  ],
  [
    'a grace period shorter than the shutdown budget',
    (o) => (find(o, 'Deployment', 'router').spec!.template!.spec.terminationGracePeriodSeconds = 5),
    /router: terminationGracePeriodSeconds 5s is below 25s/,
  ],
  [
    'a connector whose grace period does not cover its longest order (two bank exchanges at the default 30 s + 3 s)',
    (o) => (find(o, 'Deployment', 'bank-plaza').spec!.template!.spec.terminationGracePeriodSeconds = 30),
    /bank-plaza: terminationGracePeriodSeconds 30s is below 81s/,
  ],
  [
    'a startup probe that gives up before a start could end',
    (o) =>
      (find(o, 'Deployment', 'router').spec!.template!.spec.containers[0]!.startupProbe = {
        httpGet: { path: '/healthz', port: 'http' },
        periodSeconds: 5,
        failureThreshold: 6,
      }),
    /router: startupProbe allows 30s, below the 75s/,
  ],
  [
    'more replicas than partitions',
    (o) => (find(o, 'HorizontalPodAutoscaler', 'router').spec!.maxReplicas = 13),
    /maxReplicas 13 exceeds the partitions of the topic it reads \(12\)/,
  ],
  [
    'a bank connector with more replicas than partitions',
    (o) => (find(o, 'HorizontalPodAutoscaler', 'bank-bnc').spec!.maxReplicas = 13),
    /HPA bank-bnc: maxReplicas 13 exceeds/,
  ],
  [
    'no autoscaler for the router',
    (o) => o.splice(o.indexOf(find(o, 'HorizontalPodAutoscaler', 'router')), 1),
    /Deployment router: no HorizontalPodAutoscaler/,
  ],
  [
    'replicas beside an autoscaler',
    (o) => (find(o, 'Deployment', 'router').spec!.replicas = 2),
    /sets spec.replicas although an HPA scales it/,
  ],
  [
    'no Service for a service',
    (o) => o.splice(o.indexOf(find(o, 'Service', 'notifier')), 1),
    /Deployment notifier: no Service with port "http"/,
  ],
  [
    'no disruption budget',
    (o) => o.splice(o.indexOf(find(o, 'PodDisruptionBudget', 'router')), 1),
    /Deployment router: no PodDisruptionBudget/,
  ],
  ['no default deny', (o) => o.splice(o.indexOf(find(o, 'NetworkPolicy', 'default-deny-all')), 1), /no default-deny-all policy/],
  [
    'no egress to MongoDB',
    (o) => o.splice(o.indexOf(find(o, 'NetworkPolicy', 'allow-egress-mongodb')), 1),
    /has no egress for MongoDB TCP\/27017/,
  ],
  [
    'no scrape admitted',
    (o) => o.splice(o.indexOf(find(o, 'NetworkPolicy', 'allow-ingress-prometheus')), 1),
    /admits no Prometheus scrape/,
  ],
  [
    'the internet opened to the router',
    (o) =>
      find(o, 'NetworkPolicy', 'allow-egress-kafka').spec!.egress!.push({
        to: [{ ipBlock: { cidr: '0.0.0.0/0' } }],
        ports: [{ port: 443 }],
      }),
    /opens the internet to router/,
  ],
  [
    'a bank connector that cannot reach its bank',
    (o) => o.splice(o.indexOf(find(o, 'NetworkPolicy', 'bank-bnc-egress-bank-api')), 1),
    /bank-bnc has no egress policy to its bank/,
  ],
  [
    'a ServiceMonitor on the merchant port',
    (o) => (find(o, 'ServiceMonitor', o.find((x) => x.kind === 'ServiceMonitor')!.metadata.name).spec!.endpoints![0]!.port = 'http'),
    /the ServiceMonitor must select the gateway-operator Service only/,
  ],
  [
    'a PodMonitor missing a service',
    (o) => {
      for (const p of o.filter((x) => x.kind === 'PodMonitor')) p.spec!.selector = { matchLabels: { 'app.kubernetes.io/name': 'router' } };
    },
    /PodMonitors scrape \[router\], expected every service but the gateway/,
  ],
  [
    'an Ingress to the operator port',
    (o) =>
      (o.find((x) => x.kind === 'Ingress')!.spec!.rules![0]!.http!.paths[0]!.backend = {
        service: { name: 'gateway-operator', port: { name: 'operator' } },
      }),
    /the Ingress may route only to/,
  ],
  [
    'the emulators in a live namespace',
    (o) => {
      for (const x of o) x.metadata.namespace &&= 'switch-live';
    },
    /rendered into a live environment/,
  ],
  [
    'the emulators with the switch image',
    (o) => (container(o, 'bank-emulators').image = 'ghcr.io/example/switch-pagos:1.0.0'),
    /is not the test-only switch-pagos-emulators image/,
  ],
  [
    'the emulators labelled as the switch',
    (o) => (find(o, 'Deployment', 'bank-emulators').spec!.template!.metadata.labels!['app.kubernetes.io/part-of'] = 'switch-pagos'),
    /must not carry part-of=switch-pagos/,
  ],
  [
    'an in-memory store',
    (o) => {
      find(o, 'ConfigMap', 'switch-config').data!.SWITCH_STORE = 'memory';
    },
    /must run on Kafka and MongoDB/,
  ],
  [
    'an undocumented Secret in envFrom',
    (o) => {
      container(o, 'bank-plaza').envFrom!.push({ secretRef: { name: 'plaza-extra' } });
    },
    /Secret plaza-extra is not documented/,
  ],
  [
    'an autoscaler for a single-replica service',
    (o) => {
      o.push({
        ...structuredClone(find(o, 'HorizontalPodAutoscaler', 'router')),
        metadata: { name: 'reconciler', namespace: 'switch-test' },
      });
      o.at(-1)!.spec!.scaleTargetRef = { name: 'reconciler' };
    },
    /Deployment reconciler: unexpected HPA/,
  ],
  [
    'an autoscaler of nothing',
    (o) => {
      find(o, 'HorizontalPodAutoscaler', 'router').spec!.scaleTargetRef = { name: 'routr' };
    },
    /HPA targets a missing Deployment routr/,
  ],
  [
    "the gateway's operator port open to the namespace",
    (o) => {
      find(o, 'NetworkPolicy', 'gateway-allow-ingress-http').spec!.ingress!.push({
        from: [{ podSelector: {} }],
        ports: [{ port: 'operator' }],
      });
    },
    /admits others than monitoring to the operator port of gateway/,
  ],
  [
    'the router open to anyone',
    (o) => {
      find(o, 'NetworkPolicy', 'allow-ingress-prometheus').spec!.ingress!.push({ ports: [{ port: 'http' }] });
    },
    /admits anyone to router/,
  ],
  [
    'webhooks allowed into private ranges',
    (o) => {
      for (const r of find(o, 'NetworkPolicy', 'notifier-egress-webhooks').spec!.egress!)
        for (const to of r.to ?? []) if (to.ipBlock?.cidr === '0.0.0.0/0') to.ipBlock.except = [];
    },
    /internet egress does not exclude/,
  ],
  [
    'webhooks allowed beyond 80/443',
    (o) => {
      for (const r of find(o, 'NetworkPolicy', 'notifier-egress-webhooks').spec!.egress!)
        if ((r.to ?? []).some((t) => t.ipBlock?.cidr === '0.0.0.0/0')) r.ports!.push({ port: 22 });
    },
    /internet egress beyond 80\/443/,
  ],
  [
    'a monitor of another API group',
    (o) => {
      find(o, 'PodMonitor', 'switch-services').apiVersion = 'monitoring.coreos.com/v1alpha1';
    },
    /PodMonitor switch-services apiVersion is not monitoring.coreos.com\/v1/,
  ],
  [
    'the operator port on the merchant Service',
    (o) => {
      find(o, 'Service', 'gateway').spec!.ports!.push({ name: 'operator', port: 9100, targetPort: 'operator' });
    },
    /the gateway Service must carry the merchant port only/,
  ],
  [
    'the merchant port on the operator Service',
    (o) => {
      find(o, 'Service', 'gateway-operator').spec!.ports!.push({ name: 'http', port: 3000, targetPort: 'http' });
    },
    /the gateway-operator Service must carry the operator port only/,
  ],
  [
    'a PodMonitor on a port the pods do not name',
    (o) => {
      find(o, 'PodMonitor', 'switch-services').spec!.podMetricsEndpoints![0]!.port = 'metrics';
    },
    /PodMonitor switch-services endpoint port\/path does not match/,
  ],
  [
    'no PrometheusRule',
    (o) => {
      o.splice(o.indexOf(find(o, 'PrometheusRule', 'switch-pagos')), 1);
    },
    /expected one PrometheusRule with groups/,
  ],
  [
    'TLS from an undocumented Secret',
    (o) => {
      for (const t of o.find((x) => x.kind === 'Ingress')!.spec!.tls!) t.secretName = 'my-cert';
    },
    /terminate TLS with a Secret documented/,
  ],
  [
    'the emulators reachable from another namespace',
    (o) => {
      find(o, 'NetworkPolicy', 'bank-emulators-ingress-from-connectors').spec!.ingress![0]!.from!.push({ namespaceSelector: {} });
    },
    /must admit only named pods of its namespace/,
  ],
];

describe("the switch's own rules fail a manifest with", () => {
  it.each(PROJECT_BREAKS)('%s', async (_what, breakIt, finding) => {
    const objects = clone(rendered.test!.objects);
    breakIt(objects);
    const overlay = objects.some((o) => o.metadata.namespace === 'switch-live') ? 'live' : 'test';
    const findings = projectFindings(overlay, objects, await partitions(objects));
    expect(findings.join('\n')).toMatch(finding);
  });
});
