import { afterEach, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../telemetry/logger';
import { checkReady } from './readiness';
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
});
