import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { type K8sObject, documentedSecrets, parseObjects, podEnvironment, REPO } from './rules';
import { clusterFindings, type StrimziObject, strimziFindings } from './cluster-rules';
import { goTool, run } from './tools';
// @ts-expect-error a plain ES module (the npm script runs it with node), without types
import { kafkaTopics, kafkaUser, rendered as generated } from './kafka-resources.mjs';

/**
 * What running on a cluster asks of the manifests (issue 29): Kafka over TLS with SCRAM from
 * documented Secrets, replicas spread over nodes with a disruption budget each, and the Strimzi
 * resources of each environment (deploy/k8s/strimzi/<env>) generated from the code and equal to
 * what the services of that environment will require of their topics. Each rule is shown failing.
 */
const OVERLAYS = ['test', 'live'] as const;
type Overlay = (typeof OVERLAYS)[number];

const overlays = {} as Record<Overlay, K8sObject[]>;
const strimzi = {} as Record<Overlay, StrimziObject[]>;

beforeAll(async () => {
  const kustomize = await goTool('kustomize');
  for (const overlay of OVERLAYS) {
    for (const [dir, into] of [
      [`deploy/k8s/overlays/${overlay}`, overlays],
      [`deploy/k8s/strimzi/${overlay}`, strimzi],
    ] as const) {
      const build = await run(kustomize, ['build', dir], { cwd: REPO });
      expect(build.status, `kustomize build ${dir}\n${build.stderr}`).toBe(0);
      (into as Record<Overlay, unknown>)[overlay] = parseObjects(build.stdout);
    }
  }
}, 30 * 60_000);

const clone = <T>(x: T): T => structuredClone(x);
const deployment = (objects: K8sObject[], name: string) => objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name)!;

/** The router's environment as the overlay gives it (every service reads the same switch-config). */
function kafkaEnvironment(objects: readonly K8sObject[]): Record<string, string> {
  const configMaps = new Map(objects.filter((o) => o.kind === 'ConfigMap').map((c) => [c.metadata.name, c]));
  return podEnvironment(deployment(objects as K8sObject[], 'router').spec!.template!.spec.containers[0]!, configMaps);
}

function wanted(objects: readonly K8sObject[]) {
  const env = kafkaEnvironment(objects);
  return { topics: kafkaTopics(env) as StrimziObject[], user: kafkaUser(env) as StrimziObject };
}

describe.each(OVERLAYS)('overlay %s on a cluster', (overlay) => {
  it('every service reaches Kafka over TLS with its SCRAM user from documented Secrets; replicas spread over nodes; a disruption budget each', () => {
    expect(clusterFindings(overlay, overlays[overlay], documentedSecrets())).toEqual([]);
  });

  it('deploy/k8s/strimzi/<env> is what `npm run deploy:kafka` writes from the code', () => {
    for (const [file, text] of Object.entries(generated(overlay) as Record<string, string>)) {
      expect(
        readFileSync(join(REPO, 'deploy/k8s/strimzi', overlay, file), 'utf8'),
        `deploy/k8s/strimzi/${overlay}/${file} is stale: run npm run deploy:kafka`,
      ).toBe(text);
    }
  });

  it('its KafkaTopics and KafkaUser are those the code requires in this environment (partitions, 3 replicas, min.insync.replicas 2, retention per kind)', () => {
    const objects = overlays[overlay];
    expect(strimziFindings(overlay, strimzi[overlay], wanted(objects), kafkaEnvironment(objects))).toEqual([]);
    expect(strimzi[overlay].filter((o) => o.kind === 'KafkaTopic').length).toBeGreaterThanOrEqual(30);
  });
});

