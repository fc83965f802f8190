import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface Infra {
  kafkaBrokers: string[];
  schemaRegistryUrl: string;
  mongoUrl: string;
  mode: 'env' | 'docker' | 'local';
  stop(): Promise<void>;
}

const REPO = resolve(__dirname, '../..');
/** The MongoDB container `npm run stack` runs on too (an ES module: loaded with import()). */
const mongoContainer = () => import('../../infra/stack/mongo-container.mjs');

/** 1. Endpoints named by the environment (CI, a developer's own servers). */
function fromEnv(): Infra | undefined {
  const { KAFKA_BROKERS: k, SCHEMA_REGISTRY_URL: s, MONGO_URL: m } = process.env;
  if (!k || !s || !m) return undefined;
  return {
    kafkaBrokers: k
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
    schemaRegistryUrl: s,
    mongoUrl: m,
    mode: 'env',
    stop: async () => {},
  };
}

/** 2. testcontainers, when a Docker engine answers (pinned 11.14.0: newer lines need Node 22). */
async function fromDocker(): Promise<Infra> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const started: { stop(): Promise<unknown> }[] = [];
  try {
    const kafka = await new KafkaContainer('confluentinc/cp-kafka:7.9.0').withKraft().start();
    started.push(kafka);
    // Same registry line as the local scripts (Apicurio 2.6, Confluent-compatible API).
    const registry = await new GenericContainer('apicurio/apicurio-registry-mem:2.6.13.Final')
      .withExposedPorts(8080)
      .withWaitStrategy(Wait.forHttp('/apis/ccompat/v7/subjects', 8080).forStatusCode(200))
      .start();
    started.push(registry);
    // Real MongoDB, as production runs it (the same container `npm run stack` runs on with Docker).
    const mongo = await (await mongoContainer()).startMongoContainer();
    started.push(mongo);
    return {
      kafkaBrokers: [`${kafka.getHost()}:${kafka.getMappedPort(9093)}`],
      schemaRegistryUrl: `http://${registry.getHost()}:${registry.getMappedPort(8080)}/apis/ccompat/v7`,
      mongoUrl: mongo.url,
      mode: 'docker',
      stop: async () => {
        await Promise.allSettled(started.map((c) => c.stop()));
      },
    };
  } catch (error) {
    await Promise.allSettled(started.map((c) => c.stop()));
    throw error;
  }
}

/**
 * 3. The project's own scripts: real Kafka, Apicurio and FerretDB from the package registries. Servers
 * already started by `infra/up.sh` (their env file exists and they answer) are reused; servers this
 * run starts are left running for the next run (`npm run infra:down` stops them), so a second
 * `npm test` does not pay the start-up again and parallel runs do not pull servers from each other.
 */
async function fromLocalScripts(): Promise<Infra> {
  const envFile = resolve(REPO, '.cache/infra.env');
  if (!existsSync(envFile) || !(await answering(readFileSync(envFile, 'utf8')))) {
    execFileSync('bash', [resolve(REPO, 'infra/up.sh')], { stdio: ['ignore', 'inherit', 'inherit'] });
    process.stdout.write('test infrastructure started by infra/up.sh and left running; `npm run infra:down` stops it\n');
  }
  const env = readFileSync(envFile, 'utf8');
  const value = (name: string) => {
    const m = new RegExp(`^export ${name}=(.*)$`, 'm').exec(env);
    if (!m) throw new Error(`infra/up.sh wrote no ${name}`);
    return m[1]!.trim();
  };
  return {
    kafkaBrokers: value('KAFKA_BROKERS').split(','),
    schemaRegistryUrl: value('SCHEMA_REGISTRY_URL'),
    mongoUrl: value('MONGO_URL'),
    mode: 'local',
    stop: async () => {},
  };
}

/** The registry answering is the cheapest sign the servers of an env file are up. */
async function answering(envText: string): Promise<boolean> {
  const url = /^export SCHEMA_REGISTRY_URL=(.*)$/m.exec(envText)?.[1]?.trim();
  if (!url) return false;
  try {
    return (await fetch(`${url}/subjects`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/** Environment first, then Docker, then the local scripts (issue: "Every service its own process..."). */
export async function resolveInfra(): Promise<Infra> {
  const env = fromEnv();
  if (env) return env;
  if (await (await mongoContainer()).dockerAvailable()) return fromDocker();
  return fromLocalScripts();
}
