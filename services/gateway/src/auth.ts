import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DependencyDown } from '@switch/core/contracts/errors';
import { sendError } from './errors';
import type { Caller, KeyCache, VerifiedKey } from './key-cache';
import type { Throttle } from './throttle';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

/**
 * `x-switch-key: <merchant>:<secret>` on every operation (SPEC 5). The mode comes from the key's
 * prefix only; anything the body says about mode is ignored. Runs before the body is read, so a
 * request without a valid key is refused whatever its body. The key decides the throttling too
 * (./throttle.ts): a valid key spends its own request budget only, a failed one its address's.
 */
export function installAuth(app: FastifyInstance, keys: KeyCache, throttle: Throttle): void {
  app.decorateRequest('caller', null as unknown as Caller);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const raw = request.headers['x-switch-key'];
    const header = typeof raw === 'string' ? raw : undefined;
    const verified = await verifyKey(keys, header, throttle.addressSpent(request));
    if (!verified) return throttle.refuseKey(request, reply, header);
    const refused = throttle.admitKey(reply, verified);
    if (refused) return refused;
    request.caller = verified.caller;
  });
}

/**
 * The key cache's verdict; a store that cannot answer is the switch's outage (503), not the client's
 * error. `thrifty` (an address that spent its budget of failed keys): a wrong key is decided from
 * what the cache holds, without a store read (./key-cache.ts).
 */
export function verifyKey(keys: KeyCache, header: string | undefined, thrifty = false): Promise<VerifiedKey | null> {
  return keys.verify(header, { thrifty }).catch((error: unknown) => {
    throw new DependencyDown(`key store unavailable: ${String(error)}`);
  });
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The operator API's door: `authorization: Bearer <SWITCH_ADMIN_TOKEN>`, checked before routing so an
 * unknown /admin path answers exactly like a bad token (401), and without a configured token every
 * /admin request is a 401. A source address that fails `maxFailures` times within `lockoutMs` gets
 * 429 with `retry-after` for its further bad tokens until the window passes; the valid token is
 * never refused, from that address or any other (bad tokens aimed at /admin by anyone, a
 * misdirected webhook included, cannot lock the operator out).
 */
export function adminGuard(
  adminToken: string | undefined,
  limits: { maxFailures: number; lockoutMs: number },
  now: () => number = Date.now,
) {
  const expected = adminToken ? digest(adminToken) : null;
  const failures = new Map<string, { count: number; since: number }>();
  const prune = (at: number) => {
    if (failures.size < 10_000) return;
    for (const [ip, f] of failures) if (at - f.since >= limits.lockoutMs) failures.delete(ip);
  };
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (expected && token && timingSafeEqual(digest(token), expected)) return undefined;
    const at = now();
    const ip = request.ip;
    let seen = failures.get(ip);
    if (seen && at - seen.since >= limits.lockoutMs) {
      failures.delete(ip);
      seen = undefined;
    }
    if (seen && seen.count >= limits.maxFailures) {
      const retryAfter = Math.max(1, Math.ceil((seen.since + limits.lockoutMs - at) / 1000));
      reply.header('retry-after', String(retryAfter));
      return sendError(reply, 'RATE_LIMITED', { message: `too many failed admin token attempts; retry after ${retryAfter} s` });
    }
    prune(at);
    failures.set(ip, seen ? { count: seen.count + 1, since: seen.since } : { count: 1, since: at });
    return sendError(reply, 'unauthorized');
  };
}
