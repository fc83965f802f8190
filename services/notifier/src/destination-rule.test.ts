import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@switch/platform/telemetry/logger';
import { DestinationSettings, destinationPolicy } from '@switch/platform/config/webhooks';
import { refusedAddress, refusedDestination, type DestinationPolicy, type Resolver } from '@switch/platform/runtime/destination';
import { SWITCH_DEFAULT_PORTS } from '@switch/platform/config/listeners';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { readSettings } from '@switch/platform/config/env';
import { registerWebhook } from '@switch/usecases/onboarding';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import type { Mode } from '@switch/core/contracts/bancos';
import { settledPayout } from '../test/events';
import { planDeliveries } from './deliveries';
import { Dispatcher, type DispatcherConfig } from './dispatcher';

/**
 * Issue 26 item 6: one destination rule for test and live mode, internal addresses only where the
 * operator allows them, never a port of the switch itself, and attempt errors that name no address.
 * Every connection here is to 127.0.0.1; non-loopback addresses are judged by the pure rule only.
 */

const log = createLogger('notifier-test', 'silent');
const secrets = SecretBox.ephemeral();
const policy = (over: Partial<DestinationPolicy> = {}): DestinationPolicy => ({
  allowLoopback: false,
  allowPrivate: false,
  ownPorts: new Set(SWITCH_DEFAULT_PORTS),
  ...over,
});

describe('the destination rule (pure: nothing is connected to)', () => {
  it('refuses every spelling of loopback and metadata addresses unless allowed, and own ports always', () => {
    const refused = (host: string, port = 8080, p = policy()) => refusedAddress(new URL(`http://${host}/`).hostname, port, p);
    // The URL parser turns decimal, hex and octal IPv4 into the dotted form the rule judges.
    for (const host of ['127.0.0.1', '0x7f000001', '2130706433', '0177.0.0.1', '127.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]'])
      expect(refused(host), host).toMatch(/internal address .*\(loopback\)/);
    for (const host of ['169.254.169.254', '[::ffff:a9fe:a9fe]', '10.0.0.5', '192.168.1.1', '0.0.0.0', '[::]', '[fd00::1]', '100.64.0.1'])
      expect(refused(host), host).toMatch(/internal address/);
    // Loopback allowed (npm start): loopback receivers yes, other internal addresses no, own ports never.
    const local = policy({ allowLoopback: true });
    expect(refused('127.0.0.1', 8080, local)).toBeNull();
    expect(refused('[::1]', 8080, local)).toBeNull();
    expect(refused('169.254.169.254', 80, local)).toMatch(/internal address/);
    expect(refused('10.0.0.5', 8080, local)).toMatch(/internal address/);
    for (const port of [3000, 3100, 9100, 9103]) expect(refused('0x7f000001', port, local), String(port)).toMatch(/switch itself/);
    // Private allowed (drills on a private network): any internal address, still never an own port.
    const priv = policy({ allowPrivate: true, ownPorts: new Set([...SWITCH_DEFAULT_PORTS, 4444]) });
    expect(refused('10.0.0.5', 8080, priv)).toBeNull();
    expect(refused('10.0.0.5', 4444, priv)).toMatch(/switch itself/);
    expect(refused('0.0.0.0', 9100, priv)).toMatch(/switch itself/);
    // A public address is a public address, whatever its port.
    expect(refused('93.184.216.34', 3000)).toBeNull();
    expect(refused('[2606:4700::1]', 443)).toBeNull();
  });

  it('the port is the URL default when none is written', async () => {
    const own80 = policy({ allowLoopback: true, ownPorts: new Set([80]) });
    expect(await refusedDestination('http://127.0.0.1/hook', own80)).toMatch(/switch itself/);
    expect(await refusedDestination('https://127.0.0.1/hook', own80)).toBeNull();
  });

  it('a name is judged by what it resolves to (localhost, rebinding names)', async () => {
    const to =
      (address: string): Resolver =>
      async () => [{ address, family: address.includes(':') ? 6 : 4 }];
    expect(await refusedDestination('http://localhost:8080/', policy(), to('127.0.0.1'))).toMatch(/localhost resolves to internal/);
    expect(await refusedDestination('https://h.example/', policy(), to('169.254.169.254'))).toMatch(/resolves to internal/);
    expect(await refusedDestination('https://h.example/', policy(), to('93.184.216.34'))).toBeNull();
    expect(await refusedDestination('http://localhost:9100/admin', policy({ allowLoopback: true }), to('::1'))).toMatch(/switch itself/);
  });

  it('reads its configuration: loopback and private allowances, the own ports', () => {
    const read = (env: Record<string, string>) => readSettings(DestinationSettings, env);
    // The ports this process listens on (a gateway's PORT and OPERATOR_PORT) come from its own configuration.
    const p = destinationPolicy(read({ SWITCH_WEBHOOK_ALLOW_LOOPBACK: 'true', SWITCH_OWN_PORTS: '7000, 7001' }), [8000, 8001]);
    expect(p.allowLoopback).toBe(true);
    expect(p.allowPrivate).toBe(false);
    for (const port of [3000, 9100, 8000, 8001, 7000, 7001]) expect(p.ownPorts.has(port), String(port)).toBe(true);
    expect(() => destinationPolicy(read({ SWITCH_OWN_PORTS: '70000' }))).toThrow(/SWITCH_OWN_PORTS/);
    expect(destinationPolicy(read({})).allowLoopback).toBe(false);
  });
});

