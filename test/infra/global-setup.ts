import { resolveInfra } from './harness';

/**
 * Vitest global setup: makes real Kafka, schema registry and MongoDB-compatible endpoints available
 * to every test file through the environment (workers inherit it). `SWITCH_TEST_INFRA=none` skips
 * this for a unit-only run; integration suites then fail loudly instead of passing silently.
 */
export default async function setup(): Promise<(() => Promise<void>) | void> {
  if (process.env.SWITCH_TEST_INFRA === 'none') return;
  const infra = await resolveInfra();
  process.env.KAFKA_BROKERS = infra.kafkaBrokers.join(',');
  process.env.SCHEMA_REGISTRY_URL = infra.schemaRegistryUrl;
  process.env.MONGO_URL = infra.mongoUrl;
  // The test brokers are one broker (docker, local scripts, an env file naming one address): services
  // started by tests create and require one copy of each topic. A cluster's environment names its own.
  if (infra.kafkaBrokers.length === 1) {
    process.env.SWITCH_KAFKA_REPLICATION_FACTOR ??= '1';
    process.env.SWITCH_KAFKA_MIN_INSYNC_REPLICAS ??= '1';
  }
  process.stdout.write(`test infrastructure: ${infra.mode} (kafka ${process.env.KAFKA_BROKERS}, mongo ${infra.mongoUrl})\n`);
  return () => infra.stop();
}
