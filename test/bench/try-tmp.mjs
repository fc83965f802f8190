import { spawn } from 'node:child_process';
import { runLoad } from './load.mjs';
const code = process.argv[2] === 'e';
const c = code
  ? spawn(
      process.execPath,
      [
        '-e',
        `const s = require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x"}')); }); s.keepAliveTimeout = 60000; s.listen(0, '127.0.0.1', () => process.stdout.write(s.address().port + '\\n'));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
  : spawn(process.execPath, ['/tmp/bench13-bare.mjs'], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((r) => c.stdout.once('data', (d) => r(Number(String(d).trim()))));
const r = await runLoad({
  origin: `http://127.0.0.1:${port}`,
  path: '/x',
  mode: 'closed',
  concurrency: 64,
  connections: 64,
  durationMs: 3000,
});
console.log(code, (r.answered / r.seconds).toFixed(0), 'rps', r.errors, 'p50', r.latencies[Math.floor(r.latencies.length / 2)].toFixed(2));
c.kill();
