// Preloaded (`node --require`) into every switch process the benchmark starts: how busy the process's
// event loop is, every 50 ms, appended to `$BENCH_LOOP_WATCH_DIR/loop-<pid>.txt` as
// "<epoch ms> <utilisation 0..1>" lines. A stall of a process that is busy all the time (saturated)
// and one of a process that is blocked, or idle waiting on another, read differently here
// (docs/decisions/0009-http-edge-timeouts-and-keep-alive.md).
const dir = process.env.BENCH_LOOP_WATCH_DIR;
if (dir) {
  const { appendFileSync } = require('node:fs');
  const { join } = require('node:path');
  const file = join(dir, `loop-${process.pid}.txt`);
  let previous = performance.eventLoopUtilization();
  let lines = '';
  const flush = () => {
    if (!lines) return;
    appendFileSync(file, lines);
    lines = '';
  };
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    lines += `${Date.now()} ${performance.eventLoopUtilization(now, previous).utilization.toFixed(3)}\n`;
    previous = now;
    if (lines.length > 400) flush();
  }, 50).unref();
  process.on('exit', flush);
}
