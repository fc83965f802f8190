import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error: a plain ES module of the benchmark, no type declarations
import { runLoad } from './load.mjs';

interface LoadResult {
  sent: number;
  answered: number;
  ok: number;
  latencies: number[];
  worst_by_quarter_second_ms: number[];
  connections_opened_by_quarter_second: number[];
  connections_closed_by_quarter_second: number[];
}

/** A server that holds every answer for `stallMs` from the first request, then answers at once. */
const stallMs = 400;
let server: Server;
let origin: string;
let held: (() => void)[] = [];
let holding = true;
let stallStarted = false;
let answered = 0;
const release = () => {
  holding = false;
  for (const answer of held) answer();
  held = [];
};

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // The 50th answer closes its connection: the generator counts it lost and opens another.
      const answer = () =>
        res
          .writeHead(200, { 'content-type': 'application/json', ...(++answered === 50 ? { connection: 'close' } : {}) })
          .end('{"id":"txn_x"}');
      if (!holding) return answer();
      held.push(answer);
      if (!stallStarted) {
        stallStarted = true;
        setTimeout(release, stallMs);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the benchmark load generator, open loop', () => {
  it('keeps its schedule while the server stalls and counts the stall in the latency of every request due during it', async () => {
    // Few connections: requests due during the stall queue behind held ones, as with a slow server.
    const result: LoadResult = await runLoad({
      origin,
      path: '/x',
      mode: 'open',
      rate: 100,
      durationMs: 1000,
      connections: 4,
      keepIds: true,
    });

    // Every request of the schedule was sent, and answered, although the server answered none at first.
    expect(result.sent).toBe(100);
    expect(result.ok).toBe(100);
    // The first request was due at the start and answered only after the stall: its latency, measured
    // from its due time, holds the whole stall (a closed-loop client would have sent it late instead
    // and hidden this). A busy machine can only make these larger.
    expect(result.latencies.at(-1)).toBeGreaterThanOrEqual(stallMs - 5);
    const duringStall = result.latencies.filter((ms) => ms >= 100).length;
    expect(duringStall).toBeGreaterThanOrEqual(20);
    // The stall is placed in time: the worst of the requests due in the first quarter second holds it.
    expect(result.worst_by_quarter_second_ms).toHaveLength(4);
    expect(result.worst_by_quarter_second_ms[0]).toBeGreaterThanOrEqual(stallMs - 5);
    // The pool's four connections were opened while the server held the first answers; the one the
    // server closed was counted lost (and opened again if the pool needed it); the pool's own close at
    // the end is not counted.
    const total = (slots: number[]) => slots.reduce((a, n) => a + n, 0);
    expect(result.connections_opened_by_quarter_second[0]).toBe(4);
    expect(total(result.connections_opened_by_quarter_second)).toBeLessThanOrEqual(5);
    expect(total(result.connections_closed_by_quarter_second)).toBe(1);
  });
});
