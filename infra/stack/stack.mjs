// startStack(): real infrastructure (own instance) + every service of the switch as its own process,
// the bank connectors in front of their emulators, a demo merchant and a test key. Used by
// `npm run stack` (infra/stack.mjs) and by the reliability drills (test/drills/).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CLUSTER_PORTS, createClusterTopics, ensureClusterInfra, replicate } from './cluster.mjs';
import { ensureInfra, DEFAULT_INFRA_PORTS, REPO } from './infra.mjs';
import { freePort, lineSink, managedProcess, portFree } from './processes.mjs';

// Fixed demo credentials shared by each connector and its emulator (as EMULATOR_DEMO in
// services/embedded/src/banks.ts): not secrets, nothing leaves 127.0.0.1.
export const DEMO = {
  plaza: {
    apiKey: 'plaza-demo-key',
    apiSecret: 'plaza-demo-secret',
    rif: 'J123456789',
    account: '01380000000000000001',
    phone: '04140000138',
  },
  bancaribe: {
    key: 'bancaribe-demo-key',
    secret: 'bancaribe-demo-secret',
    rif: 'J000012114',
    phone: '04141000114',
    account: '01140111122222233333',
    hash: '09A2D57E-C433-4581-97C2-6F6ADA944F27',
  },
  activo: { apiKey: 'activo-demo-key', rif: 'J000000171', account: '01710001000000000001', phone: '04140000171' },
  bnc: {
    clientGuid: '4A074C46-DD4E-4E54-8010-B80A6A8758F4',
    masterKey: 'bnc-demo-master-key',
    clientId: 'J000121532',
    account: '01910001482101010049',
    terminal: 'SWITCH01',
  },
};

/** The service kinds, in start order (emulators first: a connector needs its bank's URL). */
export const SERVICE_NAMES = [
  'emu-plaza',
  'emu-bancaribe',
  'emu-activo',
  'emu-bnc',
  'router',
  'bank-sim',
  'bank-plaza',
  'bank-bancaribe',
  'bank-activo',
  'bank-bnc',
  'notifier',
  'reconciler',
  'gateway',
];

