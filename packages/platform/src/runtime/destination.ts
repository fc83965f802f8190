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
 * same rule for registration and for a readable error before an attempt. The rule is one for test and
 * live mode (test traffic is no licence to scan the switch's network): internal addresses only where
 * the operator allows them (`DestinationPolicy`), and never a port the switch itself listens on.
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
  return addressClass(address) !== 'public';
}

/**
 * What an address is to the destination rule: `loopback` (127.0.0.0/8 and ::1, in any textual form,
 * IPv4-mapped included), `internal` (every other special-purpose address, and anything unparseable)
 * or `public`.
 */
export function addressClass(address: string): 'public' | 'loopback' | 'internal' {
  const text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(text)) return 'internal';
  const parsed = ipaddr.parse(text);
  const v4 =
    parsed.kind() === 'ipv4'
      ? (parsed as ipaddr.IPv4)
      : (parsed as ipaddr.IPv6).isIPv4MappedAddress()
        ? (parsed as ipaddr.IPv6).toIPv4Address()
        : null;
  if (v4) return v4.range() === 'loopback' ? 'loopback' : v4Internal(v4) ? 'internal' : 'public';
  if ((parsed as ipaddr.IPv6).range() === 'loopback') return 'loopback';
  return v6Internal(parsed as ipaddr.IPv6) ? 'internal' : 'public';
}

function v6Internal(v6: ipaddr.IPv6): boolean {
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
  /** The name has no address (yet): nothing was refused for what it points at. */
  readonly unresolvable: boolean;
  constructor(message: string, options: { unresolvable?: boolean } = {}) {
    super(message);
    this.unresolvable = options.unresolvable ?? false;
  }
}

/**
 * Which non-public destinations the operator allows. Public addresses are always allowed (at any
 * port); a loopback address only with `allowLoopback` or `allowPrivate`, any other internal address
 * only with `allowPrivate`, and on those never one of `ownPorts`: the switch's own listeners
 * (merchant, panel, operator/admin, health and metrics ports), so a webhook cannot call the switch.
 */
export interface DestinationPolicy {
  /** Loopback receivers (127.0.0.0/8, ::1): `npm start`'s local receivers. */
  allowLoopback: boolean;
  /** Every internal address (tests and drills on a private network; never a deployment). */
  allowPrivate: boolean;
  /** Ports never connected to on a non-public address. */
  ownPorts: ReadonlySet<number>;
}

/**
 * Why one address and port may not receive a webhook under `policy`, or null when it may. Pure: the
 * whole rule, tested without connecting anywhere.
 */
export function refusedAddress(address: string, port: number, policy: DestinationPolicy): string | null {
  const kind = addressClass(address);
  if (kind === 'public') return null;
  if (kind === 'loopback' && !policy.allowLoopback && !policy.allowPrivate) return `internal address ${address} (loopback)`;
  if (kind === 'internal' && !policy.allowPrivate) return `internal address ${address}`;
  if (policy.ownPorts.has(port)) return `port ${port} of internal address ${address}, a port of the switch itself`;
  return null;
}

/** The port a URL connects to (its default when none is written). */
export function destinationPort(protocol: string, port: string): number {
  return port ? Number(port) : protocol === 'https:' ? 443 : 80;
}

/** Resolves `hostname` once and returns its addresses only when every one of them is allowed at `port`. */
export async function vettedAddresses(
  hostname: string,
  port: number,
  policy: DestinationPolicy,
  resolve: Resolver = systemResolver,
): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const refused = refusedAddress(host, port, policy);
    if (refused) throw new DestinationRefused(refused);
    return [{ address: host, family: isIP(host) }];
  }
  const found = await resolve(host).catch(() => []);
  if (found.length === 0) throw new DestinationRefused(`cannot resolve ${host}`, { unresolvable: true });
  for (const a of found) {
    const refused = refusedAddress(a.address, port, policy);
    if (refused) throw new DestinationRefused(`${host} resolves to ${refused}`);
  }
  return found;
}

/**
 * Why a URL may not receive webhooks, or null when it may (registration, and before each attempt for
 * a readable reason; the connection is vetted again inside the agent). `acceptUnresolvable`: a name
 * without an address passes (test-mode registration: every attempt resolves and vets it again).
 */
export async function refusedDestination(
  url: string,
  policy: DestinationPolicy,
  resolve: Resolver = systemResolver,
  options: { acceptUnresolvable?: boolean } = {},
): Promise<string | null> {
  let target: URL;
  try {
    target = new URL(url);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') return `scheme ${target.protocol} not allowed`;
  } catch {
    return 'invalid URL';
  }
  try {
    await vettedAddresses(target.hostname, destinationPort(target.protocol, target.port), policy, resolve);
    return null;
  } catch (error) {
    if (error instanceof DestinationRefused) return error.unresolvable && options.acceptUnresolvable ? null : error.message;
    throw error;
  }
}

/**
 * A `lookup` for `net.connect` to `port`: resolves once, vets every address, hands over only vetted
 * ones. Works with and without `all` (Node's happy-eyeballs asks for all addresses).
 */
