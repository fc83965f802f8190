import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach } from 'vitest';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const REPO = resolve(__dirname, '../..');

export interface ServiceProcess {
  name: string;
  /** The service's HTTP port: the merchant API of a gateway, the health server of a worker, an emulator's API. */
  port: number;
  /** Where /metrics, /healthz, /readyz (and a gateway's /admin/v1) answer: a gateway's OPERATOR_PORT, else `port`. */
  operatorPort: number;
  child: ChildProcess;
  /** Everything the process wrote, for diagnosis when a test fails. */
  output(): string;
  /** SIGKILL: no shutdown hook runs, in-flight work is cut (crash tests). */
  kill9(): Promise<void>;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

/**
 * One test file's run on the shared servers: its own topic namespace and database, an operator token,
 * and the environment every service process of the file shares. `requireInfra` throws, naming what is
 * missing, when the real Kafka, registry and MongoDB-compatible endpoints are not given.
 */
export function isolatedRun(prefix: string): { adminToken: string; env: Record<string, string>; requireInfra(): void } {
  const run = `${prefix}${Date.now().toString(36)}${randomUUID().slice(0, 4)}`;
  const adminToken = `admin-${randomUUID()}`;
  return {
    adminToken,
    env: {
      SWITCH_BUS: 'kafka',
      SWITCH_STORE: 'mongo',
      SWITCH_KAFKA_NAMESPACE: run,
      MONGO_DATABASE: run,
      SWITCH_ADMIN_TOKEN: adminToken,
      // One secrets key per run, shared by every service of it (services over MongoDB require one).
      SWITCH_SECRETS_KEY: randomBytes(32).toString('base64'),
      SWITCH_ANSWER_TIMEOUT_MS: '20000',
      SWITCH_SHUTDOWN_MS: '10000',
    },
    requireInfra: () => {
      const missing = ['KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'MONGO_URL'].filter((v) => !process.env[v]);
      if (missing.length)
        throw new Error(`end-to-end tests need ${missing.join(', ')}: run \`npm run infra:up\` and \`. .cache/infra.env\``);
    },
  };
}

/** Children still running when the test worker exits are killed, so a failed run leaves no orphans. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** The last lines each running service wrote. */
function runningServicesOutput(lines = 40): string {
  return [...outputs.entries()]
    .filter(([child]) => running.has(child))
    .map(([, o]) => `--- ${o.name} (last ${lines} lines)\n${o.output().split('\n').slice(-lines).join('\n')}`)
    .join('\n');
}

/** Call in a describe: when one of its tests fails, the running services' last lines are printed, so CI shows why. */
export function reportServicesOnFailure(): void {
  afterEach((context) => {
    if (context.task.result?.state === 'fail') process.stderr.write(`services at the failure:\n${runningServicesOutput()}\n`);
  });
}

/** Creates a merchant and a test-mode key through a gateway's operator API. */
export async function createTestMerchant(
  gateway: ServiceProcess,
  adminToken: string,
  id: string,
  nombre: string,
): Promise<{ key: string; merchantUrl: string; admin: Record<string, string> }> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const base = `http://127.0.0.1:${gateway.operatorPort}/admin/v1/merchants`;
  const created = await fetch(base, { method: 'POST', headers: admin, body: JSON.stringify({ id, nombre }) });
  if (created.status !== 201) throw new Error(`creating merchant ${id} answered ${created.status}: ${await created.text()}`);
  const keyRes = await fetch(`${base}/${id}/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ mode: 'test' }) });
  const key = ((await keyRes.json()) as { x_switch_key: string }).x_switch_key;
  return { key, merchantUrl: `${base}/${id}`, admin };
}
const outputs = new Map<ChildProcess, { name: string; output(): string }>();

/**
 * SIGTERM to every service this file started that is still running, SIGKILL to any still running
 * `graceMs` later. For afterAll: it also reaches services whose start succeeded while another's in the
 * same `Promise.all` failed, which the test never got a handle on.
 */
export async function stopAllServices(graceMs = 20_000): Promise<void> {
  const children = [...running];
  const exits = children.map(
    (child) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r()))),
  );
  for (const child of children) child.kill('SIGTERM');
  const timer = setTimeout(() => {
    for (const child of children) child.kill('SIGKILL');
  }, graceMs);
  await Promise.all(exits);
  clearTimeout(timer);
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/**
 * Starts `services/<service>/dist/main.js` as its own process with the given environment and waits
 * until its `/readyz` answers 200 (its Kafka and MongoDB connections are up). `entry` names another
 * script (a bank's `dist/src/main.js`, an emulator's `dist/emulator/main.js`) and `readyPath` another
 * route that answers 200 once it is up (an emulator has no `/readyz`).
 */
export async function startService(
  service: string,
  env: Record<string, string>,
  options: { entry?: string; readyTimeoutMs?: number; readyPath?: string } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  // A gateway has its operator listener (metrics, probes, admin API) on a port of its own.
  const operatorPort = service === 'gateway' ? await freePort() : port;
  const entry = options.entry ?? `services/${service}/dist/main.js`;
  const child = spawn(process.execPath, [resolve(REPO, entry)], {
    cwd: REPO,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      OPERATOR_HOST: '127.0.0.1',
      OPERATOR_PORT: String(operatorPort),
      HEALTH_HOST: '127.0.0.1',
      HEALTH_PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  running.add(child);
  outputs.set(child, { name: service, output: () => log });
  const exited = new Promise<number | null>((r) =>
    child.once('exit', (code) => {
      running.delete(child);
      outputs.delete(child);
      r(code);
    }),
  );
  const proc: ServiceProcess = {
    name: service,
    port,
    operatorPort,
    child,
    output: () => log,
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
  // Joining a Kafka group that must rebalance (a second member, or a member that died) can take up to
  // the session timeout of the departed member (30 s) plus the join itself.
  await waitReady(proc, exited, options.readyTimeoutMs ?? 120_000, options.readyPath ?? '/readyz');
  return proc;
}

async function waitReady(proc: ServiceProcess, exited: Promise<number | null>, timeoutMs: number, readyPath: string): Promise<void> {
  let dead = false;
  void exited.then(() => (dead = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (dead) throw new Error(`${proc.name} exited before it was ready:\n${proc.output()}`);
    try {
      // /readyz is on the operator port; another ready path (an emulator's) on its own port.
      const res = await fetch(`http://127.0.0.1:${readyPath === '/readyz' ? proc.operatorPort : proc.port}${readyPath}`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  proc.child.kill('SIGKILL');
  throw new Error(`${proc.name} not ready after ${timeoutMs} ms:\n${proc.output()}`);
}
