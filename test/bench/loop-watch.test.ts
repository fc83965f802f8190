import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module of the bench, without types
import { loopBusyByQuarterSecond } from './measure.mjs';

describe('bench event-loop watch', () => {
  it('reads a process busy for a second, then idle, quarter second by quarter second', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loop-'));
    // Spins 1 s (with short breaks, so the watch samples inside the spin too), then idles 1 s and exits.
    const program =
      'const t0 = Date.now(); console.log(t0);' +
      'const spin = () => { const end = Date.now() + 20; while (Date.now() < end); if (Date.now() - t0 < 1000) setImmediate(spin); else setTimeout(() => {}, 1000); };' +
      'spin();';
    const child = spawn(process.execPath, ['--require', resolve(__dirname, 'loop-watch.cjs'), '-e', program], {
      env: { ...process.env, BENCH_LOOP_WATCH_DIR: dir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(0);
    const busy: (number | null)[] = loopBusyByQuarterSecond(dir, child.pid, Number(out.trim()), 8);
    // The first second's quarters are busy; the idle second's last quarters are not (however busy the
    // machine: utilisation is the loop's own time, not the CPU it got).
    for (const b of busy.slice(1, 3)) expect(b).toBeGreaterThan(0.8);
    for (const b of busy.slice(5, 7)) expect(b).toBeLessThan(0.2);
    expect(loopBusyByQuarterSecond(dir, 999_999_999, 0, 4)).toBeNull();
  });
});
