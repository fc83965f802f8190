import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSettings, type EnvSource } from './env';
import { busConfig, KafkaSettings, type KafkaConfig } from './infra';
import { clientSecurity } from '../adapters/kafka/security';

const base = { KAFKA_BROKERS: 'kafka:9093', SCHEMA_REGISTRY_URL: 'http://registry:8081' };
const kafka = (env: EnvSource) => busConfig(readSettings(KafkaSettings, { ...base, ...env })) as KafkaConfig;

describe('Kafka TLS and SASL settings', () => {
  it('none set: plaintext, no security in the configuration', () => {
    expect(kafka({}).security).toBeUndefined();
    expect(clientSecurity(kafka({}).security)).toEqual({});
  });

  it('reads SCRAM with the password from the environment or from a file', () => {
    expect(kafka({ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'switch', KAFKA_SASL_PASSWORD: 's3cret' }).security).toEqual(
      {
        sasl: { mechanism: 'scram-sha-512', username: 'switch', password: { value: 's3cret' } },
      },
    );
    const dir = mkdtempSync(join(tmpdir(), 'kafka-security-'));
    try {
      const file = join(dir, 'password');
      writeFileSync(file, 'from-a-file\n');
      const security = kafka({
        KAFKA_SASL_MECHANISM: 'scram-sha-256',
        KAFKA_SASL_USERNAME: 'switch',
        KAFKA_SASL_PASSWORD_FILE: file,
      }).security;
      expect(clientSecurity(security)).toEqual({ sasl: { mechanism: 'scram-sha-256', username: 'switch', password: 'from-a-file' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads TLS with a CA and a client certificate, and refuses a file it cannot read, naming the variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kafka-security-'));
    try {
      for (const f of ['ca.crt', 'user.crt', 'user.key']) writeFileSync(join(dir, f), `pem of ${f}`);
      const security = kafka({
        KAFKA_SSL: 'true',
        KAFKA_SSL_CA_FILE: join(dir, 'ca.crt'),
        KAFKA_SSL_CERT_FILE: join(dir, 'user.crt'),
        KAFKA_SSL_KEY_FILE: join(dir, 'user.key'),
      }).security;
      expect(clientSecurity(security)).toEqual({ ssl: { ca: 'pem of ca.crt', cert: 'pem of user.crt', key: 'pem of user.key' } });
      expect(clientSecurity(kafka({ KAFKA_SSL: 'true' }).security)).toEqual({ ssl: {} });
      const missing = kafka({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: join(dir, 'nowhere.crt') }).security;
      expect(() => clientSecurity(missing)).toThrow(/KAFKA_SSL_CA_FILE: cannot read .*nowhere\.crt: ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses every setting that would be silently ignored or would leak the password', () => {
    const refusals: [EnvSource, RegExp][] = [
      [{ KAFKA_SSL_CA_FILE: '/ca.crt' }, /KAFKA_SSL_CA_FILE: is set but KAFKA_SSL is not true/],
      [{ KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: '/u.crt' }, /KAFKA_SSL_KEY_FILE: is required with KAFKA_SSL_CERT_FILE/],
      [{ KAFKA_SSL: 'true', KAFKA_SSL_KEY_FILE: '/u.key' }, /KAFKA_SSL_CERT_FILE: is required with KAFKA_SSL_KEY_FILE/],
      [{ KAFKA_SASL_USERNAME: 'switch' }, /KAFKA_SASL_USERNAME: is set but KAFKA_SASL_MECHANISM is none/],
      [{ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_PASSWORD: 'x' }, /KAFKA_SASL_USERNAME: is required/],
      [
        { KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'switch' },
        /KAFKA_SASL_PASSWORD: \(or KAFKA_SASL_PASSWORD_FILE\) is required/,
      ],
      [
        { KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'x', KAFKA_SASL_PASSWORD_FILE: '/p' },
        /KAFKA_SASL_PASSWORD_FILE: and KAFKA_SASL_PASSWORD are both set/,
      ],
      [
        { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'x' },
        /KAFKA_SASL_MECHANISM: plain .* needs KAFKA_SSL=true/,
      ],
      [{ KAFKA_SASL_MECHANISM: 'gssapi' }, /KAFKA_SASL_MECHANISM: "gssapi" is not one of none, scram-sha-512, scram-sha-256, plain/],
    ];
    for (const [env, error] of refusals) expect(() => kafka(env), JSON.stringify(env)).toThrow(error);
    expect(
      kafka({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'x' }).security,
    ).toEqual({
      tls: {},
      sasl: { mechanism: 'plain', username: 'u', password: { value: 'x' } },
    });
  });

  it('an empty password file is refused, not sent as an empty password', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kafka-security-'));
    try {
      writeFileSync(join(dir, 'password'), '\n');
      const security = kafka({
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD_FILE: join(dir, 'password'),
      }).security;
      expect(() => clientSecurity(security)).toThrow(/KAFKA_SASL_PASSWORD_FILE: .*password is empty/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
