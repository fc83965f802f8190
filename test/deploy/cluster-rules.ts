/**
 * The deployment rules of a switch run on a cluster: every service reaches Kafka over TLS with its
 * SCRAM user from documented Secrets, its replicas are spread over nodes and covered by a disruption
 * budget, and the Strimzi resources (deploy/k8s/strimzi/<env>) are the topics and user the code asks
 * for in that environment. Pure: objects in, findings out (an empty list passes).
 */
import { isDeepStrictEqual } from 'node:util';
import { readSettings } from '@switch/platform/config/env';
import { KafkaSettings } from '@switch/platform/config/infra';
import { type K8sObject, matches, podEnvironment, SERVICES } from './rules';

interface SpreadConstraint {
  topologyKey?: string;
  whenUnsatisfiable?: string;
  maxSkew?: number;
  labelSelector?: { matchLabels?: Record<string, string> };
}
interface SecretVolume {
  name: string;
  secret?: { secretName?: string; items?: { key: string; path: string }[] };
}
interface Mount {
  name: string;
  mountPath: string;
}

/** The Strimzi resources' shape as these rules read it. */
export interface StrimziObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: {
    topicName?: string;
    partitions?: number;
    replicas?: number;
    config?: Record<string, string>;
    authentication?: { type?: string };
    authorization?: { acls?: { resource?: { type?: string; name?: string; patternType?: string } }[] };
  };
}

/** A DNS-1123 subdomain: what Kubernetes accepts as a resource name. */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Findings on the services of one rendered overlay. `documented`: the Secrets operators create
 * (secrets.example.yaml), name → keys.
 */
export function clusterFindings(overlay: string, objects: readonly K8sObject[], documented: Map<string, Set<string>>): string[] {
  const findings: string[] = [];
  const check = (ok: unknown, msg: string) => {
    if (!ok) findings.push(`${overlay}: ${msg}`);
  };
  const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((c) => [c.metadata.name, c]));
  const budgets = objects.filter((o) => o.kind === 'PodDisruptionBudget');
  for (const d of objects.filter((o) => o.kind === 'Deployment' && (SERVICES as readonly string[]).includes(o.metadata.name))) {
    const where = `Deployment ${d.metadata.name}`;
    const pod = d.spec!.template!.spec;
    const labels = d.spec!.template!.metadata.labels ?? {};
    const c = pod.containers[0]!;

    // Replicas over nodes, and a budget for voluntary disruptions (drains, upgrades).
    const spread = ((pod as { topologySpreadConstraints?: SpreadConstraint[] }).topologySpreadConstraints ?? []).find(
      (t) => t.topologyKey === 'kubernetes.io/hostname',
    );
    check(
      spread?.whenUnsatisfiable === 'DoNotSchedule' && spread.maxSkew === 1 && matches(spread.labelSelector, labels),
      `${where}: its replicas are not spread over nodes as a rule (topologySpreadConstraints on kubernetes.io/hostname, maxSkew 1, DoNotSchedule, selecting its own pods)`,
    );
    check(
      budgets.some((b) => matches(b.spec?.selector, labels)),
      `${where}: no PodDisruptionBudget`,
    );

    // Kafka over TLS, authenticated, with the password and the CA from documented Secrets.
    const env = podEnvironment(c, configMaps);
    const kafka = readSettings(KafkaSettings, env);
    check(kafka.ssl, `${where}: KAFKA_SSL is not true (the cluster's listener is TLS)`);
    check(kafka.saslMechanism === 'scram-sha-512', `${where}: KAFKA_SASL_MECHANISM is ${kafka.saslMechanism}, not scram-sha-512`);
    const password = (c.env ?? []).find((e) => e.name === 'KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef;
    check(
      password && documented.get(password.name)?.has(password.key),
      `${where}: KAFKA_SASL_PASSWORD does not come from a Secret documented in secrets.example.yaml`,
    );
    const volumes = new Map(((pod.volumes ?? []) as SecretVolume[]).map((v) => [v.name, v]));
    for (const v of volumes.values()) {
      if (!v.secret) continue;
      const keys = documented.get(v.secret.secretName ?? '');
      check(
        keys && (v.secret.items ?? []).every((i) => keys.has(i.key)),
        `${where}: volume ${v.name} mounts Secret ${v.secret.secretName} (keys ${(v.secret.items ?? []).map((i) => i.key)}), not documented in secrets.example.yaml`,
      );
    }
    const ca = kafka.sslCaFile;
    const mount = ((c.volumeMounts ?? []) as Mount[]).find((m) => ca?.startsWith(`${m.mountPath}/`));
    const file = ca && mount ? ca.slice(mount.mountPath.length + 1) : undefined;
    check(
      mount && volumes.get(mount.name)?.secret?.items?.some((i) => i.path === file),
      `${where}: KAFKA_SSL_CA_FILE ${ca} is not a file of a Secret it mounts`,
    );
  }
  return findings;
}

