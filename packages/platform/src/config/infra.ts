import type { Static } from '@sinclair/typebox';
import { DEFAULT_WORK_PARTITIONS } from '@switch/core/contracts/topics';
import { ConfigError, setting, settings } from './env';
import { KEY_BYTES, SecretBox } from '../runtime/secret-box';
import { KafkaSecuritySettings, kafkaSecurity, type KafkaSecurity } from './kafka-security';

/** How long the broker keeps a silent consumer's partitions (the broker's usual minimum). */
export const DEFAULT_SESSION_TIMEOUT_MS = 6_000;

/** The bus: Kafka (with its schema registry) or, for the one-process switch, memory. */
export const KafkaSettings = settings(
  {
    kind: setting.oneOf('SWITCH_BUS', ['kafka', 'memory'], 'kafka', '`kafka`, or `memory` (only when every service shares one process)'),
    brokers: setting.optionalString('KAFKA_BROKERS', 'comma-separated `host:port`; required with `SWITCH_BUS=kafka`'),
    schemaRegistryUrl: setting.optionalString(
      'SCHEMA_REGISTRY_URL',
      'Confluent-compatible registry API, e.g. `http://registry:8081/apis/ccompat/v7`; required with `SWITCH_BUS=kafka`',
    ),
    namespace: setting.optionalString(
      'SWITCH_KAFKA_NAMESPACE',
      'prefix of every topic, consumer group and registry subject: several environments (test and live) share one cluster',
    ),
    partitions: setting.int(
      'SWITCH_KAFKA_PARTITIONS',
      DEFAULT_WORK_PARTITIONS,
      'partitions of the per-operation topics (router inbox, events, bank orders): created with it, and a service refuses to start on such a topic with another count; caps the concurrent bank calls per bank (docs/operations.md "Scaling")',
      { min: 1, max: 256 },
    ),
    replicationFactor: setting.int(
      'SWITCH_KAFKA_REPLICATION_FACTOR',
      3,
      'copies of every topic the switch creates, and required of every topic it finds (a service refuses to start otherwise); 1 only on a one-broker cluster (local runs)',
      { min: 1, max: 7 },
    ),
    minInsyncReplicas: setting.int(
      'SWITCH_KAFKA_MIN_INSYNC_REPLICAS',
      2,
      '`min.insync.replicas` of every topic, created with it and required of existing ones: copies that hold a message before a publish succeeds; at most `SWITCH_KAFKA_REPLICATION_FACTOR`, below it so one broker may be down',
      { min: 1, max: 7 },
    ),
    sessionTimeoutMs: setting.int(
      'SWITCH_KAFKA_SESSION_TIMEOUT_MS',
      DEFAULT_SESSION_TIMEOUT_MS,
      "how long the broker keeps a consumer's partitions without a heartbeat: a process killed with -9 loses its work after this (6000 is the broker's usual minimum)",
      { min: 1_000, max: 300_000 },
    ),
    ...KafkaSecuritySettings,
  },
  'Kafka',
);

/** The store: MongoDB or, for the one-process switch, memory. */
export const StoreSettings = settings(
  {
    kind: setting.oneOf('SWITCH_STORE', ['mongo', 'memory'], 'mongo', '`mongo`, or `memory` (only when every service shares one process)'),
    url: setting.optionalString('MONGO_URL', 'MongoDB connection string; required with `SWITCH_STORE=mongo`'),
    database: setting.string('MONGO_DATABASE', 'switch', 'database name'),
  },
  'Store',
);

/** The secrets key (secret-box.ts): what seals webhook secrets and payers' OTPs at rest. */
export const SecretsSettings = settings(
  {
    key: setting.optionalString(
      'SWITCH_SECRETS_KEY',
      '32 random bytes in standard base64 (`openssl rand -base64 32`), the same for every service, never in the database; required over MongoDB, ephemeral over the in-memory store when unset',
      { defaultText: 'required with `SWITCH_STORE=mongo`' },
    ),
    previousKeys: setting.optionalString(
      'SWITCH_SECRETS_PREVIOUS_KEYS',
      'during a key rotation only: the previous key(s), comma-separated, still accepted for opening, never for sealing (operations.md "Rotating the secrets key")',
    ),
  },
  'Secrets',
);

