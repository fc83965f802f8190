import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket, type AddressInfo } from 'node:net';
import { startTestSwitch, type TestSwitch } from './helpers';

/**
 * Slow bodies and connection floods against a real listening socket (finding 3 of "Hardening the
 * edge"): headers announcing 20,000 bytes, then a byte now and then. Every such socket must be closed
 * by the server within the documented bounds (docs/configuration.md "HTTP edge"): an unauthenticated
 * one at once (401, `connection: close`, the body not read), an authenticated one when
 * `SWITCH_HTTP_REQUEST_TIMEOUT_MS` runs out (408). The assertion is that they end, not how fast.
 */

interface Probe {
  socket: Socket;
  received: string;
  closed: Promise<void>;
}

function open(port: number): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const probe: Probe = { socket, received: '', closed: new Promise((done) => socket.once('close', () => done())) };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      probe.received += chunk;
    });
    socket.on('error', () => {
      /* a reset by the server is a close too */
    });
    socket.once('connect', () => resolve(probe));
    socket.once('error', reject);
  });
}

/** Resolves once `count` whole responses (headers and their content-length of body) have arrived. */
function answered(probe: Probe, count: number): Promise<void> {
  const complete = () => {
    let seen = 0;
    let at = 0;
    for (;;) {
      const end = probe.received.indexOf('\r\n\r\n', at);
      if (end < 0) return false;
      const length = Number(/content-length: (\d+)/i.exec(probe.received.slice(at, end))?.[1] ?? 0);
      if (probe.received.length < end + 4 + length) return false;
      at = end + 4 + length;
      if (++seen === count) return true;
    }
  };
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!complete()) return;
      probe.socket.off('data', check);
      resolve();
    };
    probe.socket.on('data', check);
    probe.socket.once('close', () => (complete() ? resolve() : reject(new Error(`closed after: ${probe.received}`))));
    check();
  });
}

const slowHeaders = (key?: string) =>
  [
    'POST /switch/v1/pagar HTTP/1.1',
    'host: localhost',
    'content-type: application/json',
    'content-length: 20000',
    ...(key ? [`x-switch-key: ${key}`] : []),
    '',
    '',
  ].join('\r\n');

