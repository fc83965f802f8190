#!/usr/bin/env node
// `npm run stack`: the switch as it runs in production, on one machine. Real Kafka and schema registry
// (their own instance: ports 19092/19093, 18081, state in .cache/stack/infra) and MongoDB: a mongo:7.0
// container where a Docker engine answers, else FerretDB on PostgreSQL (17017, 15432; STACK_DATABASE
// overrides, infra/README.md), then every service as its own process with prefixed logs, a demo
// merchant and a test key.
// `npm run stack -- --cluster`: three Kafka brokers (replication factor 3, min.insync.replicas 2) and two
// replicas of every service that scales out, on ports 19300–19399, over FerretDB (infra/stack/cluster.mjs).
// Ctrl-C stops the services and the infrastructure it started. See docs/reliability.md.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { chooseDatabase, DATABASE_OVERRIDE, describeDatabase, needsDockerProbe } from './stack/database.mjs';
import { REPO } from './stack/infra.mjs';
import { dockerAvailable, MONGODB_IMAGE } from './stack/mongo-container.mjs';
import { startStack } from './stack/stack.mjs';

const cluster = process.argv.includes('--cluster');
// The cluster runs on FerretDB (infra/up.sh): a MongoDB container would be a single member anyway.
const override = cluster ? 'ferretdb' : process.env[DATABASE_OVERRIDE];
let database;
try {
  const dockerReachable = needsDockerProbe(override) ? await dockerAvailable() : undefined;
  database = chooseDatabase({ override, dockerReachable });
} catch (e) {
  process.stderr.write(`stack: ${e.message}\n`);
  process.exit(1);
}
process.stdout.write(`stack: ${describeDatabase(database, MONGODB_IMAGE)}\n`);

const stack = await startStack({ database: database.engine, cluster, ...(cluster ? { stateDir: '.cache/cluster' } : {}) }).catch((e) => {
  process.stderr.write(`stack failed to start: ${e.message}\n`);
  process.exit(1);
});

const { url, key } = stack;
const dir = relative(REPO, stack.operatorStateDir) || '.';
process.stdout.write(
  `${[
    '',
    `  Payments switch (processes on Kafka + MongoDB, test mode, simulated bank and bank emulators) listening on ${url}`,
    ...(cluster
      ? [
          `  Gateways:      ${stack.urls.join('  ')}   (two replicas: spread load over both)`,
          `  Kafka:         ${stack.kafka.brokers.join(',')}   (three brokers, replication factor 3, min.insync.replicas 2)`,
        ]
      : []),
    `  Docs:          ${url}/docs`,
    `  OpenAPI:       ${url}/openapi.json`,
    `  Operator:      ${stack.adminUrl}   (/metrics, /healthz, /readyz, /admin/v1; loopback only)`,
    `  x-switch-key:  ${key}`,
    `  Banks test:    bnc (simulated), banco_plaza, bancaribe, banco_activo (emulators; control routes ${Object.values(stack.emulators).join(' ')})`,
    `  Banks live:    bnc (emulator)`,
    `  Sandbox:       with banco_preferido banco_plaza, bancaribe or banco_activo, the cents of monto.valor pick the outcome (/bancos, docs/sandbox.md)`,
    `  Infra:         ${stack.infra.reused ? 'reused' : 'started'} (${describeDatabase(database, MONGODB_IMAGE)}; ${stack.mongo.url}, state in ${relative(REPO, stack.stateDir)}/infra)`,
    '',
    `  curl -s ${url}/switch/v1/bancos -H 'x-switch-key: ${key}'`,
    '',
    `  Onboarding:    SWITCH_STATE_DIR=${dir} npm run switch -- help   (operator token in ${dir}/admin.json)`,
    `                 or SWITCH_URL=${stack.adminUrl} SWITCH_ADMIN_TOKEN=${stack.adminToken} npm run switch -- help`,
    '',
  ].join('\n')}\n`,
);

let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\n  ${signal}: stopping\n`);
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
// `npm run stack` killed outright (SIGKILL) runs no handler: npm dies, the shell it started may live on,
// and nobody would be left to stop this process. So it stops itself once any process it was started
// under is gone (the watchdog covers this process itself being killed).
const ancestors = ancestorPids();
setInterval(() => {
  if (ancestors.some((pid) => !alive(pid))) void stop('parent gone');
}, 1000).unref();

/** The pids above this process, up to (not including) init; just the parent where /proc is missing. */
function ancestorPids() {
  const pids = [];
  let pid = process.ppid;
  while (pid > 1 && pids.length < 64) {
    pids.push(pid);
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return pids;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM'; // alive, someone else's
  }
}
