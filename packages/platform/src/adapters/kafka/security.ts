import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { SASLOptions } from 'kafkajs';
import { ConfigError } from '../../config/env';
import type { KafkaSecurity, SecretSource } from '../../config/kafka-security';

/** What kafkajs' client takes for TLS and SASL; every producer, consumer and admin of the bus inherits it. */
export interface ClientSecurity {
  ssl?: ConnectionOptions;
  sasl?: SASLOptions;
}

/**
 * The client options of `security`, with its files read now: a file that cannot be read stops the
 * service at start, naming the variable, instead of failing at the first connection.
 */
export function clientSecurity(security: KafkaSecurity | undefined): ClientSecurity {
  if (!security) return {};
  const { tls, sasl } = security;
  const ssl: ConnectionOptions | undefined = tls
    ? {
        // rejectUnauthorized stays Node's default (true): a broker whose certificate does not chain to
        // the CA is refused, never trusted for convenience.
        ...(tls.caFile ? { ca: read(tls.caFile, 'KAFKA_SSL_CA_FILE') } : {}),
        ...(tls.certFile ? { cert: read(tls.certFile, 'KAFKA_SSL_CERT_FILE') } : {}),
        ...(tls.keyFile ? { key: read(tls.keyFile, 'KAFKA_SSL_KEY_FILE') } : {}),
      }
    : undefined;
  return {
    ...(ssl ? { ssl } : {}),
    ...(sasl ? { sasl: { mechanism: sasl.mechanism, username: sasl.username, password: secret(sasl.password) } as SASLOptions } : {}),
  };
}

function read(file: string, variable: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(variable, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** A mounted Secret key often ends in a newline that is not part of the password. */
function secret(source: SecretSource): string {
  if ('value' in source) return source.value;
  const text = read(source.file, source.variable).replace(/\r?\n$/, '');
  if (text === '') throw new ConfigError(source.variable, `${source.file} is empty`);
  return text;
}
