// Summaries of the V8 CPU profiles `npm run bench -- --cpu-prof` collects (one .cpuprofile per process):
// where each process spent its busy time, by package and by function, so the report says what limits
// the figures from a profile rather than a guess. Idle samples are left out.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** `node_modules/<pkg>`, a `node:` module, the repo's own workspace folder, or `(native)`. */
function moduleOf(url) {
  if (!url) return '(native)';
  const pkg = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url;
  const own = url.match(/\/(packages\/[^/]+|services\/[^/]+|kit\/[^/]+|test)\//);
  return own ? own[1] : url;
}

/** One profile: busy ms, and the top entries by self time (share of busy time, %). */
export function summariseProfile(profile, top = 10) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id).callFrame;
    if (frame.functionName === '(idle)') return;
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    busy += dt;
  });
  const rank = (keyOf) => {
    const sums = new Map();
    for (const [id, t] of self) {
      const k = keyOf(nodes.get(id).callFrame);
      sums.set(k, (sums.get(k) ?? 0) + t);
    }
    return [...sums]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, t]) => ({ name, percent: Math.round((1000 * t) / Math.max(busy, 1)) / 10 }));
  };
  return {
    busy_ms: Math.round(busy / 1000),
    by_module: rank((f) => moduleOf(f.url)),
    by_function: rank((f) => `${f.functionName || '(anonymous)'} ${moduleOf(f.url)}:${f.lineNumber + 1}`),
  };
}

/** Every profile in `dir`, named by `processes.json` (pid → process name) when the pid is listed. */
export function summariseProfiles(dir, names = {}, top = 10) {
  const out = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const pid = file.split('.')[3];
    const name = names[pid] ?? `pid ${pid}`;
    out[name] = summariseProfile(JSON.parse(readFileSync(resolve(dir, file), 'utf8')), top);
  }
  return out;
}

// `node test/bench/profiles.mjs <dir>`: prints the summary of a run's profiles.
if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node test/bench/profiles.mjs <profiles dir>');
  let names = {};
  try {
    names = JSON.parse(readFileSync(resolve(dir, 'processes.json'), 'utf8'));
  } catch {}
  for (const [name, s] of Object.entries(summariseProfiles(dir, names))) {
    console.log(`\n${name}: ${s.busy_ms} ms busy`);
    console.log(`  modules:   ${s.by_module.map((m) => `${m.name} ${m.percent}%`).join(', ')}`);
    console.log(`  functions: ${s.by_function.map((m) => `${m.name} ${m.percent}%`).join(', ')}`);
  }
}
