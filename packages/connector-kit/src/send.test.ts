import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BankHttpClient, BankBreakers } from './send';

/** A local server whose behaviour each path chooses: answer, hang after reading, or cut the socket. */
function startServer(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    if (req.url === '/ok') return void res.writeHead(200, { 'x-code': '0000' }).end('{"ok":true}');
    if (req.url === '/fail') return void res.writeHead(503).end('down');
    if (req.url === '/cut') return void req.socket.destroy();
    // '/hang': the request reached the bank; the answer never comes.
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

describe('bank HTTP calls classified for money safety', () => {
  let server: Server;
  let base: string;
  const client = new BankHttpClient({ connectTimeoutMs: 1000 });
  beforeAll(async () => {
    server = await startServer();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await client.close();
  });

  it('returns the answer with its status, headers and body', async () => {
    const r = await client.send({ url: `${base}/ok`, method: 'POST', body: '{}', timeoutMs: 5000 });
    expect(r).toEqual({ kind: 'response', status: 200, headers: expect.objectContaining({ 'x-code': '0000' }), body: '{"ok":true}' });
  });

  it('calls a refused connection not_sent: the bank never saw the order', async () => {
    const closed = await startServer();
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const r = await client.send({ url: `http://127.0.0.1:${port}/ok`, method: 'POST', timeoutMs: 5000 });
    expect(r).toEqual({ kind: 'not_sent', reason: 'ECONNREFUSED' });
  });

  it('calls a timeout after sending unknown: the bank may have moved the money', async () => {
    const r = await client.send({ url: `${base}/hang`, method: 'POST', body: '{}', timeoutMs: 200 });
    expect(r.kind).toBe('unknown');
  });

  it('calls a connection cut after sending unknown', async () => {
    const r = await client.send({ url: `${base}/cut`, method: 'POST', body: '{}', timeoutMs: 5000 });
    expect(r.kind).toBe('unknown');
  });

  it('opens the breaker after repeated failures; while open nothing reaches the bank', async () => {
    const breakers = new BankBreakers('banco_plaza', {
      errorThresholdPercentage: 50,
      volumeThreshold: 3,
      resetTimeoutMs: 60_000,
      rollingCountTimeoutMs: 10_000,
    });
    const states: string[] = [];
    breakers.onStateChange((_b, _op, s) => states.push(s));
    let reached = 0;
    const send = () => {
      reached++;
      return client.send({ url: `${base}/fail`, method: 'POST', timeoutMs: 5000 });
    };
    for (let i = 0; i < 3; i++) expect((await breakers.call('pagar', send)).kind).toBe('response');
    expect(breakers.state('pagar')).toBe('open');
    const blocked = await breakers.call('pagar', send);
    expect(blocked).toEqual({ kind: 'not_sent', reason: 'circuit breaker open for banco_plaza pagar' });
    expect(reached).toBe(3);
    expect(states).toEqual(['open']);
    expect(breakers.state('cobrar')).toBe('closed');
    breakers.shutdown();
  });
});