async function serviceDefs({ host, port, operatorPort, emulatorSettleMs }) {
  const p = {};
  for (const n of SERVICE_NAMES) p[n] = await freePort();
  p.gateway = port;
  p.activoControl = await freePort();
  // The gateway's operator listener (/metrics, /healthz, /readyz, /admin/v1): loopback, its own port.
  p.gatewayOperator = operatorPort;
  const health = (name, entry, env = {}) => ({
    name,
    entry,
    env: { HEALTH_HOST: '127.0.0.1', HEALTH_PORT: String(p[name]), ...env },
    readyUrl: `http://127.0.0.1:${p[name]}/readyz`,
    port: p[name],
  });
  const emu = (name, entry, env, readyPath, readyPort = p[name]) => ({
    name,
    entry,
    env: { HOST: '127.0.0.1', PORT: String(p[name]), ...env },
    readyUrl: `http://127.0.0.1:${readyPort}${readyPath}`,
    port: p[name],
    controlUrl: `http://127.0.0.1:${readyPort}/__emulator`,
  });
  const settle = String(emulatorSettleMs);
  const defs = [
    emu(
      'emu-plaza',
      'services/bank-plaza/dist/emulator/main.js',
      {
        PLAZA_EMULATOR_API_KEY: DEMO.plaza.apiKey,
        PLAZA_EMULATOR_API_SECRET: DEMO.plaza.apiSecret,
        PLAZA_EMULATOR_RIF: DEMO.plaza.rif,
        PLAZA_EMULATOR_ACCOUNT: DEMO.plaza.account,
        PLAZA_EMULATOR_SETTLE_MS: settle,
      },
      '/__emulator/state',
    ),
    emu(
      'emu-bancaribe',
      'services/bank-bancaribe/dist/emulator/main.js',
      {
        BANCARIBE_EMULATOR_CONSUMER_KEY: DEMO.bancaribe.key,
        BANCARIBE_EMULATOR_CONSUMER_SECRET: DEMO.bancaribe.secret,
        SETTLE_DELAY_MS: settle,
      },
      '/__emulator/state',
    ),
    // Activo's controls have their own port: they stay up while the bank port refuses connections.
    emu(
      'emu-activo',
      'services/bank-activo/dist/emulator/main.js',
      {
        ACTIVO_EMULATOR_API_KEY: DEMO.activo.apiKey,
        MERCHANT_ACCOUNT: DEMO.activo.account,
        CONTROL_PORT: String(p.activoControl),
        SETTLE_DELAY_MS: settle,
      },
      '/__emulator/stats',
      p.activoControl,
    ),
    emu(
      'emu-bnc',
      'services/bank-bnc/dist/emulator/main.js',
      {
        BNC_EMULATOR_CLIENT_GUID: DEMO.bnc.clientGuid,
        BNC_EMULATOR_MASTER_KEY: DEMO.bnc.masterKey,
        BNC_EMULATOR_CLIENT_ID: DEMO.bnc.clientId,
        BNC_EMULATOR_ACCOUNT: DEMO.bnc.account,
        BNC_EMULATOR_SETTLE_DELAY_MS: settle,
      },
      '/__emulator/state',
    ),
    health('router', 'services/router/dist/main.js'),
    health('bank-sim', 'services/bank-sim/dist/main.js'),
    health('bank-plaza', 'services/bank-plaza/dist/src/main.js', {
      PLAZA_TEST_URL: `http://127.0.0.1:${p['emu-plaza']}`,
      PLAZA_TEST_API_KEY: DEMO.plaza.apiKey,
      PLAZA_TEST_API_SECRET: DEMO.plaza.apiSecret,
      PLAZA_TEST_RIF: DEMO.plaza.rif,
      PLAZA_TEST_ACCOUNT: DEMO.plaza.account,
      PLAZA_TEST_PHONE: DEMO.plaza.phone,
    }),
    health('bank-bancaribe', 'services/bank-bancaribe/dist/src/main.js', {
      BANCARIBE_TEST_URL: `http://127.0.0.1:${p['emu-bancaribe']}`,
      BANCARIBE_TEST_CONSUMER_KEY: DEMO.bancaribe.key,
      BANCARIBE_TEST_CONSUMER_SECRET: DEMO.bancaribe.secret,
      BANCARIBE_TEST_MERCHANT_RIF: DEMO.bancaribe.rif,
      BANCARIBE_TEST_MERCHANT_PHONE: DEMO.bancaribe.phone,
      BANCARIBE_TEST_MERCHANT_ACCOUNT: DEMO.bancaribe.account,
      BANCARIBE_TEST_CLIENT_HASH: DEMO.bancaribe.hash,
    }),
    health('bank-activo', 'services/bank-activo/dist/src/main.js', {
      ACTIVO_TEST_URL: `http://127.0.0.1:${p['emu-activo']}`,
      ACTIVO_TEST_API_KEY: DEMO.activo.apiKey,
      ACTIVO_TEST_RIF: DEMO.activo.rif,
      ACTIVO_TEST_ACCOUNT: DEMO.activo.account,
      ACTIVO_TEST_PHONE: DEMO.activo.phone,
    }),
    // BNC has no test environment (test-mode bnc is bank-sim): its connector serves live mode.
    health('bank-bnc', 'services/bank-bnc/dist/src/main.js', {
      BNC_LIVE_URL: `http://127.0.0.1:${p['emu-bnc']}/api`,
      BNC_LIVE_CLIENT_GUID: DEMO.bnc.clientGuid,
      BNC_LIVE_MASTER_KEY: DEMO.bnc.masterKey,
      BNC_LIVE_CLIENT_ID: DEMO.bnc.clientId,
      BNC_LIVE_ACCOUNT: DEMO.bnc.account,
      BNC_LIVE_TERMINAL: DEMO.bnc.terminal,
    }),
    health('notifier', 'services/notifier/dist/main.js'),
    health('reconciler', 'services/reconciler/dist/main.js'),
    {
      name: 'gateway',
      entry: 'services/gateway/dist/main.js',
      // The test routes of these banks answer through their emulators: /bancos lists their magic amounts (docs/sandbox.md).
      env: {
        HOST: host,
        PORT: String(port),
        OPERATOR_HOST: '127.0.0.1',
        OPERATOR_PORT: String(operatorPort),
        SWITCH_SANDBOX_BANKS: 'banco_plaza,bancaribe,banco_activo',
      },
      readyUrl: `http://127.0.0.1:${operatorPort}/readyz`,
      port: operatorPort,
    },
  ];
  return defs;
}

