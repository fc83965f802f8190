/**
 * The switch's own deployment rules, on the objects of one rendered overlay. What any Kubernetes
 * workload should hold (security contexts, resources, probes, TLS, egress with destinations) is
 * conftest's (deploy/policy/kubernetes.rego); these are the rules only this switch has, read from its
 * code: which services exist and what they run, the ports they listen on (config/ports.ts), the
 * variables their configuration needs (the real loaders run on each pod's environment), the topic
 * partitions that bound their autoscaling, the secrets documented for operators, and the monitoring
 * objects. Pure: objects in, findings out (an empty list passes).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { LISTENERS, type Listener } from '@switch/platform/config/listeners';
import { listenPort } from '@switch/platform/config/ports';
import { type EnvSource, readSettings } from '@switch/platform/config/env';
import { InfraSettings } from '@switch/platform/config/infra';
import { ProcessSettings } from '@switch/platform/config/process';
import { infraConfig } from '@switch/platform/runtime/service';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import {
  DEFAULT_BANK_CALL_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  deriveTimings,
  STARTUP_MS,
  longestBankCallMs,
  minimumGraceSeconds,
} from '@switch/platform/config/timings';
import { loadPlazaConfig } from '../../services/bank-plaza/src/config';
import { loadBancaribeConfig } from '../../services/bank-bancaribe/src/config';
import { loadActivoConfig } from '../../services/bank-activo/src/config';
import { loadBncConfig } from '../../services/bank-bnc/src/config';

export const REPO = resolve(__dirname, '../..');

// --- The objects, as far as these rules read them

export interface Meta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
}
export interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
export interface Port {
  name?: string;
  containerPort?: number;
  port?: number | string;
  targetPort?: number | string;
  protocol?: string;
}
export interface Probe {
  httpGet?: { path?: string; port?: number | string };
  periodSeconds?: number;
  failureThreshold?: number;
}
export interface Container {
  name: string;
  image?: string;
  command?: string[];
  ports?: Port[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
  lifecycle?: { preStop?: { exec?: { command?: string[] } } };
  volumeMounts?: { name: string; mountPath: string }[];
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    privileged?: boolean;
    capabilities?: { drop?: string[] };
  };
}
export interface PodSpec {
  containers: Container[];
  volumes?: { name: string; emptyDir?: object }[];
  terminationGracePeriodSeconds?: number;
  automountServiceAccountToken?: boolean;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
}
export interface NetworkPeer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}
export interface NetworkRule {
  from?: NetworkPeer[];
  to?: NetworkPeer[];
  ports?: Port[];
}
export interface IngressBackend {
  service?: { name: string; port?: { name?: string; number?: number } };
}
/** One Kubernetes object; `spec` holds the fields of every kind these rules read. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Meta;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    /** A Service's selector is a plain label map; a workload's, a Selector. */
    selector?: Selector;
    template?: { metadata: { labels?: Record<string, string> }; spec: PodSpec };
    scaleTargetRef?: { name: string };
    minReplicas?: number;
    maxReplicas?: number;
    ports?: Port[];
    podSelector?: Selector;
    policyTypes?: string[];
    ingress?: NetworkRule[];
    egress?: NetworkRule[];
    endpoints?: { port?: string; path?: string }[];
    podMetricsEndpoints?: { port?: string; path?: string }[];
    groups?: unknown[];
    tls?: { hosts?: string[]; secretName?: string }[];
    rules?: { host?: string; http?: { paths: { backend: IngressBackend }[] } }[];
    defaultBackend?: IngressBackend;
  };
}

export function parseObjects(yamlText: string): K8sObject[] {
  return parseAllDocuments(yamlText)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((d): d is K8sObject => d !== null);
}

// --- What the manifests must say, from the code

/** The switch's services: a Deployment each, named as its folder in services/ and its listener. */
export const SERVICES = [
  'gateway',
  'router',
  'bank-sim',
  'notifier',
  'reconciler',
  'bank-plaza',
  'bank-bancaribe',
  'bank-activo',
  'bank-bnc',
  'panel',
] as const satisfies readonly Listener[];
export type Service = (typeof SERVICES)[number];

/** The bank each connector serves (its orders' topic: switch.bank.<banco>.requests.v1). */
export const BANK_CONNECTORS: Partial<Record<Service, string>> = {
  'bank-plaza': 'banco_plaza',
  'bank-bancaribe': 'bancaribe',
  'bank-activo': 'banco_activo',
  'bank-bnc': 'bnc',
};

