import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * SSRF guard: in live mode a webhook may not target loopback, private, link-local or otherwise
 * internal addresses (checked on every attempt, after DNS resolution), unless the operator allows it
 * explicitly (`SWITCH_WEBHOOK_ALLOW_PRIVATE=true`, for tests and local runs).
 */
export async function refusedDestination(url: string): Promise<string | null> {
  let host: string;
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return `scheme ${u.protocol} not allowed`;
    host = u.hostname.replace(/^\[|\]$/g, '');
  } catch {
    return 'invalid URL';
  }
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) return `cannot resolve ${host}`;
  const internal = addresses.find(isInternalAddress);
  return internal ? `${host} resolves to internal address ${internal}` : null;
}

export function isInternalAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  const v6 = address.toLowerCase();
  if (v6.startsWith('::ffff:')) return isInternalAddress(v6.slice(7));
  return v6 === '::1' || v6 === '::' || v6.startsWith('fe80') || v6.startsWith('fc') || v6.startsWith('fd');
}
