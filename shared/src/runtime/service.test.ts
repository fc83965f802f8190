import { describe, expect, it } from 'vitest';
import { envReader } from '../config/env';
import { loadInfraConfig } from './service';

describe('loadInfraConfig', () => {
  const kafka = { KAFKA_BROKERS: 'a:9092,b:9092', SCHEMA_REGISTRY_URL: 'http://registry:8081', MONGO_URL: 'mongodb://m' };

  it('gives Kafka consumers a 6 s session by default, so a member killed with -9 loses its partitions fast', () => {
    expect(loadInfraConfig(envReader(kafka)).bus).toEqual({
      kind: 'kafka',
      brokers: ['a:9092', 'b:9092'],
      schemaRegistryUrl: 'http://registry:8081',
      sessionTimeoutMs: 6_000,
    });
  });

  it('reads SWITCH_KAFKA_SESSION_TIMEOUT_MS and refuses nonsense', () => {
    expect(loadInfraConfig(envReader({ ...kafka, SWITCH_KAFKA_SESSION_TIMEOUT_MS: '10000' })).bus).toMatchObject({
      sessionTimeoutMs: 10_000,
    });
    expect(() => loadInfraConfig(envReader({ ...kafka, SWITCH_KAFKA_SESSION_TIMEOUT_MS: '10' }))).toThrow(
      /SWITCH_KAFKA_SESSION_TIMEOUT_MS/,
    );
  });
});
