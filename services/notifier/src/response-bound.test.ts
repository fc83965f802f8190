import { afterEach, describe, expect, it } from 'vitest';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PUBLIC_DESTINATIONS_ONLY } from '@switch/platform/config/webhooks';
import { destinationAgent, postVia, RESPONSE_READ_LIMIT_BYTES } from '@switch/platform/runtime/destination';

/**
 * Issue 26 item 7: a receiver's answer is read only as far as a few KiB, then the socket is destroyed;
 * a 300 MB answer once grew the notifier by 600 MB. Measured as bytes the client read from its socket.
 */
describe('a webhook attempt reads a bounded part of the answer', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('a 32 MiB answer: the attempt has its status after reading under 256 KiB, and the socket is gone', async () => {
    const total = 32 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let serverClosed!: () => void;
    const closed = new Promise<void>((r) => (serverClosed = r));
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(total) });
      let sent = 0;
      res.on('close', serverClosed);
      // Written as fast as the client takes it (backpressure), so only the client's reading bounds it.
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    const port = (server.address() as AddressInfo).port;

    const sockets: Socket[] = [];
    const onConnected = (message: unknown) => sockets.push((message as { socket: Socket }).socket);
    subscribe('undici:client:connected', onConnected);
    cleanup.push(async () => void unsubscribe('undici:client:connected', onConnected));
    const agent = destinationAgent({ policy: { ...PUBLIC_DESTINATIONS_ONLY, allowLoopback: true } });
    cleanup.push(() => agent.close());

    const status = await postVia(agent, `http://127.0.0.1:${port}/hook`, {
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: new AbortController().signal,
    });
    expect(status).toBe(200);
    expect(sockets).toHaveLength(1);
    const socket = sockets[0]!;
    expect(RESPONSE_READ_LIMIT_BYTES).toBeLessThanOrEqual(8 * 1024);
    // One read of the socket (64 KiB in Node) at most, and its headers: not the 32 MiB that were sent.
    expect(socket.bytesRead).toBeLessThan(256 * 1024);
    // The receiver sees its connection end: the client destroyed it instead of reading on.
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  it('a short answer is read whole and leaves the connection for the next attempt', async () => {
    const server: Server = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    const sockets: Socket[] = [];
    const onConnected = (message: unknown) => sockets.push((message as { socket: Socket }).socket);
    subscribe('undici:client:connected', onConnected);
    cleanup.push(async () => void unsubscribe('undici:client:connected', onConnected));
    const agent = destinationAgent({ policy: { ...PUBLIC_DESTINATIONS_ONLY, allowLoopback: true } });
    cleanup.push(() => agent.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const post = () => postVia(agent, url, { headers: {}, body: '{}', signal: new AbortController().signal });
    expect(await post()).toBe(204);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.destroyed).toBe(false);
  });
});
