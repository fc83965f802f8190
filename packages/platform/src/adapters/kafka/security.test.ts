import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Type } from '@sinclair/typebox';
import type { Topic } from '@switch/core/contracts/topics';
import { readSettings, type EnvSource } from '../../config/env';
import { InfraSettings } from '../../config/infra';
import { connectAdapters, infraConfig, type Adapters } from '../../runtime/service';
import { createLogger } from '../../telemetry/logger';

/**
 * The bus against a broker that requires what a Strimzi cluster requires: SASL/SCRAM, TLS with the
 * cluster's CA, TLS client certificates (infra/kafka/secure-broker.sh starts it, on ports 19400–19404
 * unless SECURE_KAFKA_PORT_BASE says otherwise). Each case goes the way a service does: its
 * environment, the typed configuration, connectAdapters. The schema registry is the shared one, also
 * behind an HTTPS front signed by the test CA (decision 0185: trusted through NODE_EXTRA_CA_CERTS).
 * Skipped only for a unit-only run (SWITCH_TEST_INFRA=none).
 */
const REPO = resolve(__dirname, '../../../../..');
const SCRIPT = join(REPO, 'infra/kafka/secure-broker.sh');
const STATE = join(REPO, '.cache/secure-kafka');
const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? '';
const run = promisify(execFile);

const Ping = Type.Object({ n: Type.Integer() });
const ping: Topic<typeof Ping> = { name: 'security.ping.v1', schema: Ping, partitions: 1 };

let broker: Record<string, string> = {};
const opened: Adapters[] = [];
let files = '';