/** Every service process that connects to the bus and the store reads these. */
export const InfraSettings = settings({ bus: KafkaSettings, store: StoreSettings, secrets: SecretsSettings });
export type InfraSettings = Static<typeof InfraSettings>;

/** The Kafka connection, when the bus is Kafka. */
export interface KafkaConfig {
  kind: 'kafka';
  brokers: string[];
  schemaRegistryUrl: string;
  /** How soon a member that died without leaving (kill -9) loses its partitions. */
  sessionTimeoutMs: number;
  /** Prefix of every topic name on the cluster ('' for none). */
  namespace: string;
  /** Partitions of the per-operation topics, created with it and required of existing ones. */
  partitions: number;
  /** Copies of each topic and `min.insync.replicas`, created with them and required of existing topics. */
  durability: { replicationFactor: number; minInsyncReplicas: number };
  /** TLS and SASL towards the brokers; absent: plaintext without authentication (a local broker). */
  security?: KafkaSecurity;
}

export type BusConfig = KafkaConfig | { kind: 'memory' };
export type StoreConfig = { kind: 'mongo'; url: string; database: string } | { kind: 'memory' };

const REQUIRED = 'is required (or run all services in one process with `npm start`)';

export function busConfig(s: Static<typeof KafkaSettings>): BusConfig {
  if (s.kind === 'memory') return { kind: 'memory' };
  if (!s.brokers) throw new ConfigError('KAFKA_BROKERS', REQUIRED);
  if (!s.schemaRegistryUrl) throw new ConfigError('SCHEMA_REGISTRY_URL', REQUIRED);
  if (s.minInsyncReplicas > s.replicationFactor) {
    throw new ConfigError(
      'SWITCH_KAFKA_MIN_INSYNC_REPLICAS',
      `${s.minInsyncReplicas} is more than SWITCH_KAFKA_REPLICATION_FACTOR (${s.replicationFactor}): no publish could succeed`,
    );
  }
  return {
    kind: 'kafka',
    brokers: s.brokers
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    schemaRegistryUrl: s.schemaRegistryUrl,
    sessionTimeoutMs: s.sessionTimeoutMs,
    namespace: s.namespace ?? '',
    partitions: s.partitions,
    durability: { replicationFactor: s.replicationFactor, minInsyncReplicas: s.minInsyncReplicas },
    ...kafkaSecurity(s),
  };
}

export function storeConfig(s: Static<typeof StoreSettings>): StoreConfig {
  if (s.kind === 'memory') return { kind: 'memory' };
  if (!s.url) throw new ConfigError('MONGO_URL', REQUIRED);
  return { kind: 'mongo', url: s.url, database: s.database };
}

function parseKey(name: string, value: string): Buffer {
  const key = Buffer.from(value, 'base64');
  if (key.length !== KEY_BYTES || key.toString('base64').replace(/=+$/, '') !== value.replace(/=+$/, ''))
    throw new ConfigError(name, `must be ${KEY_BYTES} random bytes in standard base64 (e.g. \`openssl rand -base64 32\`)`);
  return key;
}

/**
 * The secret box from `SWITCH_SECRETS_KEY` (current) and `SWITCH_SECRETS_PREVIOUS_KEYS` (comma-separated,
 * still accepted for reading). `persistent`: the store keeps what is sealed (MongoDB), so a key is
 * required — an ephemeral key would leave every stored secret unreadable after a restart. A process
 * over the in-memory store (`npm start`) gets an ephemeral key when none is given.
 */
export function secretBox(s: Static<typeof SecretsSettings>, persistent: boolean): SecretBox {
  const current = s.key;
  if (!current) {
    if (persistent)
      throw new ConfigError(
        'SWITCH_SECRETS_KEY',
        'is required with a persistent store: 32 random bytes in base64 (`openssl rand -base64 32`), kept outside the database (docs/configuration.md)',
      );
    return SecretBox.ephemeral();
  }
  const previous = (s.previousKeys ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => parseKey('SWITCH_SECRETS_PREVIOUS_KEYS', k));
  return new SecretBox(parseKey('SWITCH_SECRETS_KEY', current), previous);
}
