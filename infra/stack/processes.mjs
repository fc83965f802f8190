// One service as its own Node process, like a Procfile line: prefixed log lines, readiness by HTTP,
// kill -9, graceful stop and restart with extra environment.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { REPO } from './infra.mjs';

const COLOURS = [36, 33, 32, 35, 34, 91, 92, 93, 94, 95, 96, 31, 90];
let nextColour = 0;

/** Where prefixed lines go: `write(line)`; colours only when it is a terminal. */
export function lineSink(stream = process.stdout) {
  return { write: (line) => stream.write(`${line}\n`), colour: Boolean(stream.isTTY) && !process.env.NO_COLOR };
}

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

export function portFree(port, host = '127.0.0.1') {
  return new Promise((res) => {
    const s = createServer();
    s.unref();
    s.once('error', () => res(false));
    s.listen(port, host, () => s.close(() => res(true)));
  });
}

const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * `def`: { name, entry (path from the repo root), env, readyUrl }. `readyUrl` answers 200 once the
 * process is up (services: /readyz, i.e. Kafka and the store are connected; emulators: a control route).
 * `onSpawn` runs each time a process starts (the stack keeps the pid file its watchdog reads).
 */
export function managedProcess(def, { sink, baseEnv, nodeArgs = [], readyTimeoutMs = 120_000, width = 16, onSpawn = () => {} }) {
  const colour = COLOURS[nextColour++ % COLOURS.length];
  const prefix = () => {
    const label = def.name.padEnd(width);
    return sink.colour ? `\x1b[${colour}m${label} |\x1b[0m ` : `${label} | `;
  };
  let child = null;
  let exited = Promise.resolve(null);
  let stopping = false;
  let extraEnv = {};

  function start() {
    stopping = false;
    const env = { ...process.env, ...baseEnv, ...def.env, ...extraEnv };
    // Own process group: a terminal's Ctrl-C reaches the stack only, which then stops services in order.
    const c = spawn(process.execPath, [...nodeArgs, resolve(REPO, def.entry)], {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child = c;
    onSpawn();
    const partial = { out: '', err: '' };
    const pipe = (key) => (d) => {
      const text = partial[key] + d.toString();
      const lines = text.split('\n');
      partial[key] = lines.pop();
      for (const l of lines) sink.write(prefix() + l);
    };
    c.stdout.on('data', pipe('out'));
    c.stderr.on('data', pipe('err'));
    exited = new Promise((r) =>
      c.once('exit', (code, sig) => {
        for (const k of ['out', 'err']) if (partial[k]) sink.write(prefix() + partial[k]);
        // Visible in the log: a crash (or a drill's kill -9) is never silent.
        sink.write(`${prefix()}(exited ${sig ?? code}${stopping ? '' : ', not restarted'})`);
        r(code);
      }),
    );
  }

  async function waitReady() {
    const deadline = Date.now() + readyTimeoutMs;
    const c = child;
    while (Date.now() < deadline) {
      if (c.exitCode !== null || c.signalCode !== null) throw new Error(`${def.name} exited before it was ready`);
      try {
        const r = await fetch(def.readyUrl, { signal: AbortSignal.timeout(2000) });
        if (r.status === 200) return;
      } catch {
        // not listening yet
      }
      await delay(250);
    }
    throw new Error(`${def.name} not ready after ${readyTimeoutMs} ms (${def.readyUrl})`);
  }

  const alive = () => child !== null && child.exitCode === null && child.signalCode === null;

  const handle = {
    name: def.name,
    get pid() {
      return child?.pid ?? null;
    },
    alive,
    async start() {
      start();
      await waitReady();
    },
    /** SIGKILL: no shutdown hook runs, in-flight work is cut. Resolves once the process is gone. */
    async kill9() {
      if (!alive()) return;
      child.kill('SIGKILL');
      await exited;
    },
    /** SIGTERM, then SIGKILL after `graceMs`. */
    async stop(graceMs = 15_000) {
      if (!alive()) return;
      stopping = true;
      const c = child;
      c.kill('SIGCONT'); // a paused process cannot handle SIGTERM
      c.kill('SIGTERM');
      const t = setTimeout(() => c.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(t);
    },
    /** Stops it if it runs, then starts it again with `env` on top of its own (replacing the last extra env). */
    async restart(env = {}) {
      await handle.stop();
      extraEnv = env;
      await handle.start();
    },
    /** SIGKILL now, for process exit hooks. */
    killNow() {
      if (alive()) child.kill('SIGKILL');
    },
  };
  return handle;
}
