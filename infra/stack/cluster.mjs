// The cluster stack (`npm run stack -- --cluster`, `npm run drills -- --cluster`): three KRaft brokers
// (infra/kafka-cluster.sh) beside the registry and database of infra/up.sh (INFRA_KAFKA=none), the
// switch's topics created with replication factor 3 and min.insync.replicas 2, and two replicas of each
// service that scales out. Ports 19300–19399: brokers 19301–19303, controllers 19311–19313, registry
// 19320, database 19330 (PostgreSQL 19340), gateways 19350/19351 (operator 19352/19353).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { REPO, scriptEnv } from './infra.mjs';
import { freePort } from './processes.mjs';

const require = createRequire(import.meta.url);
const { Kafka, logLevel } = require('kafkajs');

export const CLUSTER_PORTS = {
  brokers: [19301, 19302, 19303],
  controllers: [19311, 19312, 19313],
  registry: 19320,
  mongo: 19330,
  postgres: 19340,
  gateways: [19350, 19351],
  operators: [19352, 19353],
};
/** What every topic of the switch is created with on the cluster (and what the drills read back). */
export const CLUSTER_TOPIC_SETTINGS = { replicationFactor: 3, minInsyncReplicas: 2 };
/** The services run as two replicas (the emulators stand for the banks: one each). */
export const REPLICATED = [
  'gateway',
  'router',
  'notifier',
  'reconciler',
  'bank-sim',
  'bank-plaza',
  'bank-bancaribe',
  'bank-activo',
  'bank-bnc',
];

