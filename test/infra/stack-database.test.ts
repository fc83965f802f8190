import { describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const REPO = resolve(__dirname, '../..');
/** An ES module: loaded with import(). */
const database = () => import('../../infra/stack/database.mjs');

describe("npm run stack's database (infra/stack/database.mjs)", () => {
  it('runs real MongoDB where a Docker engine answers, FerretDB where none does', async () => {
    const { chooseDatabase } = await database();
    expect(chooseDatabase({ override: undefined, dockerReachable: true }).engine).toBe('mongo');
    expect(chooseDatabase({ override: undefined, dockerReachable: false }).engine).toBe('ferretdb');
    expect(chooseDatabase({ override: 'auto', dockerReachable: true }).engine).toBe('mongo');
    expect(chooseDatabase({ override: '', dockerReachable: false }).engine).toBe('ferretdb');
  });

  it('STACK_DATABASE decides without asking Docker, and a wrong value is refused', async () => {
    const { chooseDatabase, needsDockerProbe } = await database();
    expect(needsDockerProbe('ferretdb')).toBe(false);
    expect(needsDockerProbe('mongo')).toBe(false);
    expect(needsDockerProbe(undefined)).toBe(true);
    expect(needsDockerProbe('auto')).toBe(true);
    expect(chooseDatabase({ override: 'ferretdb', dockerReachable: undefined })).toEqual({
      engine: 'ferretdb',
      why: 'STACK_DATABASE=ferretdb',
    });
    expect(chooseDatabase({ override: 'Mongo', dockerReachable: undefined }).engine).toBe('mongo');
    expect(() => chooseDatabase({ override: 'postgres', dockerReachable: true })).toThrow(/expected mongo, ferretdb or auto/);
  });

  it('says which database and why', async () => {
    const { describeDatabase } = await database();
    expect(describeDatabase({ engine: 'mongo', why: 'a Docker engine answers' }, 'mongo:7.0')).toBe(
      'database: MongoDB (mongo:7.0, single-member replica set, in Docker): a Docker engine answers',
    );
    expect(describeDatabase({ engine: 'ferretdb', why: 'no Docker engine answers' }, 'mongo:7.0')).toMatch(/^database: FerretDB/);
  });
});

describe("the infra scripts without their own database (INFRA_DATABASE=none, the stack's MongoDB container)", () => {
  it('are what a stack on MongoDB asks of up.sh and down.sh; a stack on FerretDB asks for all four servers', async () => {
    const { DEFAULT_INFRA_PORTS, infraNames, scriptEnv } = await import('../../infra/stack/infra.mjs');
    expect(scriptEnv('/state', DEFAULT_INFRA_PORTS, 'mongo').INFRA_DATABASE).toBe('none');
    expect(scriptEnv('/state', DEFAULT_INFRA_PORTS, 'ferretdb').INFRA_DATABASE).toBe('ferretdb');
    expect(infraNames('mongo')).toEqual(['kafka', 'apicurio']);
    expect(infraNames('ferretdb')).toEqual(['kafka', 'apicurio', 'postgres', 'ferretdb']);
  });

  const services = async (database: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'infra-state-'));
    try {
      const { stdout } = await promisify(execFile)(
        'bash',
        ['-c', `. ${JSON.stringify(join(REPO, 'infra/lib.sh'))} && echo "\${SERVICES[*]}"`],
        { env: { ...process.env, INFRA_STATE_DIR: dir, INFRA_DATABASE: database } },
      );
      return stdout.trim();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('start Kafka and the registry only', async () => {
    expect(await services('none')).toBe('kafka apicurio');
    expect(await services('ferretdb')).toBe('kafka apicurio postgres ferretdb');
    await expect(services('mysql')).rejects.toThrow(/expected ferretdb or none/);
  });
});

describe('the stack watchdog (infra/stack/watchdog.sh)', () => {
  it("removes the stack's MongoDB container when the stack dies without stopping it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watchdog-'));
    try {
      // A stand-in `docker` that records how it was called.
      const calls = join(dir, 'docker-calls');
      writeFileSync(join(dir, 'docker'), `#!/usr/bin/env bash\necho "$*" >>${JSON.stringify(calls)}\n`);
      chmodSync(join(dir, 'docker'), 0o755);
      const pidFile = join(dir, 'services.pids');
      writeFileSync(pidFile, '\n'); // the stack never stopped in order: its pid file is still there
      const stack = spawn('sleep', ['600'], { stdio: 'ignore' });
      const watchdog = spawn('bash', [join(REPO, 'infra/stack/watchdog.sh'), String(stack.pid), pidFile, '', 'c0ffee'], {
        env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
        stdio: 'ignore',
      });
      const watchdogExit = new Promise<number | null>((res) => watchdog.once('exit', res));
      stack.kill('SIGKILL');
      expect(await watchdogExit).toBe(0);
      expect(readFileSync(calls, 'utf8')).toBe('rm --force c0ffee\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