/** Each connector's own configuration loader: its bank timeouts bound its handlers, so its shutdown. */
const BANK_CONFIG_LOADERS: Partial<Record<Service, (env: EnvSource) => object>> = {
  'bank-plaza': loadPlazaConfig,
  'bank-bancaribe': loadBancaribeConfig,
  'bank-activo': loadActivoConfig,
  'bank-bnc': loadBncConfig,
};

/** Which topic's partitions bound a service's replicas (consumers beyond them idle). */
export type PartitionBound = Partial<Record<Service, number>>;

/** Services an HPA scales; the others run one replica (the panel and reconciler are light, bank-sim is a stand-in). */
const AUTOSCALED: readonly Service[] = ['gateway', 'router', 'notifier', 'bank-plaza', 'bank-bancaribe', 'bank-activo', 'bank-bnc'];

/** Test-only Deployments (the banks' emulators), with the image they must run: never the switch's. */
const TEST_ONLY: Record<string, string> = { 'bank-emulators': 'switch-pagos-emulators' };

/** Variable names that hold secrets: never a literal value, never in a ConfigMap. */
export const SECRET_NAME =
  /(^MONGO_URL$|^SWITCH_SECRETS_|_API_KEY$|_API_SECRET$|_SECRET$|_TOKEN$|_PASSWORD$|_MASTER_KEY$|_CLIENT_GUID$|_CLIENT_HASH$|_CONSUMER_KEY$)/;
const PRIVATE_V4 = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '127.0.0.0/8'];
/** Ports of what the services reach outside the namespace. */
const DEPENDENCIES = [
  { what: 'DNS', protocol: 'UDP', port: 53 },
  { what: 'Kafka', protocol: 'TCP', port: 9092 },
  { what: 'MongoDB', protocol: 'TCP', port: 27017 },
] as const;

/** The secrets operators create (deploy/k8s/secrets.example.yaml): name → keys. */
export function documentedSecrets(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const d of parseObjects(readFileSync(join(REPO, 'deploy/k8s/secrets.example.yaml'), 'utf8'))) {
    if (d.kind === 'Secret') out.set(d.metadata.name, new Set([...Object.keys(d.stringData ?? {}), ...Object.keys(d.data ?? {})]));
  }
  return out;
}

/** The file `node` runs for a service: its main.ts compiled by its tsconfig (rootDir → outDir). */
export function entrypoint(service: Service): string {
  const dir = join('services', service);
  const { compilerOptions } = JSON.parse(readFileSync(join(REPO, dir, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: { rootDir: string; outDir: string };
  };
  const main = relative(compilerOptions.rootDir, 'src/main.ts').replace(/\.ts$/, '.js');
  return join(dir, compilerOptions.outDir, main);
}

// --- Helpers

export function matches(selector: Selector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const value = l[e.key];
    const listed = value !== undefined && (e.values ?? []).includes(value);
    if (e.operator === 'In' && !listed) return false;
    if (e.operator === 'NotIn' && listed) return false;
    if (e.operator === 'Exists' && value === undefined) return false;
    if (e.operator === 'DoesNotExist' && value !== undefined) return false;
  }
  return true;
}

/** Bytes of a Kubernetes memory quantity. */
export function bytes(q: string): number {
  const units: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9 };
  const m = /^([0-9.]+)([A-Za-z]*)$/.exec(q);
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] ? (units[m[2]] ?? Number.NaN) : 1);
}

/**
 * A pod's environment as its process sees it: its ConfigMaps (envFrom), then its own variables. A
 * value from a Secret is a stand-in of the right shape (the real one is the operator's).
 */
export function podEnvironment(c: Container, configMaps: Map<string, K8sObject>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const ef of c.envFrom ?? []) {
    if (ef.configMapRef) Object.assign(env, configMaps.get(ef.configMapRef.name)?.data ?? {});
  }
  for (const e of c.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.secretKeyRef) env[e.name] = secretStandIn(e.name);
  }
  return env;
}