export function guardedLookup(policy: DestinationPolicy, resolve: Resolver = systemResolver, port = 443): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number | string } | number, callback: (...args: unknown[]) => void) => {
    const all = typeof options === 'object' && options !== null && options.all === true;
    vettedAddresses(hostname, port, policy, resolve).then(
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
 * Keep-alive like `fetch`'s; one connector per destination port (the rule depends on the port).
 */
export function destinationAgent(options: { policy: DestinationPolicy; resolve?: Resolver; connectTimeoutMs?: number }): Agent {
  const { policy } = options;
  const connectors = new Map<number, buildConnector.connector>();
  const connectorFor = (port: number) => {
    let connector = connectors.get(port);
    if (!connector) {
      connector = buildConnector({
        lookup: guardedLookup(policy, options.resolve, port),
        timeout: options.connectTimeoutMs ?? 10_000,
      } as buildConnector.BuildOptions);
      connectors.set(port, connector);
    }
    return connector;
  };
  return new Agent({
    connect: (opts, callback) => {
      const host = opts.hostname.replace(/^\[|\]$/g, '');
      const port = destinationPort(opts.protocol, opts.port);
      const refused = isIP(host) ? refusedAddress(host, port, policy) : null;
      if (refused) {
        callback(new DestinationRefused(refused), null);
        return;
      }
      connectorFor(port)(opts, callback);
    },
  });
}

/**
 * How much of a receiver's answer is read: its status is all that counts, and the first bytes are
 * read only so that a short answer leaves the connection reusable. Past this the socket is destroyed,
 * so a receiver streaming an endless body costs an attempt no more memory than this (and undici's
 * one chunk of buffering).
 */
export const RESPONSE_READ_LIMIT_BYTES = 4096;

/**
 * One POST through a given agent (undici's `request`, so the agent is the one that connects): the
 * response's status once at most `RESPONSE_READ_LIMIT_BYTES` of its body have been read. Unlike
 * `fetch` it builds no Request, Response or web streams per call, which is most of the CPU a webhook
 * attempt costs. No redirect is followed. `signal` bounds the whole exchange, the body included.
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
    highWaterMark: RESPONSE_READ_LIMIT_BYTES,
  });
  let read = 0;
  try {
    for await (const chunk of res.body) {
      read += (chunk as Buffer).length;
      if (read >= RESPONSE_READ_LIMIT_BYTES) break;
    }
  } catch {
    // A body cut short changes nothing: the status has arrived.
  } finally {
    // Leaving the loop early (or failing) destroys the body and with it the socket; a body read to
    // its end left the connection for the next attempt.
    if (!res.body.destroyed && read >= RESPONSE_READ_LIMIT_BYTES) res.body.destroy();
  }
  return res.statusCode;
}

/**
 * What a failed attempt is called where the merchant reads it (delivery lists of the API and the
 * panel): a coarse category, never an address, a port or a timing of the switch's network. The full
 * error goes to the notifier's log for the operator.
 */
export function attemptErrorCategory(error: unknown): string {
  const chain: { name?: string; code?: string }[] = [];
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++)
    chain.push(e as { name?: string; code?: string });
  const has = (test: (e: { name?: string; code?: string }) => boolean) => chain.some(test);
  if (has((e) => e.name === 'DestinationRefused')) return 'destination refused';
  if (
    has(
      (e) =>
        e.name === 'TimeoutError' || e.code === 'UND_ERR_CONNECT_TIMEOUT' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'ETIMEDOUT',
    )
  )
    return 'timeout';
  if (has((e) => e.code === 'ECONNREFUSED')) return 'connection refused';
  if (has((e) => e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN')) return 'name not resolved';
  if (has((e) => typeof e.code === 'string' && (/^ERR_TLS|^ERR_SSL|CERT|SELF_SIGNED/.test(e.code) || e.code.startsWith('DEPTH_ZERO'))))
    return 'TLS error';
  if (has((e) => e.code === 'ECONNRESET' || e.code === 'UND_ERR_SOCKET' || e.code === 'EPIPE')) return 'connection closed';
  return 'connection failed';
}

const CATEGORIES = new Set([
  'destination refused',
  'timeout',
  'connection refused',
  'name not resolved',
  'TLS error',
  'connection closed',
  'connection failed',
  'endpoint removed or inactive',
]);

/**
 * A stored attempt error as the merchant may read it: the categories above and `HTTP <status>` as they
 * are; the free text older notifiers stored (`Error: connect ECONNREFUSED 10.0.0.5:9100`,
 * `destination refused: … internal address …`) reduced to its category, so no stored address shows.
 */
export function shownAttemptError(error: string | null): string | null {
  if (error === null || CATEGORIES.has(error) || /^HTTP [0-9]{3}$/.test(error)) return error;
  if (error.startsWith('destination refused')) return 'destination refused';
  if (/timeout|timed out|ETIMEDOUT/i.test(error)) return 'timeout';
  if (error.includes('ECONNREFUSED')) return 'connection refused';
  if (/ENOTFOUND|EAI_AGAIN/.test(error)) return 'name not resolved';
  if (/ECONNRESET|EPIPE|socket|closed/i.test(error)) return 'connection closed';
  if (/TLS|SSL|certificate/i.test(error)) return 'TLS error';
  return 'connection failed';
}

/** `fetch` through a given agent (undici's own, so the agent is the one that connects). */
export function fetchVia(agent: Agent, url: string, init: RequestInit): Promise<Response> {
  return undiciFetch(url, { ...init, dispatcher: agent });
}
