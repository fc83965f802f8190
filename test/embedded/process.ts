import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO = resolve(__dirname, '../..');

/** `npm start` as a process: the built embedded switch (services/embedded/dist/main.js) on free ports. */
export interface EmbeddedProcess {
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** The demo merchant's test key, as printed. */
  key: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, and wait for the exit (the graceful stop flushes what tracing buffered). */
  stop(): Promise<number | null>;
}

export async function startEmbeddedProcess(env: Record<string, string> = {}): Promise<EmbeddedProcess> {
  const state = mkdtempSync(join(tmpdir(), 'switch-embedded-'));
  const child: ChildProcess = spawn(process.execPath, [join(REPO, 'services/embedded/dist/main.js')], {
    cwd: REPO,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      OPERATOR_PORT: '0',
      SWITCH_STATE_DIR: state,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (c: Buffer) => (text += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (text += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

  const started = await new Promise<{ baseUrl: string; key: string }>((ok, fail) => {
    const look = () => {
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      const key = /x-switch-key:\s+(\S+)/.exec(text)?.[1];
      if (url && key) {
        child.stdout?.off('data', look);
        ok({ baseUrl: url, key });
      }
    };
    child.stdout?.on('data', look);
    void exited.then((code) => fail(new Error(`the embedded switch exited (${code}) before it was ready:\n${text}`)));
  });
  return {
    ...started,
    output: () => text,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      rmSync(state, { recursive: true, force: true });
      return code;
    },
  };
}