describe('every attempt follows the rule, in test mode too, and its error names no address', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function receiver(): Promise<{ port: number; hits: () => number }> {
    let hits = 0;
    const server: Server = createServer((_req, res) => {
      hits++;
      res.writeHead(401).end('no');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    return { port: (server.address() as AddressInfo).port, hits: () => hits };
  }

  async function attemptOnce(url: string, config: Partial<DispatcherConfig>, mode: Mode = 'test') {
    const store = new MemoryStore();
    await registerWebhook(store, { merchantId: 'tienda', mode, url, events: ['transaccion.liquidada'] }, secrets);
    await planDeliveries(store, settledPayout({ txnId: 'txn_dest', mode }), new Date());
    const dispatcher = new Dispatcher(
      store,
      {
        schedule: [0, 3_600_000],
        attemptTimeoutMs: 2000,
        leaseMs: 10_000,
        allowPrivateDestinations: false,
        ownPorts: new Set(SWITCH_DEFAULT_PORTS),
        concurrency: 1,
        secrets,
        ...config,
      },
      log,
    );
    cleanup.push(() => dispatcher.close());
    expect(await dispatcher.runDue()).toBe(1);
    const [delivery] = await store.deliveries.listForTransaction('txn_dest');
    return delivery!.attempts[0]!;
  }

  it('test mode without the loopback allowance: a loopback receiver is never called', async () => {
    const r = await receiver();
    const attempt = await attemptOnce(`http://127.0.0.1:${r.port}/hook`, {});
    expect(r.hits()).toBe(0);
    expect(attempt.error).toBe('destination refused');
  });

  it('with the loopback allowance: a local receiver is called, but never a port of the switch', async () => {
    const r = await receiver();
    const allowed = await attemptOnce(`http://127.0.0.1:${r.port}/hook`, { allowLoopbackDestinations: true });
    expect(r.hits()).toBe(1);
    expect(allowed).toMatchObject({ statusCode: 401, error: 'HTTP 401' });
    // The same receiver standing for the switch's operator port, spelled in hex.
    const own = await attemptOnce(`http://0x7f000001:${r.port}/admin/v1/merchants`, {
      allowLoopbackDestinations: true,
      ownPorts: new Set([r.port]),
    });
    expect(r.hits()).toBe(1);
    expect(own.error).toBe('destination refused');
  });

  it('a refused connection is shown as a category, without the address or port', async () => {
    const r = await receiver();
    await cleanup.pop()!(); // the port is closed now
    const attempt = await attemptOnce(`http://127.0.0.1:${r.port}/hook`, { allowLoopbackDestinations: true });
    expect(attempt.error).toBe('connection refused');
    expect(JSON.stringify(attempt)).not.toMatch(/127\.0\.0\.1|::1|ECONNREFUSED/);
    expect(JSON.stringify(attempt)).not.toContain(String(r.port));
  });
});
