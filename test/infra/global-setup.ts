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
  process.stdout.write(`test infrastructure: ${infra.mode} (kafka ${process.env.KAFKA_BROKERS}, mongo ${infra.mongoUrl})\n`);
  return () => infra.stop();
}
