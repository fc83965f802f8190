// The real infrastructure of a stack (Kafka, Apicurio, FerretDB on PostgreSQL) through the project's own infra/
// scripts, as a separate instance: its own ports and its own state directory (INFRA_STATE_DIR), so it
// never touches the default instance other people's tests use, and the drills may SIGSTOP it. With
// database 'mongo' the scripts start Kafka and Apicurio only, and MongoDB runs in a Docker container
// (infra/stack/mongo-container.mjs), started afresh and removed by stop().
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { startMongoContainer } from './mongo-container.mjs';

export const REPO = resolve(import.meta.dirname, '../..');
/** The servers up.sh starts for a stack on this database (what is paused, resumed and stopped by name). */
export const infraNames = (database) => (database === 'mongo' ? ['kafka', 'apicurio'] : ['kafka', 'apicurio', 'postgres', 'ferretdb']);

export const DEFAULT_INFRA_PORTS = { kafka: 19092, controller: 19093, registry: 18081, mongo: 17017, postgres: 15432 };

/** The environment of up.sh and down.sh for this instance: its state dir, its ports, its database. */
export function scriptEnv(stateDir, ports, database) {
  return {
    ...process.env,
    INFRA_STATE_DIR: stateDir,
    INFRA_DATABASE: database === 'mongo' ? 'none' : 'ferretdb',
    KAFKA_PORT: String(ports.kafka),
    KAFKA_CONTROLLER_PORT: String(ports.controller),
    SCHEMA_REGISTRY_PORT: String(ports.registry),
    MONGO_PORT: String(ports.mongo),
    ...(ports.postgres ? { PG_PORT: String(ports.postgres) } : {}),
  };
}

function runScript(script, env, log) {
  return new Promise((res, rej) => {
    const child = spawn('bash', [resolve(REPO, 'infra', script)], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (d) =>
      d
        .toString()
        .split('\n')
        .filter(Boolean)
        .forEach((l) => {
          log(l);
        });
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => (code === 0 ? res() : rej(new Error(`infra/${script} exited with ${code}`))));
  });
}

const portOpen = (port) =>
  new Promise((res) => {
    const s = connect({ host: '127.0.0.1', port, timeout: 1000 });
    s.once('connect', () => {
      s.destroy();
      res(true);
    });
    s.once('error', () => res(false));
    s.once('timeout', () => {
      s.destroy();
      res(false);
    });
  });

/** The pid in a pid file of this instance, when that process is alive. */
function pidOf(stateDir, name) {
  const f = resolve(stateDir, 'infra-run', `${name}.pid`);
  if (!existsSync(f)) return null;
  const pid = Number(readFileSync(f, 'utf8').trim());
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Whether this instance's servers are alive and answer (then a stack reuses them). */
async function answering(stateDir, ports) {
  if (!infraNames('ferretdb').every((n) => pidOf(stateDir, n))) return false;
  if (!(await portOpen(ports.kafka)) || !(await portOpen(ports.mongo))) return false;
  try {
    const r = await fetch(`http://127.0.0.1:${ports.registry}/apis/ccompat/v7/subjects`, { signal: AbortSignal.timeout(3000) });
    return r.status === 200;
  } catch {
    return false;
  }
}

/**
 * Starts the instance (infra/up.sh with this state dir and ports) unless it already runs and
 * answers. `stop()` stops it only if this call started it. database 'mongo': a fresh MongoDB
 * container each time (never a reused instance: its data would not match the rest's).
 */
export async function ensureInfra({ stateDir, ports = DEFAULT_INFRA_PORTS, database = 'ferretdb', log = () => {} }) {
  const env = scriptEnv(stateDir, ports, database);
  const reused = database === 'ferretdb' && (await answering(stateDir, ports));
  if (reused) log(`reusing the running instance in ${stateDir}`);
  else await runScript('up.sh', env, log);
  let mongo = null;
  if (database === 'mongo') {
    try {
      mongo = await startMongoContainer();
    } catch (e) {
      await runScript('down.sh', env, log);
      throw e;
    }
    log(`MongoDB container ${mongo.id.slice(0, 12)} answers at ${mongo.url}`);
  }
  const pid = (name) => {
    const p = pidOf(stateDir, name);
    if (!p) throw new Error(`infra ${name} is not running`);
    return p;
  };
  // Each server runs in its own session (setsid in up.sh): signal its whole process group.
  const signal = (name, sig) => process.kill(-pid(name), sig);
  return {
    reused,
    env: {
      KAFKA_BROKERS: `127.0.0.1:${ports.kafka}`,
      SCHEMA_REGISTRY_URL: `http://127.0.0.1:${ports.registry}/apis/ccompat/v7`,
      MONGO_URL: mongo ? mongo.url : `mongodb://127.0.0.1:${ports.mongo}/`,
      // One broker: one copy of each topic is all it can hold (production: 3 and 2, the defaults).
      SWITCH_KAFKA_REPLICATION_FACTOR: '1',
      SWITCH_KAFKA_MIN_INSYNC_REPLICAS: '1',
    },
    database,
    /** The MongoDB container's id (database 'mongo'), for the watchdog; null otherwise. */
    containerId: mongo ? mongo.id : null,
    /** SIGSTOP: the server keeps its sockets but answers nothing (a hung broker or database). */
    pause: (name) => signal(name, 'SIGSTOP'),
    resume: (name) => signal(name, 'SIGCONT'),
    pid,
    async stop() {
      if (reused) return;
      for (const name of infraNames(database)) if (pidOf(stateDir, name)) signal(name, 'SIGCONT'); // a paused one cannot exit
      await Promise.all([runScript('down.sh', env, log), mongo?.stop()]);
    },
  };
}
