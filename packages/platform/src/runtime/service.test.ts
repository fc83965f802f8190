import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readSettings, type EnvSource } from '../config/env';
import { InfraSettings } from '../config/infra';
import { infraConfig } from './service';

const loadInfraConfig = (env: EnvSource) => infraConfig(readSettings(InfraSettings, env));

describe('infraConfig', () => {
  const kafka = {
    KAFKA_BROKERS: 'a:9092,b:9092',
    SCHEMA_REGISTRY_URL: 'http://registry:8081',
    MONGO_URL: 'mongodb://m',
    SWITCH_SECRETS_KEY: randomBytes(32).toString('base64'),
  };

  it('gives Kafka consumers a 6 s session by default, so a member killed with -9 loses its partitions fast', () => {
    expect(loadInfraConfig(kafka).bus).toEqual({
      kind: 'kafka',
      brokers: ['a:9092', 'b:9092'],
      schemaRegistryUrl: 'http://registry:8081',
      sessionTimeoutMs: 6_000,
      namespace: '',
      partitions: 6,
      // Production's: three copies, two of which hold a message before a publish succeeds.
      durability: { replicationFactor: 3, minInsyncReplicas: 2 },
    });
  });

  it('reads the replication factor and min.insync.replicas, and refuses more in-sync replicas than copies', () => {
    expect(loadInfraConfig({ ...kafka, SWITCH_KAFKA_REPLICATION_FACTOR: '1', SWITCH_KAFKA_MIN_INSYNC_REPLICAS: '1' }).bus).toMatchObject({
      durability: { replicationFactor: 1, minInsyncReplicas: 1 },
    });
    expect(() => loadInfraConfig({ ...kafka, SWITCH_KAFKA_REPLICATION_FACTOR: '1' })).toThrow(
      /SWITCH_KAFKA_MIN_INSYNC_REPLICAS: 2 is more than SWITCH_KAFKA_REPLICATION_FACTOR \(1\)/,
    );
    expect(() => loadInfraConfig({ ...kafka, SWITCH_KAFKA_REPLICATION_FACTOR: '0' })).toThrow(/SWITCH_KAFKA_REPLICATION_FACTOR/);
  });

  it('reads SWITCH_KAFKA_SESSION_TIMEOUT_MS and refuses nonsense', () => {
    expect(loadInfraConfig({ ...kafka, SWITCH_KAFKA_SESSION_TIMEOUT_MS: '10000' }).bus).toMatchObject({
      sessionTimeoutMs: 10_000,
    });
    expect(() => loadInfraConfig({ ...kafka, SWITCH_KAFKA_SESSION_TIMEOUT_MS: '10' })).toThrow(/SWITCH_KAFKA_SESSION_TIMEOUT_MS/);
  });

  it('reads the topic namespace and the per-operation partitions, and refuses a partition count out of range', () => {
    expect(loadInfraConfig({ ...kafka, SWITCH_KAFKA_NAMESPACE: 'switch-live', SWITCH_KAFKA_PARTITIONS: '12' }).bus).toMatchObject({
      namespace: 'switch-live',
      partitions: 12,
    });
    expect(() => loadInfraConfig({ ...kafka, SWITCH_KAFKA_PARTITIONS: '0' })).toThrow(/SWITCH_KAFKA_PARTITIONS/);
    expect(() => loadInfraConfig({ ...kafka, SWITCH_KAFKA_PARTITIONS: '257' })).toThrow(/SWITCH_KAFKA_PARTITIONS/);
  });

  it('refuses to start over MongoDB without SWITCH_SECRETS_KEY; the in-memory store gets an ephemeral key', () => {
    const { SWITCH_SECRETS_KEY: _k, ...withoutKey } = kafka;
    expect(() => loadInfraConfig(withoutKey)).toThrow(/SWITCH_SECRETS_KEY: is required with a persistent store/);
    expect(loadInfraConfig({ SWITCH_BUS: 'memory', SWITCH_STORE: 'memory' }).secrets.seal('x')).toMatch(/^sb1\./);
  });
});