/** Resolves `what` or rejects after `ms`: a refused connection must fail, not hang. */
const within = <T>(what: Promise<T>, ms: number, label: string) =>
  Promise.race([what, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${label}: not within ${ms} ms`)), ms).unref())]);

/** The namespace of this run: the switch's topics are created by the first bus that starts, found by the others. */
const RUN = `security-${randomUUID().slice(0, 8)}`;

/** A bus as a service builds it from its environment (connectAdapters creates or checks every switch topic). */
async function busFrom(env: EnvSource): Promise<Adapters> {
  const settings = readSettings(InfraSettings, {
    SWITCH_BUS: 'kafka',
    SWITCH_STORE: 'memory',
    SCHEMA_REGISTRY_URL: registryUrl,
    SWITCH_KAFKA_NAMESPACE: RUN,
    // One broker: one copy of each topic.
    SWITCH_KAFKA_REPLICATION_FACTOR: '1',
    SWITCH_KAFKA_MIN_INSYNC_REPLICAS: '1',
    ...env,
  });
  const adapters = await connectAdapters(
    infraConfig(settings),
    `security-test-${randomUUID().slice(0, 8)}`,
    createLogger('security-test', 'silent'),
  );
  opened.push(adapters);
  return adapters;
}

/** Publishes a message of its own and reads it back through a new consumer group; then closes the bus. */
async function roundTrip(adapters: Adapters): Promise<{ sent: number; read: number }> {
  const n = Math.floor(Math.random() * 1_000_000_000);
  let got!: (n: number) => void;
  const received = new Promise<number>((r) => (got = r));
  await adapters.bus.subscribe(ping, { group: `security-test-${randomUUID().slice(0, 8)}` }, async (m) => {
    if (m.value.n === n) got(n);
  });
  await adapters.bus.publish(ping, 'k', { n });
  const read = await within(received, 30_000, 'the message published');
  await adapters.close();
  return { sent: n, read };
}

describe.skipIf(process.env.SWITCH_TEST_INFRA === 'none')('KafkaBus with TLS and SASL (a broker that requires them)', () => {
  beforeAll(async () => {
    if (!registryUrl) throw new Error('SCHEMA_REGISTRY_URL is not set: run `npm run infra:up` and source .cache/infra.env');
    await run('bash', [SCRIPT, 'up'], { cwd: REPO, timeout: 170_000, env: { ...process.env, SECURE_KAFKA_STATE_DIR: STATE } });
    broker = Object.fromEntries(
      readFileSync(join(STATE, 'secure-kafka.env'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    files = mkdtempSync(join(tmpdir(), 'kafka-security-'));
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled(opened.map((a) => a.close()));
    await run('bash', [SCRIPT, 'down'], { cwd: REPO, timeout: 30_000, env: { ...process.env, SECURE_KAFKA_STATE_DIR: STATE } });
    if (files) rmSync(files, { recursive: true, force: true });
  }, 60_000);

  const cert = (name: string) => join(broker.SECURE_KAFKA_CERTS!, name);

  it('SCRAM-SHA-256 over SASL_PLAINTEXT: the right user produces and consumes', async () => {
    const bus = await busFrom({
      KAFKA_BROKERS: broker.SECURE_KAFKA_SCRAM,
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: broker.SECURE_KAFKA_USER,
      KAFKA_SASL_PASSWORD: broker.SECURE_KAFKA_PASSWORD,
    });
    const { sent, read } = await roundTrip(bus);
    expect(read).toBe(sent);
  });

  it('SCRAM-SHA-512 with the password read from a file (a mounted Secret, its trailing newline ignored)', async () => {
    const passwordFile = join(files, 'password');
    writeFileSync(passwordFile, `${broker.SECURE_KAFKA_PASSWORD}\n`);
    const bus = await busFrom({
      KAFKA_BROKERS: broker.SECURE_KAFKA_SCRAM,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: broker.SECURE_KAFKA_USER,
      KAFKA_SASL_PASSWORD_FILE: passwordFile,
    });
    const { sent, read } = await roundTrip(bus);
    expect(read).toBe(sent);
  });

  it("a wrong password or an unknown user stops the start with the broker's authentication error, not a hang", async () => {
    const wrong = busFrom({
      KAFKA_BROKERS: broker.SECURE_KAFKA_SCRAM,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: broker.SECURE_KAFKA_USER,
      KAFKA_SASL_PASSWORD: 'not-the-password',
    });
    await expect(within(wrong, 30_000, 'start with a wrong password')).rejects.toThrow(/SASL SCRAM SHA512 authentication failed/);
    const unknown = busFrom({
      KAFKA_BROKERS: broker.SECURE_KAFKA_SCRAM,
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: 'nobody',
      KAFKA_SASL_PASSWORD: broker.SECURE_KAFKA_PASSWORD,
    });
    await expect(within(unknown, 30_000, 'start as an unknown user')).rejects.toThrow(/SASL SCRAM SHA256 authentication failed/);
  });

  it('TLS with the cluster CA and SCRAM-SHA-512 (SASL_SSL, Strimzi `tls: true` + scram-sha-512): produces and consumes', async () => {
    const bus = await busFrom({
      KAFKA_BROKERS: broker.SECURE_KAFKA_SASL_SSL,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: cert('ca.crt'),
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: broker.SECURE_KAFKA_USER,
      KAFKA_SASL_PASSWORD: broker.SECURE_KAFKA_PASSWORD,
    });
    const { sent, read } = await roundTrip(bus);
    expect(read).toBe(sent);
  });

  it('PLAIN over TLS: produces and consumes', async () => {
    const bus = await busFrom({
      KAFKA_BROKERS: broker.SECURE_KAFKA_SASL_SSL,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: cert('ca.crt'),
      KAFKA_SASL_MECHANISM: 'plain',
      KAFKA_SASL_USERNAME: broker.SECURE_KAFKA_USER,
      KAFKA_SASL_PASSWORD: broker.SECURE_KAFKA_PASSWORD,
    });
    const { sent, read } = await roundTrip(bus);
    expect(read).toBe(sent);
  });

  it("TLS without the cluster's CA: the broker's certificate is refused at start (never trusted for convenience)", async () => {
    const start = busFrom({
      KAFKA_BROKERS: broker.SECURE_KAFKA_SASL_SSL,
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: broker.SECURE_KAFKA_USER,
      KAFKA_SASL_PASSWORD: broker.SECURE_KAFKA_PASSWORD,
    });
    await expect(within(start, 60_000, 'start against an untrusted broker')).rejects.toThrow(
      /self-signed certificate in certificate chain/,
    );
  });

  it('TLS client certificate (Strimzi `authentication: tls`): the CA-signed one produces and consumes, a stranger is refused', async () => {
    const bus = await busFrom({
      KAFKA_BROKERS: broker.SECURE_KAFKA_MTLS,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: cert('ca.crt'),
      KAFKA_SSL_CERT_FILE: cert('client.crt'),
      KAFKA_SSL_KEY_FILE: cert('client.key'),
    });
    const { sent, read } = await roundTrip(bus);
    expect(read).toBe(sent);
    const stranger = busFrom({
      KAFKA_BROKERS: broker.SECURE_KAFKA_MTLS,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: cert('ca.crt'),
      KAFKA_SSL_CERT_FILE: cert('stranger.crt'),
      KAFKA_SSL_KEY_FILE: cert('stranger.key'),
    });
    await expect(within(stranger, 60_000, 'start with a stranger certificate')).rejects.toThrow(/certificate unknown/);
  });

  it('a schema registry over HTTPS signed by a private CA: trusted through NODE_EXTRA_CA_CERTS, refused without it', async () => {
    // The shared registry behind a TLS front with the test CA's certificate for 127.0.0.1.
    const upstream = new URL(registryUrl);
    const front: Server = createHttpsServer(
      { key: readFileSync(cert('broker.key')), cert: readFileSync(cert('broker.crt')) },
      (req, res) => {
        const forward = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            path: req.url,
            method: req.method,
            headers: { ...req.headers, host: upstream.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on('error', () => res.writeHead(502).end());
        req.pipe(forward);
      },
    );
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const { port } = front.address() as AddressInfo;
      const client = (extra: Record<string, string>) =>
        run(join(REPO, 'node_modules/.bin/vite-node'), [join(REPO, 'packages/platform/test/fixtures/registry-client.ts')], {
          cwd: REPO,
          timeout: 60_000,
          env: {
            ...process.env,
            SCHEMA_REGISTRY_URL: `https://127.0.0.1:${port}${upstream.pathname}`,
            TOPIC: `${RUN}.registry-tls.v1`,
            ...extra,
          },
        }).then(
          ({ stdout }) => stdout.trim(),
          (e: { stdout?: string }) => (e.stdout ?? '').trim(),
        );
      expect(await client({ NODE_EXTRA_CA_CERTS: cert('ca.crt') })).toMatch(/^ok \d+$/);
      expect(await client({})).toMatch(/^error .*(self-signed certificate|unable to verify)/);
    } finally {
      await new Promise<void>((r) => front.close(() => r()));
    }
  });
});
