import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher, type RequestInit, type Response } from 'undici';

/**
 * SSRF guard of outbound webhooks. A destination may not be any address of the special-purpose
 * registries of IANA (IPv4 and IPv6: loopback, private, link-local, CGNAT, benchmarking 198.18.0.0/15,
 * documentation, multicast, reserved, unique-local, …) in any textual form, including IPv4 embedded in
 * IPv6 (mapped `::ffff:a.b.c.d` and its hex form `::ffff:7f00:1`, translated `::ffff:0:a.b.c.d`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, the deprecated IPv4-compatible `::a.b.c.d`).
 *
 * Checking an address and then letting the HTTP client resolve the name again is open to DNS
 * rebinding, so the check runs inside the client's own connection: `destinationAgent` resolves the
 * name once, vets every address and hands the vetted one to the socket. `refusedDestination` is the
 * same rule for registration and for a readable error before an attempt.
 */

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The special-purpose IPv4 ranges ipaddr.js does not name but IANA lists (checked explicitly). */
const EXTRA_V4: [ipaddr.IPv4, number][] = [
  [ipaddr.IPv4.parse('198.18.0.0'), 15], // benchmarking (RFC 2544)
  [ipaddr.IPv4.parse('192.0.0.0'), 24], // IETF protocol assignments
];
/** The special-purpose IPv6 ranges of IANA's registry that ipaddr.js (2.5) leaves `unicast`. */
const EXTRA_V6: [ipaddr.IPv6, number][] = [
  [ipaddr.IPv6.parse('100:0:0:1::'), 64], // dummy IPv6 prefix (RFC 9780): never globally reachable
];
const NAT64 = ipaddr.IPv6.parse('64:ff9b::');
const SIX_TO_FOUR = ipaddr.IPv6.parse('2002::');
const IPV4_COMPATIBLE = ipaddr.IPv6.parse('::');
const IPV4_TRANSLATED = ipaddr.IPv6.parse('::ffff:0:0:0');

function v4Internal(v4: ipaddr.IPv4): boolean {
  if (v4.range() !== 'unicast') return true;
  return EXTRA_V4.some(([net, bits]) => v4.match(net, bits));
}

function embeddedV4(bytes: number[], offset: number): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(offset, offset + 4));
}

/** Whether an address (any textual form) is internal or otherwise special-purpose; unparseable counts as internal. */
export function isInternalAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(text)) return true;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return v4Internal(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v4Internal(v6.toIPv4Address());
  const bytes = v6.toByteArray();
  // Embedded IPv4 forms: the IPv4 inside decides (a public one is reachable; a private one is not).
  if (v6.match(NAT64, 96)) return v4Internal(embeddedV4(bytes, 12));
  if (v6.match(IPV4_TRANSLATED, 96)) return v4Internal(embeddedV4(bytes, 12));
  if (v6.match(SIX_TO_FOUR, 16)) return v4Internal(embeddedV4(bytes, 2));
  // ::/96 holds ::, ::1 and the deprecated IPv4-compatible form (::127.0.0.1): never a webhook.
  if (v6.match(IPV4_COMPATIBLE, 96)) return true;
  if (EXTRA_V6.some(([net, bits]) => v6.match(net, bits))) return true;
  // Everything else that is not global unicast (teredo, ULA, link-local, documentation, …).
  return v6.range() !== 'unicast';
}

export class DestinationRefused extends Error {
  override name = 'DestinationRefused';
  readonly code = 'EDESTINATIONREFUSED';
}

/** Resolves `hostname` once and returns its addresses only when every one of them is allowed. */
export async function vettedAddresses(
  hostname: string,
  resolve: Resolver = systemResolver,
): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (isInternalAddress(host)) throw new DestinationRefused(`${host} is an internal address`);
    return [{ address: host, family: isIP(host) }];
  }
  const found = await resolve(host).catch(() => []);
  if (found.length === 0) throw new DestinationRefused(`cannot resolve ${host}`);
  const internal = found.find((a) => isInternalAddress(a.address));
  if (internal) throw new DestinationRefused(`${host} resolves to internal address ${internal.address}`);
  return found;
}

/** Why a URL may not receive webhooks, or null when it may (registration and before each attempt). */
export async function refusedDestination(url: string, resolve: Resolver = systemResolver): Promise<string | null> {
  let host: string;
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return `scheme ${u.protocol} not allowed`;
    host = u.hostname;
  } catch {
    return 'invalid URL';
  }
  try {
    await vettedAddresses(host, resolve);
    return null;
  } catch (error) {
    if (error instanceof DestinationRefused) return error.message;
    throw error;
  }
}

/**
 * A `lookup` for `net.connect`: resolves once, vets every address, hands over only vetted ones.
 * Works with and without `all` (Node's happy-eyeballs asks for all addresses).
 */
export function guardedLookup(resolve: Resolver = systemResolver): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number | string } | number, callback: (...args: unknown[]) => void) => {
    const all = typeof options === 'object' && options !== null && options.all === true;
    vettedAddresses(hostname, resolve).then(
      (addresses) => {
        if (all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => callback(error),
    );
  }) as unknown as LookupFunction;
}

/**
 * An HTTP agent that connects only to vetted addresses: a literal IP host is checked before the
 * socket opens, a name is resolved by `guardedLookup` inside the connection (no second resolution).
 */
export function destinationAgent(options: { resolve?: Resolver; connectTimeoutMs?: number } = {}): Agent {
  const base = buildConnector({
    lookup: guardedLookup(options.resolve),
    timeout: options.connectTimeoutMs ?? 10_000,
  } as buildConnector.BuildOptions);
  return new Agent({
    connect: (opts, callback) => {
      const host = opts.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && isInternalAddress(host)) {
        callback(new DestinationRefused(`${host} is an internal address`), null);
        return;
      }
      base(opts, callback);
    },
  });
}

/** An agent without the address check (test mode, or private destinations allowed): keep-alive like `fetch`'s. */
export function plainAgent(options: { connectTimeoutMs?: number } = {}): Agent {
  return new Agent({ connect: { timeout: options.connectTimeoutMs ?? 10_000 } });
}

/**
 * One POST through a given agent (undici's `request`, so the agent is the one that connects): the
 * response's status once its body has been read whole. Unlike `fetch` it builds no Request, Response
 * or web streams per call, which is most of the CPU a webhook attempt costs. No redirect is followed.
 * `signal` bounds the whole exchange, the body included.
 */
export async function postVia(
  agent: Dispatcher,
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal },
): Promise<number> {
  const target = new URL(url);
  const res = await agent.request({
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: 'POST',
    headers: init.headers,
    body: init.body,
    signal: init.signal,
  });
  await res.body.arrayBuffer().catch(() => undefined);
  return res.statusCode;
}

/** `fetch` through a given agent (undici's own, so the agent is the one that connects). */
export function fetchVia(agent: Agent, url: string, init: RequestInit): Promise<Response> {
  return undiciFetch(url, { ...init, dispatcher: agent });
}