function runScript(script, args, env, log) {
  return new Promise((res, rej) => {
    const child = spawn('bash', [resolve(REPO, 'infra', script), ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (d) => {
      for (const l of d.toString().split('\n').filter(Boolean)) log(l);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => (code === 0 ? res() : rej(new Error(`infra/${script} ${args.join(' ')} exited with ${code}`))));
  });
}

/**
 * Starts the registry and the database (infra/up.sh, INFRA_KAFKA=none) and the three brokers, always
 * afresh (a drill leaves brokers in any state). Returns what `ensureInfra` returns, plus `brokers`:
 * per node { id, port, pid(), kill9(), start() }.
 */
export async function ensureClusterInfra({ stateDir, log = () => {} }) {
  const p = CLUSTER_PORTS;
  const env = {
    ...scriptEnv(
      stateDir,
      { kafka: p.brokers[0], controller: p.controllers[0], registry: p.registry, mongo: p.mongo, postgres: p.postgres },
      'ferretdb',
    ),
    INFRA_KAFKA: 'none',
    KAFKA_CLUSTER_PORTS: p.brokers.join(','),
    KAFKA_CLUSTER_CONTROLLER_PORTS: p.controllers.join(','),
  };
  await runScript('up.sh', [], env, log);
  try {
    await runScript('kafka-cluster.sh', ['up'], env, log);
  } catch (e) {
    await runScript('down.sh', [], env, log);
    throw e;
  }
  const { readFileSync } = await import('node:fs');
  const pidOf = (name) => {
    try {
      const pid = Number(readFileSync(resolve(stateDir, 'infra-run', `${name}.pid`), 'utf8').trim());
      process.kill(pid, 0);
      return pid;
    } catch {
      return null;
    }
  };
  const signal = (name, sig) => {
    const pid = pidOf(name);
    if (!pid) throw new Error(`infra ${name} is not running`);
    process.kill(-pid, sig);
  };
  const brokers = p.brokers.map((port, i) => {
    const id = i + 1;
    const name = `kafka-${id}`;
    return {
      id,
      port,
      pid: () => pidOf(name),
      /** SIGKILL to the node's process group; resolves once it is gone. */
      async kill9() {
        const pid = pidOf(name);
        if (!pid) return;
        process.kill(-pid, 'SIGKILL');
        while (pidOf(name)) await new Promise((r) => setTimeout(r, 100));
      },
      /** Starts the node again on its data (returns once it runs; it rejoins on its own). */
      start: () => runScript('kafka-cluster.sh', ['start', String(id)], env, log),
    };
  });
  return {
    reused: false,
    env: {
      KAFKA_BROKERS: p.brokers.map((b) => `127.0.0.1:${b}`).join(','),
      SCHEMA_REGISTRY_URL: `http://127.0.0.1:${p.registry}/apis/ccompat/v7`,
      MONGO_URL: `mongodb://127.0.0.1:${p.mongo}/`,
      // Stated, not defaulted: a shell that sourced the one-broker infra.env (1 and 1) must not leak in.
      SWITCH_KAFKA_REPLICATION_FACTOR: String(CLUSTER_TOPIC_SETTINGS.replicationFactor),
      SWITCH_KAFKA_MIN_INSYNC_REPLICAS: String(CLUSTER_TOPIC_SETTINGS.minInsyncReplicas),
    },
    database: 'ferretdb',
    containerId: null,
    brokers,
    pause: (name) => signal(name, 'SIGSTOP'),
    resume: (name) => signal(name, 'SIGCONT'),
    pid: pidOf,
    async stop() {
      for (const b of brokers) if (b.pid()) process.kill(-b.pid(), 'SIGCONT');
      await runScript('down.sh', [], env, log);
    },
  };
}

/**
 * Creates every topic of the switch (and its dead-letter topic) in `namespace` with replication factor
 * 3 and min.insync.replicas 2, before any service starts: the services then find them and create none.
 * The brokers' own defaults say the same (infra/kafka/cluster.properties), so a topic this list missed
 * would still be replicated; the drills read the settings back from the brokers.
 */
export async function createClusterTopics({ brokers, namespace, partitions }) {
  // The topics exactly as the services create and check them (partitions, copies, min ISR, retention
  // per kind): the Kafka adapter's own settings, so a service never finds a topic it would refuse.
  const { switchTopics } = require(resolve(REPO, 'packages/core/dist/contracts/topics.js'));
  const { deploymentTopics, creationOf } = require(resolve(REPO, 'packages/platform/dist/adapters/kafka/topic-settings.js'));
  const wanted = deploymentTopics(switchTopics(), { namespace, partitions, durability: CLUSTER_TOPIC_SETTINGS }).map(creationOf);
  const names = wanted.map((t) => t.topic);
  const kafka = new Kafka({ clientId: 'stack-topics', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const topics = wanted.filter((t) => !existing.has(t.topic));
    // Not `waitForLeaders`: a KRaft broker whose metadata lags the controller answers "does not host
    // this topic-partition" for a moment, which kafkajs throws; the leaders are awaited below instead.
    if (topics.length > 0) await admin.createTopics({ topics, waitForLeaders: false });
    await leadersElected(admin, names);
    return names;
  } finally {
    await admin.disconnect();
  }
}

/** Until every partition of `topics` has a leader (bounded: 60 s), asking again after each refusal. */
async function leadersElected(admin, topics) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const { topics: described } = await admin.fetchTopicMetadata({ topics });
      if (described.length === topics.length && described.every((t) => t.partitions.every((p) => p.leader >= 0))) return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
    if (Date.now() > deadline) throw new Error('the cluster elected no leader for some topics within 60 s');
    await new Promise((r) => setTimeout(r, 250)); // polling interval of the condition above
  }
}

/**
 * The cluster's topics as the brokers describe them: per topic its partitions, replication factor,
 * min.insync.replicas, and the partitions whose ISR is smaller than their replica set (under-replicated).
 */
export async function describeTopics({ brokers, prefix }) {
  const kafka = new Kafka({ clientId: 'stack-describe', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const names = (await admin.listTopics()).filter((n) => !prefix || n.startsWith(prefix)).sort();
    const { topics } = await admin.fetchTopicMetadata({ topics: names });
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: names.map((name) => ({ type: 2, name, configNames: ['min.insync.replicas', 'unclean.leader.election.enable'] })),
    });
    const config = new Map(
      configs.resources.map((r) => [r.resourceName, Object.fromEntries(r.configEntries.map((c) => [c.configName, c.configValue]))]),
    );
    return topics
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((t) => ({
        topic: t.name,
        partitions: t.partitions.length,
        replication_factor: Math.min(...t.partitions.map((p) => p.replicas.length)),
        min_insync_replicas: Number(config.get(t.name)?.['min.insync.replicas']),
        unclean_leader_election: config.get(t.name)?.['unclean.leader.election.enable'] === 'true',
        isr_min: Math.min(...t.partitions.map((p) => p.isr.length)),
        under_replicated: t.partitions.filter((p) => p.isr.length < p.replicas.length).length,
        leaders: t.partitions.map((p) => p.leader),
      }));
  } finally {
    await admin.disconnect();
  }
}

/** A third replica of these is defined but not started (`spare`): the drills add it under load. */
export const SPARES = ['router', 'bank-plaza'];

/**
 * Two replicas of each service in REPLICATED: the same definition with its own health port and
 * instance id (`router-1`, `router-2`); gateways on the cluster's gateway ports. The emulators stay one.
 */
export async function replicate(defs) {
  const out = [];
  for (const def of defs) {
    if (!REPLICATED.includes(def.name)) {
      out.push(def);
      continue;
    }
    for (const n of SPARES.includes(def.name) ? [1, 2, 3] : [1, 2]) {
      const name = `${def.name}-${n}`;
      const env = { ...def.env, SWITCH_INSTANCE_ID: name };
      if (def.name === 'gateway') {
        const port = CLUSTER_PORTS.gateways[n - 1];
        const operator = CLUSTER_PORTS.operators[n - 1];
        Object.assign(env, { PORT: String(port), OPERATOR_PORT: String(operator) });
        out.push({ ...def, name, env, port: operator, readyUrl: `http://127.0.0.1:${operator}/readyz`, gatewayPort: port });
      } else {
        const health = await freePort();
        env.HEALTH_PORT = String(health);
        out.push({ ...def, name, env, port: health, readyUrl: `http://127.0.0.1:${health}/readyz`, spare: n === 3 });
      }
    }
  }
  return out;
}
