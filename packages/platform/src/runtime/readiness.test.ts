import { afterEach, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../telemetry/logger';
import { checkReady, steadyVerdict } from './readiness';
import { livenessProblems } from './liveness';
import { connectAdapters, startHealthServer } from './service';
import { SecretBox } from './secret-box';

/** A dependency that never answers: a paused broker (SIGSTOP) or a database behind a dead link. */
const never = () => new Promise<void>(() => {});

describe('readiness', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  const readyz = async (ready: () => Promise<void>) => {
    const server = await startHealthServer(0, '127.0.0.1', ready);
    servers.push(server);
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('checkReady names each dependency that does not answer, and passes when all do', async () => {
    await expect(checkReady({ store: async () => {}, bus: async () => {} })).resolves.toBeUndefined();
    await expect(checkReady({ store: never, bus: async () => {} }, 50)).rejects.toThrow(/^store: no answer within 50 ms$/);
    await expect(checkReady({ store: async () => {}, bus: () => Promise.reject(new Error('registry down')) })).rejects.toThrow(
      'bus: registry down',
    );
  });

  it('/readyz answers 503 in the house error body when a store ping never resolves, 200 when it answers', async () => {
    const adapters = await connectAdapters(
      { bus: { kind: 'memory' }, store: { kind: 'memory' }, secrets: SecretBox.ephemeral() },
      'readiness-test',
      createLogger('test', 'silent'),
      { readyGraceMs: 0 },
    );
    try {
      expect(await readyz(adapters.ready)).toEqual({ status: 200, body: { status: 'ready' } });
      adapters.store.ping = never;
      const answer = await readyz(adapters.ready);
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('store') });
    } finally {
      await adapters.close();
    }
  });

  it('/readyz answers 503 even when the readiness function given to it hangs', async () => {
    expect(await readyz(never)).toEqual({ status: 503, body: { error: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
  });

  const memoryAdapters = (probes: Parameters<typeof connectAdapters>[3]) =>
    connectAdapters(
      { bus: { kind: 'memory' }, store: { kind: 'memory' }, secrets: SecretBox.ephemeral() },
      'readiness-test',
      createLogger('test', 'silent'),
      probes,
    );

  it('/readyz holds ready through a dependency failure shorter than the grace, and answers 503 once it lasts longer', async () => {
    let clock = 1_000_000;
    const adapters = await memoryAdapters({ readyGraceMs: 15_000, now: () => clock });
    try {
      expect((await readyz(adapters.ready)).status).toBe(200);
      const ping = adapters.store.ping;
      adapters.store.ping = () => Promise.reject(new Error('store unreachable'));
      clock += 14_999;
      expect((await readyz(adapters.ready)).status).toBe(200);
      clock += 1;
      expect(await readyz(adapters.ready)).toEqual({
        status: 503,
        body: { error: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('store') },
      });
      // Back: ready at once, and the grace counts again from this success.
      adapters.store.ping = ping;
      expect((await readyz(adapters.ready)).status).toBe(200);
    } finally {
      await adapters.close();
    }
  });

  it('/readyz is not ready before its dependencies ever answered (no grace for a process that never connected)', async () => {
    const adapters = await memoryAdapters({ readyGraceMs: 15_000 });
    try {
      adapters.store.ping = () => Promise.reject(new Error('store unreachable'));
      expect((await readyz(adapters.ready)).status).toBe(503);
    } finally {
      await adapters.close();
    }
  });

  it('steadyVerdict: ready on success, held within the grace after the last success, never before one', () => {
    expect(steadyVerdict(null, true, 10, 5)).toEqual({ ready: true, lastOkAt: 10, held: false });
    expect(steadyVerdict(null, false, 10, 5)).toEqual({ ready: false, lastOkAt: null, held: false });
    expect(steadyVerdict(10, false, 14, 5)).toEqual({ ready: true, lastOkAt: 10, held: true });
    expect(steadyVerdict(10, false, 15, 5)).toEqual({ ready: false, lastOkAt: 10, held: false });
    expect(steadyVerdict(10, false, 11, 0)).toEqual({ ready: false, lastOkAt: 10, held: false });
  });
});

describe('liveness', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  const healthz = async (probes: Parameters<typeof startHealthServer>[2]) => {
    const server = await startHealthServer(0, '127.0.0.1', probes);
    servers.push(server);
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const adaptersWith = (stallMs: number) =>
    connectAdapters(
      { bus: { kind: 'memory' }, store: { kind: 'memory' }, secrets: SecretBox.ephemeral() },
      'liveness-test',
      createLogger('test', 'silent'),
      { stallMs },
    );

  it('/healthz answers 503 naming a consumer that died for good, so the pod is restarted', async () => {
    const adapters = await adaptersWith(60_000);
    try {
      expect(await healthz(adapters)).toEqual({ status: 200, body: { status: 'ok' } });
      // What KafkaBus reports after kafkajs crashed a consumer without a restart.
      (adapters.bus as { deadConsumerGroups?: () => string[] }).deadConsumerGroups = () => [
        'router.switch.router.inbox.v2 (not authorized)',
      ];
      expect(await healthz(adapters)).toEqual({
        status: 503,
        body: { error: 'SERVICE_UNAVAILABLE', message: 'consumer router.switch.router.inbox.v2 (not authorized) is dead' },
      });
    } finally {
      await adapters.close();
    }
  });

  it('/healthz answers 503 after the event loop stalled past its bound, and 200 again once it runs freely', async () => {
    const adapters = await adaptersWith(250);
    try {
      expect((await healthz(adapters)).status).toBe(200);
      // The fault: the loop blocked by synchronous work (a wedged handler), well past the 250 ms bound.
      const until = Date.now() + 1_000;
      while (Date.now() < until) {}
      const answer = await healthz(adapters);
      expect(answer).toEqual({
        status: 503,
        body: { error: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/^event loop stalled \d+ ms \(bound 250 ms\)$/) },
      });
      expect((await healthz(adapters)).status).toBe(200);
    } finally {
      await adapters.close();
    }
  });

  it('livenessProblems: dead consumers and a stall, nothing else', () => {
    expect(livenessProblems({ deadConsumers: [], loopDelayMaxMs: 50, stallMs: 100 })).toEqual([]);
    expect(livenessProblems({ deadConsumers: ['g'], loopDelayMaxMs: 101, stallMs: 100 })).toEqual([
      'consumer g is dead',
      'event loop stalled 101 ms (bound 100 ms)',
    ]);
  });
});