async function admin(url, token, path, body) {
  const r = await fetch(`${url}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

/**
 * Options (all optional):
 *   host, port            the gateway's listen address (default HOST/PORT env, then 127.0.0.1:3000; port 0 = a free one)
 *   operatorPort          the gateway's operator port on 127.0.0.1 (default OPERATOR_PORT env, else a free one)
 *   stateDir              default STACK_STATE_DIR or .cache/stack: infra state (infra/), operator file (switch/admin.json)
 *   infraPorts            { kafka, controller, registry, mongo, postgres } (default 19092, 19093, 18081, 17017, 15432)
 *   database              'ferretdb' (default: FerretDB from infra/up.sh) or 'mongo' (a MongoDB container; needs Docker)
 *   database              Mongo database and Kafka topic namespace (default `switch`)
 *   merchant              demo merchant id (default `demo`)
 *   env                   extra environment for every service (e.g. short reconciler/notifier schedules)
 *   nodeArgs              extra `node` options for every service (e.g. --cpu-prof, which NODE_OPTIONS refuses)
 *   emulatorSettleMs      emulators settle pending orders after this (default 1500)
 *   sink                  { write(line), colour } for the prefixed logs (default stdout)
 *   log                   (line) => void for the stack's own messages
 *   cluster               true: three Kafka brokers and two replicas of each service (infra/stack/cluster.mjs),
 *                         on ports 19300–19399 (host, port and operatorPort are then the cluster's)
 * Returns { url, adminUrl (the operator port: /admin/v1, /metrics, /readyz), key, merchant, adminToken, mongo: {url, database}, services: {name → handle}, emulators: {name → controlUrl},
 *           infra: {pause(name), resume(name), reused}, stateDir, stop() }.
 */
export async function startStack(options = {}) {
  const stateDir = resolve(REPO, options.stateDir ?? process.env.STACK_STATE_DIR ?? '.cache/stack');
  const cluster = options.cluster === true;
  const host = cluster ? '127.0.0.1' : (options.host ?? process.env.HOST ?? '127.0.0.1');
  let port = cluster ? CLUSTER_PORTS.gateways[0] : (options.port ?? Number(process.env.PORT ?? 3000));
  const database = options.database ?? 'switch';
  const merchant = options.merchant ?? 'demo';
  const sink = options.sink ?? lineSink();
  const log = options.log ?? ((l) => sink.write(`${'stack'.padEnd(16)} | ${l}`));
  if (port === 0) port = await freePort();
  else if (!(await portFree(port, host))) throw new Error(`${host}:${port} is taken (another switch? \`npm start\`?): set PORT`);
  const operatorPort = cluster
    ? CLUSTER_PORTS.operators[0]
    : (options.operatorPort ?? (process.env.OPERATOR_PORT ? Number(process.env.OPERATOR_PORT) : await freePort()));

  mkdirSync(resolve(stateDir, 'switch'), { recursive: true });
  const infraStateDir = resolve(stateDir, 'infra');
  const infra = cluster
    ? await ensureClusterInfra({ stateDir: infraStateDir, log: (l) => log(l) })
    : await ensureInfra({
        stateDir: infraStateDir,
        ports: { ...DEFAULT_INFRA_PORTS, ...options.infraPorts },
        database: options.database ?? 'ferretdb',
        log: (l) => log(l),
      });
  if (cluster) {
    const partitions = Number(options.env?.SWITCH_KAFKA_PARTITIONS ?? process.env.SWITCH_KAFKA_PARTITIONS) || undefined;
    const created = await createClusterTopics({ brokers: infra.env.KAFKA_BROKERS.split(','), namespace: database, partitions }).catch(
      async (e) => {
        await infra.stop(); // nothing else would: the services and the watchdog do not run yet
        throw e;
      },
    );
    log(`${created.length} topics on the cluster (replication factor 3, min.insync.replicas 2)`);
  }

  const adminToken = `stack-${randomBytes(24).toString('hex')}`;
  const baseEnv = {
    ...infra.env,
    // Services over MongoDB refuse to start without a secrets key; the stack's data outlives a run,
    // so its key is kept beside it (a new one would leave the stored webhook secrets unreadable).
    SWITCH_SECRETS_KEY: process.env.SWITCH_SECRETS_KEY ?? stackSecretsKey(resolve(stateDir, 'switch', 'secrets.key')),
    SWITCH_BUS: 'kafka',
    SWITCH_STORE: 'mongo',
    MONGO_DATABASE: database,
    SWITCH_KAFKA_NAMESPACE: database,
    SWITCH_ADMIN_TOKEN: adminToken,
    SWITCH_TEST_BANKS: 'bnc,banco_plaza,bancaribe,banco_activo',
    SWITCH_LIVE_BANKS: 'bnc',
    // A local stack: webhook receivers on this machine's loopback are allowed, the switch's own ports never.
    SWITCH_WEBHOOK_ALLOW_LOOPBACK: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...options.env,
  };
  const defs = await serviceDefs({ host, port, operatorPort, emulatorSettleMs: options.emulatorSettleMs ?? 1500 }).then((d) =>
    cluster ? replicate(d) : d,
  );
  // Every port the stack listens on is one a webhook may never reach (each process knows only its own).
  const listening = defs.flatMap((d) => [d.port, ...['PORT', 'OPERATOR_PORT', 'HEALTH_PORT', 'CONTROL_PORT'].map((k) => d.env?.[k])]);
  baseEnv.SWITCH_OWN_PORTS = [...new Set(listening.map(Number).filter((n) => n > 0))].join(',');
  const services = {};
  // The watchdog cleans up after a stack killed outright (SIGKILL runs no exit hook): the services in
  // this pid file, the infrastructure when this stack started it, and its MongoDB container.
  const pidFile = resolve(stateDir, 'services.pids');
  const writePids = () => {
    const pids = Object.values(services)
      .map((s) => s.pid)
      .filter((p) => p !== null);
    writeFileSync(pidFile, `${pids.join('\n')}\n`);
  };
  for (const def of defs) services[def.name] = managedProcess(def, { sink, baseEnv, nodeArgs: options.nodeArgs, onSpawn: writePids });
  const watched = [String(process.pid), pidFile, infra.reused ? '' : infraStateDir, infra.containerId ?? ''];
  spawn('bash', [resolve(REPO, 'infra/stack/watchdog.sh'), ...watched], {
    detached: true,
    stdio: 'ignore',
  }).unref();
  const killAll = () => {
    for (const s of Object.values(services)) s.killNow();
  };
  process.once('exit', killAll); // no orphans if the parent exits without stopping them

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    log('stopping services');
    // Gateway first (no new work), emulators last (connectors may still be answering).
    await Promise.all(
      Object.values(services)
        .filter((s) => !s.name.startsWith('emu-'))
        .map((s) => s.stop()),
    );
    await Promise.all(Object.values(services).map((s) => s.stop()));
    process.off('exit', killAll);
    rmSync(pidFile, { force: true }); // stopped in order: the watchdog has nothing left to do
    removeAdminFile(stateDir, adminToken);
    if (!infra.reused) log('stopping infrastructure');
    await infra.stop();
  };

  try {
    const emulators = defs.filter((d) => d.name.startsWith('emu-'));
    await Promise.all(emulators.map((d) => services[d.name].start()));
    // Start the rest in parallel: each joins its consumer group on its own. The gateway goes last,
    // so its readiness means the whole switch answers.
    const gateways = defs.filter((d) => d.name.startsWith('gateway'));
    // A spare replica (cluster mode) is started by whoever wants it (a drill adding a replica under load).
    const rest = defs.filter((d) => !d.name.startsWith('emu-') && !gateways.includes(d) && !d.spare);
    await Promise.all(rest.map((d) => services[d.name].start()));
    await Promise.all(gateways.map((d) => services[d.name].start()));
  } catch (e) {
    await stop();
    throw e;
  }

  const url = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
  const adminUrl = `http://127.0.0.1:${operatorPort}`;
  const created = await admin(adminUrl, adminToken, '/merchants', { id: merchant, nombre: 'Comercio Demo' });
  if (created.status !== 201 && created.status !== 409)
    throw new Error(`creating merchant ${merchant}: ${created.status} ${JSON.stringify(created.body)}`);
  const issued = await admin(adminUrl, adminToken, `/merchants/${merchant}/keys`, { mode: 'test' });
  if (issued.status !== 201 && issued.status !== 200) throw new Error(`issuing a key: ${issued.status} ${JSON.stringify(issued.body)}`);
  // The onboarding tool finds this switch only when told (SWITCH_STATE_DIR): never by accident.
  writeFileSync(
    resolve(stateDir, 'switch', 'admin.json'),
    JSON.stringify({ url: adminUrl, merchantUrl: url, adminToken, pid: process.pid }, null, 2),
    { mode: 0o600 },
  );

  return {
    url,
    /** Every gateway's merchant URL (one outside cluster mode): where load is spread. */
    urls: cluster ? CLUSTER_PORTS.gateways.map((p) => `http://127.0.0.1:${p}`) : [url],
    adminUrl,
    cluster,
    /** The Kafka nodes (cluster mode): { id, port, pid(), kill9(), start() } each; [] otherwise. */
    brokers: infra.brokers ?? [],
    key: issued.body.x_switch_key,
    merchant,
    adminToken,
    stateDir,
    operatorStateDir: resolve(stateDir, 'switch'),
    mongo: { url: infra.env.MONGO_URL, database },
    kafka: { brokers: infra.env.KAFKA_BROKERS.split(','), namespace: database },
    services,
    emulators: Object.fromEntries(defs.filter((d) => d.controlUrl).map((d) => [d.name, d.controlUrl])),
    // In cluster mode a service's own name also reaches its first replica (e.g. bank-sim's /sim routes).
    healthUrls: Object.fromEntries(
      defs.flatMap((d) => {
        const url = `http://127.0.0.1:${d.port}`;
        return d.name.endsWith('-1') && cluster
          ? [
              [d.name.slice(0, -2), url],
              [d.name, url],
            ]
          : [[d.name, url]];
      }),
    ),
    infra: { pause: infra.pause, resume: infra.resume, reused: infra.reused },
    stop,
  };
}

/** Removes the operator file only if it is still this stack's (another stack may have replaced it). */
function removeAdminFile(stateDir, adminToken) {
  const f = resolve(stateDir, 'switch', 'admin.json');
  try {
    if (existsSync(f) && JSON.parse(readFileSync(f, 'utf8')).adminToken === adminToken) rmSync(f);
  } catch {
    // unreadable: not ours to remove
  }
}

/** The stack's secrets key: made once (32 random bytes, base64), then read from `file` (mode 0600). */
function stackSecretsKey(file) {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
