import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PUBLIC_DESTINATIONS_ONLY } from '@switch/platform/config/webhooks';
import { createLogger } from '@switch/platform/telemetry/logger';
import { guardedLookup, type Resolver } from '@switch/platform/runtime/destination';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { registerWebhook } from '@switch/usecases/onboarding';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { settledPayout } from '../test/events';
import { planDeliveries } from './deliveries';
import { isInternalAddress, refusedDestination } from './destination';
import { Dispatcher } from './dispatcher';

const host = (url: string) => new URL(url).hostname;

/** Hardening the edge, finding 9: every textual form of an internal address is refused. */
describe('webhook destination guard', () => {
  it('refuses IPv4-mapped IPv6 in the hex form new URL produces', () => {
    expect(host('http://[::ffff:127.0.0.1]/')).toBe('[::ffff:7f00:1]');
    expect(isInternalAddress(host('http://[::ffff:127.0.0.1]/'))).toBe(true);
    expect(isInternalAddress(host('http://[::ffff:169.254.169.254]/'))).toBe(true);
    expect(isInternalAddress('::ffff:a9fe:a9fe')).toBe(true);
    expect(isInternalAddress('::ffff:0a00:0001')).toBe(true);
    expect(isInternalAddress('::ffff:0:7f00:1')).toBe(true); // IPv4-translated (RFC 6145)
  });

  it('refuses the long, IPv4-compatible, NAT64 and 6to4 forms of internal addresses', () => {
    for (const a of [
      '0:0:0:0:0:0:0:1',
      '::1',
      '::',
      '::127.0.0.1',
      '::7f00:1',
      '::10.0.0.1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::10.1.2.3',
      '64:ff9b:1::8.8.8.8', // local-use NAT64 (RFC 8215)
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '2002:c0a8:0101::1',
      '2002:0a00:0001:0:0:0:0:1',
    ]) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    expect(isInternalAddress(host('http://[0:0:0:0:0:0:0:1]/'))).toBe(true);
    expect(isInternalAddress(host('http://[::127.0.0.1]/'))).toBe(true);
  });

  it('refuses every special-purpose IPv4 range, benchmarking 198.18.0.0/15 included', () => {
    for (const a of [
      '0.0.0.0',
      '10.0.0.1',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.88.99.1',
      '192.168.1.1',
      '198.18.0.1',
      '198.19.255.254',
      '198.51.100.1',
      '203.0.113.1',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
    ]) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    expect(isInternalAddress(host('http://0x7f000001/'))).toBe(true);
    expect(isInternalAddress(host('http://2130706433/'))).toBe(true);
  });

  it('refuses special-purpose IPv6 ranges and anything unparseable', () => {
    for (const a of [
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2001:db8::1',
      '2001::1',
      '100::1',
      'fec0::1',
      // The dummy prefix of RFC 9780 (IANA, 2025), which ipaddr.js calls unicast, and the newer
      // documentation (3fff::/20) and SRv6 SID (5f00::/16) blocks.
      '100:0:0:1::1',
      '100:0:0:1:ffff:ffff:ffff:ffff',
      '3fff::1',
      '5f00::1',
      'not-an-ip',
    ]) {
      expect(isInternalAddress(a), a).toBe(true);
    }
  });

  it('lets public addresses through, embedded ones included', () => {
    for (const a of [
      '8.8.8.8',
      '1.1.1.1',
      '198.17.255.255',
      '198.20.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2002:0808:0808::1',
    ]) {
      expect(isInternalAddress(a), a).toBe(false);
    }
  });

  it('refusedDestination: literals and resolved names', async () => {
    const resolveTo =
      (address: string): Resolver =>
      async () => [{ address, family: address.includes(':') ? 6 : 4 }];
    expect(await refusedDestination('http://[::ffff:127.0.0.1]/hook', PUBLIC_DESTINATIONS_ONLY)).toMatch(/internal/);
    expect(await refusedDestination('http://[::ffff:a9fe:a9fe]/', PUBLIC_DESTINATIONS_ONLY)).toMatch(/internal/);
    expect(await refusedDestination('http://198.18.0.1/', PUBLIC_DESTINATIONS_ONLY)).toMatch(/internal/);
    expect(await refusedDestination('https://hooks.example.com/x', PUBLIC_DESTINATIONS_ONLY, resolveTo('10.0.0.5'))).toMatch(
      /resolves to internal address 10.0.0.5/,
    );
    expect(await refusedDestination('https://hooks.example.com/x', PUBLIC_DESTINATIONS_ONLY, resolveTo('::ffff:7f00:1'))).toMatch(
      /internal/,
    );
    expect(await refusedDestination('https://hooks.example.com/x', PUBLIC_DESTINATIONS_ONLY, resolveTo('93.184.216.34'))).toBeNull();
    expect(await refusedDestination('ftp://hooks.example.com/x', PUBLIC_DESTINATIONS_ONLY)).toMatch(/scheme/);
  });

  it('guardedLookup hands over only vetted addresses, in both callback shapes', async () => {
    const lookup = guardedLookup(PUBLIC_DESTINATIONS_ONLY, async () => [{ address: '93.184.216.34', family: 4 }]);
    const one = await new Promise<unknown[]>((resolve) => lookup('h.example', { family: 0 }, (...args: unknown[]) => resolve(args)));
    expect(one).toEqual([null, '93.184.216.34', 4]);
    const all = await new Promise<unknown[]>((resolve) => lookup('h.example', { all: true }, (...args: unknown[]) => resolve(args)));
    expect(all).toEqual([null, [{ address: '93.184.216.34', family: 4 }]]);
    const bad = guardedLookup(PUBLIC_DESTINATIONS_ONLY, async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]);
    const refused = await new Promise<unknown[]>((resolve) => bad('h.example', { all: true }, (...args: unknown[]) => resolve(args)));
    expect(refused[0]).toMatchObject({ name: 'DestinationRefused' });
  });
});

describe('webhook delivery connects only to the address that was checked (DNS rebinding)', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('first answer public, second private → refused; the private receiver never sees a request', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    const port = (server.address() as AddressInfo).port;

    let lookups = 0;
    // A rebinding name: the check sees a public address, a second resolution would see loopback.
    const rebinding: Resolver = async () =>
      lookups++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    const store = new MemoryStore();
    const secrets = SecretBox.ephemeral();
    await registerWebhook(
      store,
      { merchantId: 'tienda', mode: 'live', url: `http://rebind.example:${port}/hooks`, events: ['transaccion.liquidada'] },
      secrets,
    );
    await planDeliveries(store, settledPayout({ txnId: 'txn_rebind', mode: 'live' }), new Date());
    const dispatcher = new Dispatcher(
      store,
      {
        schedule: [0, 5, 5, 5, 5, 5],
        attemptTimeoutMs: 2000,
        leaseMs: 10_000,
        allowPrivateDestinations: false,
        ownPorts: PUBLIC_DESTINATIONS_ONLY.ownPorts,
        concurrency: 1,
        resolve: rebinding,
        secrets,
      },
      createLogger('notifier-test', 'silent'),
    );
    cleanup.push(() => dispatcher.close());
    expect(await dispatcher.runDue()).toBe(1);
    const [delivery] = await store.deliveries.listForTransaction('txn_rebind');
    expect(delivery!.attempts[0]!.error).toBe('destination refused');
    expect(lookups).toBe(2);
    expect(hits).toBe(0);
  });
});