function secretStandIn(name: string): string {
  // The secrets key and the previous keys: 32 bytes in base64 each.
  if (name.startsWith('SWITCH_SECRETS_')) return Buffer.alloc(32, 7).toString('base64');
  if (name === 'MONGO_URL') return 'mongodb://mongo.example:27017/';
  return `stand-in-for-${name.toLowerCase()}-from-its-secret`;
}

/** The configuration error a loader throws on this environment, or null when it loads. */
function loads(load: (env: EnvSource) => unknown, env: Record<string, string>): string | null {
  try {
    load(env);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

// --- The rules

/**
 * Findings for one rendered overlay. `partitions`: for each consumer the partitions of the topic it
 * reads, as the code computes them from the overlay's configuration.
 */
export function projectFindings(overlay: string, objects: readonly K8sObject[], partitions: PartitionBound): string[] {
  const findings: string[] = [];
  const check = (ok: unknown, msg: string) => {
    if (!ok) findings.push(`${overlay}: ${msg}`);
    return Boolean(ok);
  };
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const secrets = documentedSecrets();
  const documented = (name: string, key?: string) => secrets.has(name) && (key === undefined || secrets.get(name)!.has(key));
  const configMaps = new Map(byKind('ConfigMap').map((c) => [c.metadata.name, c]));
  const deployments = new Map(byKind('Deployment').map((d) => [d.metadata.name, d]));
  const services = new Map([...deployments].filter(([n]) => !(n in TEST_ONLY)));
  const networkPolicies = byKind('NetworkPolicy');
  const podLabels = (d: K8sObject) => d.spec?.template?.metadata.labels ?? {};
  const policiesFor = (d: K8sObject, type: string) =>
    networkPolicies.filter((p) => (p.spec?.policyTypes ?? []).includes(type) && matches(p.spec?.podSelector, podLabels(d)));

  // One namespace holds everything.
  const namespaces = byKind('Namespace');
  if (check(namespaces.length === 1, `expected one Namespace, found ${namespaces.length}`)) {
    const ns = namespaces[0]!.metadata.name;
    for (const o of objects)
      if (o.kind !== 'Namespace') check(o.metadata.namespace === ns, `${o.kind}/${o.metadata.name} is not in namespace ${ns}`);
  }

  for (const cm of configMaps.values())
    for (const key of Object.keys(cm.data ?? {}))
      check(!SECRET_NAME.test(key), `ConfigMap ${cm.metadata.name} holds ${key}, which is a secret`);

  // Every service, and nothing else but the test-only Deployments.
  check(
    [...services.keys()].sort().join() === [...SERVICES].sort().join(),
    `Deployments [${[...services.keys()].sort()}] are not the services [${[...SERVICES].sort()}]`,
  );
  const hpas = new Map(byKind('HorizontalPodAutoscaler').map((h) => [h.spec?.scaleTargetRef?.name ?? '', h]));

  for (const [name, d] of services) {
    if (!(SERVICES as readonly string[]).includes(name)) continue;
    const service = name as Service;
    const where = `Deployment ${name}`;
    const pod = d.spec?.template?.spec;
    if (!check(pod && pod.containers.length === 1, `${where}: expected one container`) || !pod) continue;
    const labels = podLabels(d);
    check(
      labels['app.kubernetes.io/part-of'] === 'switch-pagos',
      `${where}: pods lack app.kubernetes.io/part-of=switch-pagos (network policies, PodMonitor)`,
    );
    const c = pod.containers[0]!;
    const volumes = new Map((pod.volumes ?? []).map((v) => [v.name, v]));
    check(
      (c.volumeMounts ?? []).some((m) => m.mountPath === '/tmp' && volumes.get(m.name)?.emptyDir),
      `${where}: no emptyDir on /tmp (the root filesystem is read-only)`,
    );
    check(
      existsSync(join(REPO, 'services', service, 'src/main.ts')),
      `${where}: services/${service}/src/main.ts does not exist (the pod would crash)`,
    );
    const main = entrypoint(service);
    check(c.command?.join(' ') === `node ${main}`, `${where}: command [${c.command}] is not node ${main}`);

    // Ports: the manifest's, the code's default and what the code reads from the pod's environment agree.
    const env = podEnvironment(c, configMaps);
    const ports = new Map((c.ports ?? []).map((p) => [p.name, p.containerPort]));
    const http = LISTENERS[service].port;
    check(ports.get('http') === http, `${where}: container port "http" is ${ports.get('http')}, the service listens on ${http}`);
    check(listenPort(env, service) === http, `${where}: its environment moves the service off its port ${http}`);
    const operator = service === 'gateway' ? LISTENERS['gateway-operator'].port : undefined;
    if (operator !== undefined)
      check(ports.get('operator') === operator, `${where}: container port "operator" is ${ports.get('operator')}, expected ${operator}`);
    const [probeName, probePort] = operator !== undefined ? ['operator', operator] : ['http', http];
    for (const [probe, path] of [
      ['readinessProbe', '/readyz'],
      ['livenessProbe', '/healthz'],
      ['startupProbe', '/healthz'],
    ] as const) {
      const get = c[probe]?.httpGet;
      check(
        get?.path === path && (get.port === probeName || get.port === probePort),
        `${where}: ${probe} must GET ${path} on port ${probeName}`,
      );
    }

    // Secrets from documented Secrets only.
    for (const e of c.env ?? []) {
      if (!SECRET_NAME.test(e.name)) continue;
      const ref = e.valueFrom?.secretKeyRef;
      if (check(e.value === undefined && ref, `${where}: ${e.name} must come from a Secret (secretKeyRef), not a literal`) && ref)
        check(
          documented(ref.name, ref.key),
          `${where}: secret ${ref.name}/${ref.key} is not documented in deploy/k8s/secrets.example.yaml`,
        );
    }
    for (const ef of c.envFrom ?? []) {
      if (ef.configMapRef)
        check(configMaps.has(ef.configMapRef.name), `${where}: envFrom ConfigMap ${ef.configMapRef.name} is not rendered`);
      if (ef.secretRef)
        check(documented(ef.secretRef.name), `${where}: Secret ${ef.secretRef.name} is not documented in secrets.example.yaml`);
    }

    // The configuration the service reads at start loads from this environment.
    const infra = loads((source) => infraConfig(readSettings(InfraSettings, source)), env);
    check(infra === null, `${where}: its configuration does not load: ${infra}`);
    check(env.SWITCH_STORE === 'mongo' && env.SWITCH_BUS === 'kafka', `${where}: must run on Kafka and MongoDB (SWITCH_BUS, SWITCH_STORE)`);
    check(env.SWITCH_KAFKA_NAMESPACE, `${where}: SWITCH_KAFKA_NAMESPACE is not set (test and live share one Kafka cluster)`);
    if (service === 'gateway') {
      try {
        const g = loadGatewayConfig(env);
        check(g.host === '0.0.0.0', `${where}: HOST must be 0.0.0.0 (the default 127.0.0.1 is unreachable)`);
        check(g.operatorHost === '0.0.0.0', `${where}: OPERATOR_HOST must be 0.0.0.0 (probes and Prometheus cannot reach 127.0.0.1)`);
        check(
          g.port === http && g.operatorPort === operator,
          `${where}: listens on ${g.port}/${g.operatorPort}, the pod opens ${http}/${operator}`,
        );
        check(g.adminToken, `${where}: SWITCH_ADMIN_TOKEN is not set`);
      } catch (e) {
        check(false, `${where}: its configuration does not load: ${(e as Error).message}`);
      }
    } else {
      check(env.HEALTH_HOST === '0.0.0.0', `${where}: HEALTH_HOST must be 0.0.0.0 (probes and Prometheus cannot reach 127.0.0.1)`);
    }

    const heap = /--max-old-space-size=(\d+)/.exec(env.NODE_OPTIONS ?? '');
    const memory = c.resources?.limits?.memory;
    if (heap && memory) check(Number(heap[1]) * 2 ** 20 < bytes(memory), `${where}: --max-old-space-size is not below the memory limit`);

    // A stop finishes within the grace period: the preStop pause, then the process's shutdown bound as
    // the code derives it from this pod's environment (a connector's from its bank timeouts).
    const pre = c.lifecycle?.preStop?.exec?.command ?? [];
    const preMs = pre.length === 2 && pre[0] === 'sleep' ? Number(pre[1]) * 1000 : 0;
    const grace = pod.terminationGracePeriodSeconds ?? 30;
    const bankConfig = BANK_CONFIG_LOADERS[service];
    let bankCallMs = 0;
    if (bankConfig) {
      // Its Secrets (envFrom) hold the bank's credentials: stand-ins for every documented key.
      const withSecrets: Record<string, string> = {};
      for (const ef of c.envFrom ?? [])
        for (const key of (ef.secretRef && secrets.get(ef.secretRef.name)) || []) withSecrets[key] = secretStandIn(key);
      try {
        bankCallMs = longestBankCallMs(bankConfig({ ...withSecrets, ...env }) as Record<string, unknown>);
      } catch {
        // The live overlay leaves the merchant's identity to the operator: bound it by the longest
        // answer timeout the pod sets, or every connector's default.
        const set = Object.entries(env)
          .filter(([k]) => k.endsWith('_TIMEOUT_MS') && !k.endsWith('CONNECT_TIMEOUT_MS'))
          .map(([, v]) => Number(v) + DEFAULT_CONNECT_TIMEOUT_MS);
        bankCallMs = Math.max(DEFAULT_BANK_CALL_MS, ...set);
      }
    }
    const timings = deriveTimings({
      bankCallMs,
      shutdownMs: readSettings(ProcessSettings, env).shutdownMs,
      sessionTimeoutMs: readSettings(InfraSettings, env).bus.sessionTimeoutMs,
    });
    const least = minimumGraceSeconds(timings, preMs);
    // A slow start ends in serving or in a clear error before the startup probe gives up on it.
    const startup = c.startupProbe;
    const startupMs = (startup?.periodSeconds ?? 10) * (startup?.failureThreshold ?? 3) * 1000;
    check(
      startupMs >= STARTUP_MS,
      `${where}: startupProbe allows ${startupMs / 1000}s, below the ${STARTUP_MS / 1000}s a start may take (store, then group joins)`,
    );
    check(
      grace >= least,
      `${where}: terminationGracePeriodSeconds ${grace}s is below ${least}s: preStop ${preMs} ms + shutdown ${timings.shutdownMs} ms (handler ${timings.handlerMs} ms) + margin`,
    );

    // Autoscaling within the partitions of the topic the service reads.
    const hpa = hpas.get(name);
    if (AUTOSCALED.includes(service)) {
      if (check(hpa, `${where}: no HorizontalPodAutoscaler`) && hpa) {
        const bound = partitions[service];
        const max = hpa.spec?.maxReplicas ?? 0;
        if (bound !== undefined)
          check(max <= bound, `HPA ${name}: maxReplicas ${max} exceeds the partitions of the topic it reads (${bound})`);
        check(d.spec?.replicas === undefined, `${where}: sets spec.replicas although an HPA scales it (every apply would reset the scale)`);
      }
    } else {
      check(!hpa, `${where}: unexpected HPA`);
    }

    check(
      byKind('Service').some(
        (s) =>
          s.spec?.selector &&
          matches({ matchLabels: s.spec.selector as Record<string, string> }, labels) &&
          (s.spec.ports ?? []).some((p) => p.name === 'http' && (p.targetPort === 'http' || p.targetPort === http)),
      ),
      `${where}: no Service with port "http" selects its pods`,
    );
    check(
      byKind('PodDisruptionBudget').some((p) => matches(p.spec?.selector, labels)),
      `${where}: no PodDisruptionBudget`,
    );

    // Network: what it reaches, who reaches it.
    const egress = policiesFor(d, 'Egress');
    const open = new Set(
      egress.flatMap((p) => (p.spec?.egress ?? []).flatMap((r) => (r.ports ?? []).map((pt) => `${pt.protocol ?? 'TCP'}/${pt.port}`))),
    );
    for (const dep of DEPENDENCIES)
      check(open.has(`${dep.protocol}/${dep.port}`), `${name} has no egress for ${dep.what} ${dep.protocol}/${dep.port}`);
    const ingress = policiesFor(d, 'Ingress');
    check(
      ingress.some((p) => (p.spec?.ingress ?? []).some((r) => (r.from ?? []).some((f) => f.namespaceSelector))),
      `${name} admits no Prometheus scrape`,
    );
    for (const p of ingress) {
      for (const r of p.spec?.ingress ?? []) {
        const rulePorts = new Set((r.ports ?? []).map((pt) => pt.port));
        if (operator !== undefined && (!r.ports || rulePorts.has('operator') || rulePorts.has(operator)))
          check(
            r.from?.length && r.from.every((f) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring'),
            `${p.metadata.name} admits others than monitoring to the operator port of ${name}`,
          );
        if (!r.from)
          check(
            service === 'gateway' && r.ports?.length && r.ports.every((pt) => pt.port === LISTENERS.gateway.port),
            `${p.metadata.name} admits anyone to ${name}: only the gateway's merchant port may be open`,
          );
      }
    }
    for (const p of egress) {
      for (const r of p.spec?.egress ?? []) {
        for (const to of r.to ?? []) {
          const cidr = to.ipBlock?.cidr;
          if (cidr !== '0.0.0.0/0' && cidr !== '::/0') continue;
          check(service === 'notifier', `${p.metadata.name} opens the internet to ${name}`);
          if (cidr === '0.0.0.0/0')
            check(
              PRIVATE_V4.every((x) => (to.ipBlock?.except ?? []).includes(x)),
              `${p.metadata.name}: internet egress does not exclude ${PRIVATE_V4}`,
            );
          check(
            (r.ports ?? []).every((pt) => pt.port === 80 || pt.port === 443),
            `${p.metadata.name}: internet egress beyond 80/443`,
          );
        }
      }
    }
    if (BANK_CONNECTORS[service])
      check(
        networkPolicies.some((p) => p.metadata.name === `${name}-egress-bank-api`),
        `${name} has no egress policy to its bank`,
      );
  }
  for (const target of hpas.keys()) check(deployments.has(target), `HPA targets a missing Deployment ${target}`);

  const denyAll = networkPolicies.find((p) => p.metadata.name === 'default-deny-all');
  check(
    denyAll &&
      Object.keys(denyAll.spec?.podSelector ?? { x: 1 }).length === 0 &&
      [...(denyAll.spec?.policyTypes ?? [])].sort().join() === 'Egress,Ingress' &&
      !denyAll.spec?.ingress?.length &&
      !denyAll.spec?.egress?.length,
    'no default-deny-all policy (Ingress and Egress)',
  );

  monitoringFindings(objects, services, check);
  ingressFindings(byKind('Ingress'), documented, check);
  for (const [name, d] of deployments) if (name in TEST_ONLY) testOnlyFindings(overlay, d, networkPolicies, documented, check);
  return findings;
}

type Check = (ok: unknown, msg: string) => boolean;

/** Prometheus Operator objects: what is scraped, on which port, and the rules. */
function monitoringFindings(objects: readonly K8sObject[], services: Map<string, K8sObject>, check: Check): void {
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const monitors = byKind('ServiceMonitor');
  const podMonitors = byKind('PodMonitor');
  const rules = byKind('PrometheusRule');
  for (const o of [...monitors, ...podMonitors, ...rules])
    check(o.apiVersion === 'monitoring.coreos.com/v1', `${o.kind} ${o.metadata.name} apiVersion is not monitoring.coreos.com/v1`);
  const svc = (n: string) => byKind('Service').find((s) => s.metadata.name === n);
  const gateway = svc('gateway');
  const operator = svc('gateway-operator');
  const sm = monitors[0];
  check(
    monitors.length === 1 &&
      sm &&
      operator &&
      matches(sm.spec?.selector, operator.metadata.labels) &&
      !(gateway && matches(sm.spec?.selector, gateway.metadata.labels)) &&
      (sm.spec?.endpoints ?? []).every((e) => e.port === 'operator' && e.path === '/metrics'),
    'the ServiceMonitor must select the gateway-operator Service only and scrape /metrics on its "operator" port',
  );
  if (gateway)
    check(
      (gateway.spec?.ports ?? []).every((p) => p.targetPort === 'http' || p.targetPort === LISTENERS.gateway.port),
      'the gateway Service must carry the merchant port only (the operator port is in gateway-operator)',
    );
  if (operator)
    check(
      (operator.spec?.ports ?? []).every((p) => p.targetPort === 'operator' || p.targetPort === LISTENERS['gateway-operator'].port),
      'the gateway-operator Service must carry the operator port only',
    );
  const scraped = new Set<string>();
  for (const pm of podMonitors) {
    for (const [n, d] of services) {
      if (!matches(pm.spec?.selector, d.spec?.template?.metadata.labels)) continue;
      const named = (d.spec?.template?.spec.containers[0]?.ports ?? []).map((p) => p.name);
      check(
        (pm.spec?.podMetricsEndpoints ?? []).every((e) => named.includes(e.port) && e.path === '/metrics'),
        `PodMonitor ${pm.metadata.name} endpoint port/path does not match ${n}`,
      );
      scraped.add(n);
    }
  }
  const expected = [...services.keys()].filter((n) => n !== 'gateway').sort();
  check(
    [...scraped].sort().join() === expected.join(),
    `PodMonitors scrape [${[...scraped].sort()}], expected every service but the gateway`,
  );
  check(rules.length === 1 && rules[0]!.spec?.groups?.length, 'expected one PrometheusRule with groups');
}

/** The Ingress: the merchants' ports only, over TLS with a documented certificate Secret. */
function ingressFindings(ingresses: readonly K8sObject[], documented: (name: string, key?: string) => boolean, check: Check): void {
  if (!check(ingresses.length === 1, `expected one Ingress (the merchant API), found ${ingresses.length}`)) return;
  const ig = ingresses[0]!;
  check(ig.apiVersion === 'networking.k8s.io/v1', 'Ingress apiVersion is not networking.k8s.io/v1');
  check(
    (ig.spec?.tls ?? []).every((t) => t.secretName && documented(t.secretName, 'tls.crt') && documented(t.secretName, 'tls.key')),
    'the Ingress must terminate TLS with a Secret documented in secrets.example.yaml (tls.crt, tls.key)',
  );
  const backends = [
    ...(ig.spec?.defaultBackend ? [ig.spec.defaultBackend] : []),
    ...(ig.spec?.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend)),
  ];
  // Merchant-facing ports only: the gateway's API and the panel's pages, never an operator or health port.
  const publicPorts: Record<string, { name: string; number: number }> = {
    gateway: { name: 'http', number: LISTENERS.gateway.port },
    panel: { name: 'web', number: LISTENERS['panel-web'].port },
  };
  check(
    backends.length > 0 &&
      backends.every((b) => {
        const allowed = publicPorts[b.service?.name ?? ''];
        const port = b.service?.port ?? {};
        return allowed && (port.name === allowed.name || port.number === allowed.number);
      }),
    `the Ingress may route only to the gateway's merchant port (http/${LISTENERS.gateway.port}) and the panel's (web/${LISTENERS['panel-web'].port})`,
  );
}

/**
 * A test-only Deployment (the banks' emulators): never live, its own image, outside the switch's
 * shared policies and monitors, reachable only from pods of its namespace on named ports.
 */
function testOnlyFindings(
  overlay: string,
  d: K8sObject,
  networkPolicies: readonly K8sObject[],
  documented: (name: string, key?: string) => boolean,
  check: Check,
): void {
  const name = d.metadata.name;
  const where = `test-only Deployment ${name}`;
  check(!overlay.includes('live') && !(d.metadata.namespace ?? '').includes('live'), `${where}: rendered into a live environment`);
  const labels = d.spec?.template?.metadata.labels ?? {};
  check(
    labels['app.kubernetes.io/part-of'] !== 'switch-pagos',
    `${where}: its pods must not carry part-of=switch-pagos (the switch's egress policies and PodMonitor would take them in)`,
  );
  const image = TEST_ONLY[name]!;
  for (const c of d.spec?.template?.spec.containers ?? []) {
    const repo = (c.image ?? '').split('@')[0]!.replace(/:[^/:]*$/, '');
    check(
      repo === image || repo.endsWith(`/${image}`),
      `${where} container ${c.name}: image ${c.image} is not the test-only ${image} image`,
    );
    for (const e of c.env ?? []) {
      if (!SECRET_NAME.test(e.name)) continue;
      const ref = e.valueFrom?.secretKeyRef;
      check(
        e.value === undefined && ref && documented(ref.name, ref.key),
        `${where} container ${c.name}: ${e.name} must come from a Secret documented in deploy/k8s/secrets.example.yaml`,
      );
    }
  }
  const ingress = networkPolicies.filter((p) => (p.spec?.policyTypes ?? []).includes('Ingress') && matches(p.spec?.podSelector, labels));
  check(ingress.length > 0, `${where}: no ingress policy admits its clients`);
  for (const p of ingress)
    for (const r of p.spec?.ingress ?? [])
      check(
        r.from?.length && r.from.every((f) => Object.keys(f).join() === 'podSelector') && r.ports?.length,
        `${p.metadata.name} must admit only named pods of its namespace, on named ports`,
      );
}
