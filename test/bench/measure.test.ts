import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module of the bench, without types
import { cpuMs, jitCpuMs } from './measure.mjs';

describe('bench CPU readings', () => {
  it('reads a JVM’s JIT compiler threads apart, as part of its CPU', async () => {
    // A Java program whose hot loop the JIT compiles; it says when it is done and waits to be read.
    const dir = mkdtempSync(join(tmpdir(), 'jit-'));
    writeFileSync(
      join(dir, 'Hot.java'),
      'public class Hot { public static void main(String[] a) throws Exception { long s = 0; for (int r = 0; r < 200; r++) for (int i = 0; i < 1_000_000; i++) s += (i ^ r) % 7; System.out.println("done " + s); Thread.sleep(60_000); } }',
    );
    const java = spawn('java', [join(dir, 'Hot.java')], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        java.stdout.on('data', (d: Buffer) => d.toString().includes('done') && resolve());
        java.once('exit', (code) => reject(new Error(`java exited with ${code}`)));
      });
      const jit = jitCpuMs(java.pid);
      expect(jit).toBeGreaterThan(0);
      expect(jit).toBeLessThanOrEqual(cpuMs(java.pid));
    } finally {
      java.kill('SIGKILL');
    }
  });

  it('reads no JIT threads in a process that is not a JVM, and nothing of a process that is gone', () => {
    expect(jitCpuMs(process.pid)).toBe(0);
    expect(jitCpuMs(2 ** 22 + 12_345)).toBeNaN();
  });
});
