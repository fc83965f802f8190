// What the benchmark reads from the machine and from the services: CPU time and RSS per process from
// /proc (the kernel's own accounting, whatever the process is), and Prometheus samples from /metrics.
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** /proc/<pid>/stat fields after the command name: [state, ppid, ...]; null once the process is gone. */
function statFields(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds (user + system) a process has used, including its children that exited and were
 * waited for (PostgreSQL's backends come and go), plus those of its live children when `withChildren`.
 */
export function cpuMs(pid, { withChildren = false } = {}) {
  const f = statFields(pid);
  if (!f) return Number.NaN;
  // Fields 14-17 of stat (utime, stime, cutime, cstime) are at 11-14 here (state is field 3).
  let ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  if (withChildren) for (const child of childrenOf(pid)) ticks += (cpuMs(child) * CLK_TCK) / 1000;
  return (ticks * 1000) / CLK_TCK;
}

/**
 * CPU milliseconds of a JVM's JIT compiler threads (HotSpot names them `C1 CompilerThre…` and
 * `C2 CompilerThre…`), 0 for any other process. A fresh broker spends much of its first minutes
 * compiling, which is not what a payout costs a broker that has run for a while.
 */
export function jitCpuMs(pid) {
  let ticks = 0;
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return Number.NaN;
  }
  for (const task of tasks) {
    try {
      if (!/^C[12] CompilerThre/.test(readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8'))) continue;
      const f = statFields(`${pid}/task/${task}`);
      if (f) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // the thread ended
    }
  }
  return (ticks * 1000) / CLK_TCK;
}

function childrenOf(pid) {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (f && Number(f[1]) === pid) out.push(Number(entry));
  }
  return out;
}

/** Resident set size in MiB (VmRSS), with live children when `withChildren` (PostgreSQL's backends). */
export function rssMiB(pid, { withChildren = false } = {}) {
  const one = (p) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  let total = one(pid);
  if (withChildren) for (const child of childrenOf(pid)) total += one(child);
  return total;
}

/** Samples of a Prometheus text exposition: [{ name, labels, value }]. */
export async function scrape(url) {
  const text = await (await fetch(url, { signal: AbortSignal.timeout(10_000) })).text();
  const samples = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** Sum of a metric's samples whose labels pass `where`. */
export const total = (samples, name, where = () => true) =>
  samples.filter((s) => s.name === name && where(s.labels)).reduce((sum, s) => sum + s.value, 0);

/** Percentile of an ascending array (nearest rank). */
export function percentile(sorted, q) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const round = (x, digits = 1) => (x === null || Number.isNaN(x) ? null : Number(x.toFixed(digits)));

/**
 * The event-loop utilisation (0..1) of a process watched by loop-watch.cjs, averaged over each
 * quarter second from `startedAtMs`, for `slots` quarter seconds: null where no sample fell. A sample
 * covers the 50 ms before its time and is counted in the quarter second that holds its middle.
 */
export function loopBusyByQuarterSecond(dir, pid, startedAtMs, slots) {
  let text = '';
  try {
    text = readFileSync(`${dir}/loop-${pid}.txt`, 'utf8');
  } catch {
    return null;
  }
  const sum = new Array(slots).fill(0);
  const count = new Array(slots).fill(0);
  for (const line of text.split('\n')) {
    const [at, utilisation] = line.split(' ').map(Number);
    if (!Number.isFinite(at) || !Number.isFinite(utilisation)) continue;
    const slot = Math.floor((at - 25 - startedAtMs) / 250);
    if (slot < 0 || slot >= slots) continue;
    sum[slot] += utilisation;
    count[slot]++;
  }
  return sum.map((s, i) => (count[i] ? Math.round((100 * s) / count[i]) / 100 : null));
}