/**
 * Findings on an environment's Strimzi resources: `wanted` is what the code generates for the
 * environment's own configuration (test/deploy/kafka-resources.mjs, from the rendered ConfigMap).
 */
export function strimziFindings(
  overlay: string,
  resources: readonly StrimziObject[],
  wanted: { topics: readonly StrimziObject[]; user: StrimziObject },
  kafkaEnv: Record<string, string>,
): string[] {
  const findings: string[] = [];
  const check = (ok: unknown, msg: string) => {
    if (!ok) findings.push(`strimzi/${overlay}: ${msg}`);
  };
  const topics = resources.filter((o) => o.kind === 'KafkaTopic');
  const users = resources.filter((o) => o.kind === 'KafkaUser');
  const names = new Set<string>();
  for (const o of resources) {
    check(
      o.apiVersion === 'kafka.strimzi.io/v1beta2',
      `${o.kind}/${o.metadata.name}: apiVersion ${o.apiVersion}, not kafka.strimzi.io/v1beta2`,
    );
    check(o.metadata.namespace === 'kafka', `${o.kind}/${o.metadata.name}: not in namespace kafka, where Strimzi's operators watch`);
    check(
      o.metadata.labels?.['strimzi.io/cluster'],
      `${o.kind}/${o.metadata.name}: no strimzi.io/cluster label (no operator would act on it)`,
    );
    check(DNS_SUBDOMAIN.test(o.metadata.name) && o.metadata.name.length <= 253, `${o.kind}/${o.metadata.name}: not a valid resource name`);
    check(!names.has(`${o.kind}/${o.metadata.name}`), `${o.kind}/${o.metadata.name}: twice`);
    names.add(`${o.kind}/${o.metadata.name}`);
  }
  const byTopic = new Map(topics.map((t) => [t.spec?.topicName ?? '', t]));
  for (const want of wanted.topics) {
    const name = want.spec!.topicName!;
    const got = byTopic.get(name);
    if (!got) {
      check(false, `no KafkaTopic for ${name}, which the services use`);
      continue;
    }
    check(
      got.spec?.partitions === want.spec!.partitions,
      `${name}: ${got.spec?.partitions} partitions, the code wants ${want.spec!.partitions}`,
    );
    check(got.spec?.replicas === want.spec!.replicas, `${name}: replicas ${got.spec?.replicas}, the code wants ${want.spec!.replicas}`);
    for (const [key, value] of Object.entries(want.spec!.config ?? {}))
      check(got.spec?.config?.[key] === value, `${name}: ${key} is ${got.spec?.config?.[key]}, the code wants ${value}`);
    check((got.spec?.replicas ?? 0) >= 3, `${name}: fewer than 3 replicas`);
    check(Number(got.spec?.config?.['min.insync.replicas']) >= 2, `${name}: min.insync.replicas below 2`);
  }
  const wantedNames = new Set(wanted.topics.map((t) => t.spec!.topicName));
  for (const t of topics) check(wantedNames.has(t.spec?.topicName), `KafkaTopic ${t.spec?.topicName}: no service uses it`);

  check(users.length === 1, `expected one KafkaUser, found ${users.length}`);
  const user = users[0];
  if (user) {
    check(
      user.metadata.name === kafkaEnv.KAFKA_SASL_USERNAME,
      `KafkaUser ${user.metadata.name} is not KAFKA_SASL_USERNAME (${kafkaEnv.KAFKA_SASL_USERNAME})`,
    );
    check(user.spec?.authentication?.type === 'scram-sha-512', `KafkaUser ${user.metadata.name}: authentication is not scram-sha-512`);
    const topicAcls = (user.spec?.authorization?.acls ?? []).filter((a) => a.resource?.type === 'topic');
    check(
      topicAcls.length > 0 &&
        topicAcls.every((a) => a.resource?.patternType === 'prefix' && a.resource.name === `${kafkaEnv.SWITCH_KAFKA_NAMESPACE}.`),
      `KafkaUser ${user.metadata.name}: its topic rights are not limited to its namespace (${kafkaEnv.SWITCH_KAFKA_NAMESPACE}.)`,
    );
    check(isDeepStrictEqual(user.spec, wanted.user.spec), `KafkaUser ${user.metadata.name}: differs from what the code generates`);
  }
  return findings;
}