/** Each cluster rule, failing a manifest broken for it. */
const CLUSTER_BREAKS: [string, (o: K8sObject[]) => void, RegExp][] = [
  [
    'replicas free to share a node',
    (o) => {
      const pod = deployment(o, 'router').spec!.template!.spec as unknown as { topologySpreadConstraints: { whenUnsatisfiable: string }[] };
      pod.topologySpreadConstraints[0]!.whenUnsatisfiable = 'ScheduleAnyway';
    },
    /Deployment router: its replicas are not spread over nodes/,
  ],
  [
    'a service without a disruption budget',
    (o) => {
      o.splice(o.indexOf(o.find((x) => x.kind === 'PodDisruptionBudget' && x.metadata.name === 'notifier')!), 1);
    },
    /Deployment notifier: no PodDisruptionBudget/,
  ],
  [
    'Kafka in plaintext',
    (o) => {
      const c = deployment(o, 'gateway').spec!.template!.spec.containers[0]!;
      c.env = [...(c.env ?? []), { name: 'KAFKA_SSL', value: 'false' }, { name: 'KAFKA_SSL_CA_FILE', value: '' }];
    },
    /Deployment gateway: KAFKA_SSL is not true/,
  ],
  [
    'the SASL password from an undocumented Secret',
    (o) => {
      const e = deployment(o, 'bank-bnc').spec!.template!.spec.containers[0]!.env!.find((x) => x.name === 'KAFKA_SASL_PASSWORD')!;
      e.valueFrom!.secretKeyRef!.name = 'kafka-password';
    },
    /Deployment bank-bnc: KAFKA_SASL_PASSWORD does not come from a Secret documented/,
  ],
  [
    'the CA file outside any mounted Secret',
    (o) => {
      const c = deployment(o, 'reconciler').spec!.template!.spec.containers[0]!;
      c.volumeMounts = (c.volumeMounts ?? []).filter((m) => m.name !== 'kafka-ca');
    },
    /Deployment reconciler: KAFKA_SSL_CA_FILE \/etc\/switch\/kafka-ca\/ca.crt is not a file of a Secret it mounts/,
  ],
];

describe('the cluster rules fail a manifest with', () => {
  it.each(CLUSTER_BREAKS)('%s', (_what, breakIt, finding) => {
    const objects = clone(overlays.test);
    breakIt(objects);
    expect(clusterFindings('test', objects, documentedSecrets()).join('\n')).toMatch(finding);
  });
});

const STRIMZI_BREAKS: [string, (o: StrimziObject[]) => void, RegExp][] = [
  [
    'a topic with other partitions than the services require',
    (o) => (o.find((t) => t.spec?.topicName === 'switch-test.switch.router.inbox.v2')!.spec!.partitions = 6),
    /switch-test.switch.router.inbox.v2: 6 partitions, the code wants 12/,
  ],
  [
    'a topic with one copy',
    (o) => (o.find((t) => t.spec?.topicName === 'switch-test.switch.transactions.events.v1')!.spec!.replicas = 1),
    /switch-test.switch.transactions.events.v1: replicas 1, the code wants 3/,
  ],
  [
    'a topic whose min.insync.replicas is 1',
    (o) => (o.find((t) => t.spec?.topicName === 'switch-test.switch.bank.bnc.requests.v1')!.spec!.config!['min.insync.replicas'] = '1'),
    /switch-test.switch.bank.bnc.requests.v1: min.insync.replicas is 1, the code wants 2/,
  ],
  [
    'a dead-letter topic that expires',
    (o) => (o.find((t) => t.spec?.topicName === 'switch-test.switch.router.inbox.v2.dlq')!.spec!.config!['retention.ms'] = '604800000'),
    /switch-test.switch.router.inbox.v2.dlq: retention.ms is 604800000, the code wants -1/,
  ],
  [
    'a topic missing',
    (o) => {
      o.splice(
        o.findIndex((t) => t.spec?.topicName === 'switch-test.switch.gateway.answers.v1'),
        1,
      );
    },
    /no KafkaTopic for switch-test.switch.gateway.answers.v1/,
  ],
  [
    'a KafkaTopic outside the Kafka namespace',
    (o) => (o.find((t) => t.kind === 'KafkaTopic')!.metadata.namespace = 'switch-test'),
    /not in namespace kafka/,
  ],
  [
    'a user with rights on every topic',
    (o) => {
      const user = o.find((t) => t.kind === 'KafkaUser')!;
      user.spec!.authorization!.acls![0]!.resource!.name = '';
    },
    /its topic rights are not limited to its namespace/,
  ],
];

describe('the Strimzi rules fail resources with', () => {
  it.each(STRIMZI_BREAKS)('%s', (_what, breakIt, finding) => {
    const resources = clone(strimzi.test);
    breakIt(resources);
    const objects = overlays.test;
    expect(strimziFindings('test', resources, wanted(objects), kafkaEnvironment(objects)).join('\n')).toMatch(finding);
  });
});

it('the generated files parse as YAML with one document per resource', () => {
  const text = readFileSync(join(REPO, 'deploy/k8s/strimzi/live/topics.yaml'), 'utf8');
  expect(parseAllDocuments(text).every((d) => d.errors.length === 0)).toBe(true);
});