describe('slow bodies and connection caps on a real socket', () => {
  let t: TestSwitch;
  let port: number;
  beforeAll(async () => {
    t = await startTestSwitch({ config: { requestTimeoutMs: 2_000, headersTimeoutMs: 1_000, maxConnections: 1_000 } });
    await t.sw.gateway.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.sw.gateway.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('200 sockets dribbling a 20,000-byte body, half with a key, are all closed by the server', { timeout: 120_000 }, async () => {
    const probes = await Promise.all(Array.from({ length: 200 }, () => open(port)));
    probes.forEach((p, i) => {
      p.socket.write(slowHeaders(i % 2 === 0 ? t.key : undefined));
    });
    // One byte every 500 ms per socket, for as long as the server keeps it open.
    const dribble = setInterval(() => {
      for (const p of probes) if (!p.socket.destroyed && p.socket.writable) p.socket.write(' ');
    }, 500);
    try {
      await Promise.all(probes.map((p) => p.closed));
    } finally {
      clearInterval(dribble);
    }
    const withoutKey = probes.filter((_, i) => i % 2 === 1);
    const withKey = probes.filter((_, i) => i % 2 === 0);
    for (const p of withoutKey) {
      expect(p.received).toMatch(/^HTTP\/1\.1 401 /);
      expect(p.received.toLowerCase()).toContain('connection: close');
      expect(p.received).toContain('{"error":"unauthorized"}');
    }
    for (const p of withKey) {
      expect(p.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(p.received).toContain('"error":"REQUEST_TIMEOUT"');
    }
    // Nothing was stored for any of them.
    expect(t.footprint().claims).toBe(0);
  });

  it('headers never finished: closed when SWITCH_HTTP_HEADERS_TIMEOUT_MS runs out', { timeout: 60_000 }, async () => {
    const p = await open(port);
    p.socket.write('GET /switch/v1/bancos HTTP/1.1\r\nhost: localhost\r\n');
    const dribble = setInterval(() => p.socket.writable && p.socket.write('x-a: b\r\n'), 200);
    await p.closed;
    clearInterval(dribble);
    expect(p.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('an answered connection stays open for the next request, and says for how long (72 s idle by default)', async () => {
    const p = await open(port);
    const get = `GET /switch/v1/bancos HTTP/1.1\r\nhost: localhost\r\nx-switch-key: ${t.key}\r\n\r\n`;
    p.socket.write(get);
    await answered(p, 1);
    expect(p.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(p.received.toLowerCase()).toContain('connection: keep-alive');
    expect(p.received.toLowerCase()).toContain('keep-alive: timeout=72');
    p.socket.write(get);
    await answered(p, 2);
    expect(p.received.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    p.socket.destroy();
  });

  it('headers too large → 431 in the house body', async () => {
    const p = await open(port);
    p.socket.write(`GET /switch/v1/bancos HTTP/1.1\r\nhost: localhost\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    await p.closed;
    expect(p.received).toMatch(/^HTTP\/1\.1 431 /);
    const body = JSON.parse(p.received.slice(p.received.indexOf('\r\n\r\n') + 4)) as { error: string };
    expect(body.error).toBe('HEADERS_TOO_LARGE');
  });

  it('a URL too long → 431 in the house body (Node counts the request line within the header limit)', async () => {
    const p = await open(port);
    p.socket.write(`GET /switch/v1/bancos?x=${'a'.repeat(20_000)} HTTP/1.1\r\nhost: localhost\r\n\r\n`);
    await p.closed;
    expect(p.received).toMatch(/^HTTP\/1\.1 431 /);
    expect(p.received).toContain('cache-control: no-store');
    expect(p.received).toContain('"error":"HEADERS_TOO_LARGE"');
  });

  it('a body over the limit announced in content-length → 413, connection closed without reading it', { timeout: 60_000 }, async () => {
    const p = await open(port);
    p.socket.write(slowHeaders(t.key).replace('content-length: 20000', 'content-length: 10000000'));
    await p.closed;
    expect(p.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(p.received.toLowerCase()).toContain('connection: close');
    expect(p.received).toContain('"error":"PAYLOAD_TOO_LARGE"');
  });
});

describe('connection cap', () => {
  it('refuses connections beyond SWITCH_HTTP_MAX_CONNECTIONS and accepts again when one frees', { timeout: 60_000 }, async () => {
    const t = await startTestSwitch({ config: { maxConnections: 5, headersTimeoutMs: 20_000, requestTimeoutMs: 20_000 } });
    try {
      await t.sw.gateway.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.sw.gateway.app.server.address() as AddressInfo).port;
      const held = await Promise.all(Array.from({ length: 5 }, () => open(port)));
      // Each holds its slot with unfinished headers.
      for (const p of held) p.socket.write('GET /switch/v1/bancos HTTP/1.1\r\n');
      await new Promise((r) => setTimeout(r, 200));
      const extra = await open(port);
      extra.socket.write(`GET /switch/v1/bancos HTTP/1.1\r\nhost: localhost\r\nx-switch-key: ${t.key}\r\n\r\n`);
      await extra.closed;
      expect(extra.received).toBe('');
      // One slot frees: the next connection is served.
      held[0]!.socket.destroy();
      await held[0]!.closed;
      let served = '';
      for (let attempt = 0; attempt < 50 && !served.startsWith('HTTP/1.1 200'); attempt++) {
        await new Promise((r) => setTimeout(r, 100));
        const p = await open(port);
        p.socket.write(`GET /switch/v1/bancos HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\nx-switch-key: ${t.key}\r\n\r\n`);
        await p.closed;
        served = p.received;
      }
      expect(served).toMatch(/^HTTP\/1\.1 200 /);
      for (const p of held) p.socket.destroy();
    } finally {
      await t.close();
    }
  });
});
