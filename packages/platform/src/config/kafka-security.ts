import { ConfigError, setting } from './env';

/**
 * TLS and SASL towards the brokers (a Strimzi cluster's `tls: true` listener with `scram-sha-512` or
 * `tls` authentication). Declared here, spread into the Kafka group (`infra.ts`), so they are
 * documented with the other Kafka settings. Files are named here and read when the bus is built
 * (`adapters/kafka/security.ts`): a Secret mounted as files can be rotated by restarting the pods.
 */
export const KafkaSecuritySettings = {
  ssl: setting.bool(
    'KAFKA_SSL',
    false,
    "connect to the brokers over TLS (a Strimzi listener with `tls: true`); the brokers' certificate is checked against `KAFKA_SSL_CA_FILE`, or the system CAs when unset",
  ),
  sslCaFile: setting.optionalString(
    'KAFKA_SSL_CA_FILE',
    "PEM file of the CA(s) that signed the brokers' certificates (Strimzi: `ca.crt` of the `<cluster>-cluster-ca-cert` Secret); needs `KAFKA_SSL=true`",
  ),
  sslCertFile: setting.optionalString(
    'KAFKA_SSL_CERT_FILE',
    'PEM client certificate for TLS client authentication (Strimzi `KafkaUser` with `authentication: tls`: `user.crt`); with `KAFKA_SSL_KEY_FILE`',
  ),
  sslKeyFile: setting.optionalString('KAFKA_SSL_KEY_FILE', 'PEM private key of `KAFKA_SSL_CERT_FILE` (Strimzi: `user.key`)'),
  saslMechanism: setting.oneOf(
    'KAFKA_SASL_MECHANISM',
    ['none', 'scram-sha-512', 'scram-sha-256', 'plain'],
    'none',
    'SASL authentication (Strimzi `KafkaUser` with `authentication: scram-sha-512`); `plain` sends the password itself, so it is refused without `KAFKA_SSL=true`',
  ),
  saslUsername: setting.optionalString('KAFKA_SASL_USERNAME', 'SASL user name; required with `KAFKA_SASL_MECHANISM`'),
  saslPassword: setting.optionalString(
    'KAFKA_SASL_PASSWORD',
    "SASL password (from a Secret, never a ConfigMap; Strimzi: `password` of the user's Secret); or `KAFKA_SASL_PASSWORD_FILE`, not both",
  ),
  saslPasswordFile: setting.optionalString(
    'KAFKA_SASL_PASSWORD_FILE',
    'file holding the SASL password (a mounted Secret key; one trailing newline is ignored); or `KAFKA_SASL_PASSWORD`, not both',
  ),
};

export type SaslMechanism = 'scram-sha-512' | 'scram-sha-256' | 'plain';

/** Where the SASL password comes from: its value (an environment variable) or a file read at start. */
export type SecretSource = { value: string } | { file: string; variable: string };

export interface KafkaSecurity {
  /** TLS to the brokers; absent: plaintext. */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
  sasl?: { mechanism: SaslMechanism; username: string; password: SecretSource };
}

interface Read {
  ssl: boolean;
  sslCaFile?: string;
  sslCertFile?: string;
  sslKeyFile?: string;
  saslMechanism: 'none' | SaslMechanism;
  saslUsername?: string;
  saslPassword?: string;
  saslPasswordFile?: string;
}

/**
 * The security of the Kafka connection, or nothing for a plaintext one. Every setting that would be
 * silently ignored is refused instead: a CA file without TLS, a user name without a mechanism, a
 * certificate without its key. A wrong setting must stop the service at start, not leave it talking
 * plaintext to a broker the operator believes is protected.
 */
export function kafkaSecurity(s: Read): { security?: KafkaSecurity } {
  const tls = s.ssl ? { ...(s.sslCaFile ? { caFile: s.sslCaFile } : {}), ...clientCertificate(s) } : undefined;
  if (!s.ssl) {
    for (const [variable, value] of [
      ['KAFKA_SSL_CA_FILE', s.sslCaFile],
      ['KAFKA_SSL_CERT_FILE', s.sslCertFile],
      ['KAFKA_SSL_KEY_FILE', s.sslKeyFile],
    ] as const) {
      if (value) throw new ConfigError(variable, 'is set but KAFKA_SSL is not true: the connection would be plaintext');
    }
  }
  const sasl = saslOf(s, Boolean(tls));
  if (!tls && !sasl) return {};
  return { security: { ...(tls ? { tls } : {}), ...(sasl ? { sasl } : {}) } };
}

function clientCertificate(s: Read): { certFile?: string; keyFile?: string } {
  if (Boolean(s.sslCertFile) !== Boolean(s.sslKeyFile)) {
    const [missing, given] = s.sslCertFile ? ['KAFKA_SSL_KEY_FILE', 'KAFKA_SSL_CERT_FILE'] : ['KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE'];
    throw new ConfigError(missing, `is required with ${given} (a client certificate and its key go together)`);
  }
  return s.sslCertFile && s.sslKeyFile ? { certFile: s.sslCertFile, keyFile: s.sslKeyFile } : {};
}

function saslOf(s: Read, overTls: boolean): KafkaSecurity['sasl'] {
  if (s.saslMechanism === 'none') {
    for (const [variable, value] of [
      ['KAFKA_SASL_USERNAME', s.saslUsername],
      ['KAFKA_SASL_PASSWORD', s.saslPassword],
      ['KAFKA_SASL_PASSWORD_FILE', s.saslPasswordFile],
    ] as const) {
      if (value) throw new ConfigError(variable, 'is set but KAFKA_SASL_MECHANISM is none: the client would not authenticate');
    }
    return undefined;
  }
  if (s.saslMechanism === 'plain' && !overTls) {
    throw new ConfigError('KAFKA_SASL_MECHANISM', 'plain sends the password as it is: it needs KAFKA_SSL=true (or use scram-sha-512)');
  }
  if (!s.saslUsername) throw new ConfigError('KAFKA_SASL_USERNAME', `is required with KAFKA_SASL_MECHANISM=${s.saslMechanism}`);
  if (s.saslPassword && s.saslPasswordFile) {
    throw new ConfigError('KAFKA_SASL_PASSWORD_FILE', 'and KAFKA_SASL_PASSWORD are both set: give the password one way');
  }
  const password: SecretSource | undefined = s.saslPassword
    ? { value: s.saslPassword }
    : s.saslPasswordFile
      ? { file: s.saslPasswordFile, variable: 'KAFKA_SASL_PASSWORD_FILE' }
      : undefined;
  if (!password) {
    throw new ConfigError('KAFKA_SASL_PASSWORD', `(or KAFKA_SASL_PASSWORD_FILE) is required with KAFKA_SASL_MECHANISM=${s.saslMechanism}`);
  }
  return { mechanism: s.saslMechanism, username: s.saslUsername, password };
}
