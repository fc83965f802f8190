import { parseSwitchKey } from '@switch/usecases/onboarding';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VerifiedKey } from './key-cache';
import { bodyUnread, sendError } from './errors';

/**
 * Throttling on the merchant port (docs/decisions/0007-throttling-by-key-verdict.md),
 * decided where the key is verified (the key cache: no store round trip in the common case):
 *
 * - a request with a valid key spends only that key's own request budget, the documented
 *   `SWITCH_RATE_LIMIT_PER_MINUTE`, announced on every answer in `RateLimit-Limit`,
 *   `RateLimit-Remaining` and `RateLimit-Reset`. Nothing else spends it or refuses it: not its own
 *   4xx, not wrong keys naming its merchant, not other keys, not its source address;
 * - a request whose key fails verification (well-formed, but wrong or revoked) spends the failure
 *   budget of its source address, `SWITCH_FAILURE_LIMIT_PER_IP_PER_MINUTE`; once it is spent, such
 *   requests from that address are 429 instead of 401 until the window ends. A valid key from that
 *   same address still passes: the budget refuses only what fails verification.
 *
 * Every figure is the deployment's; each of `replicas` gateways enforces its share (limit/replicas,
 * rounded up), so behind an even load balancer the sum is the documented limit.
 */

/** Source address of requests the MCP server injects into the API: no client can have it. */
export const INJECTED_ADDRESS = 'mcp-injected';

/** Counts per key in fixed windows; the whole map is dropped when a window ends, so it stays bounded. */
export class WindowCounter {
  private counts = new Map<string, number>();
  private windowStart: number;
  constructor(
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.windowStart = now();
  }
  private roll(): void {
    const t = this.now();
    if (t - this.windowStart >= this.windowMs) {
      this.counts.clear();
      this.windowStart = t - ((t - this.windowStart) % this.windowMs);
    }
  }
  get(key: string): number {
    this.roll();
    return this.counts.get(key) ?? 0;
  }
  add(key: string): number {
    this.roll();
    const n = (this.counts.get(key) ?? 0) + 1;
    // A flood of distinct keys (addresses) past the cap is not tracked rather than growing the map.
    if (this.counts.has(key) || this.counts.size < this.maxKeys) this.counts.set(key, n);
    return n;
  }
  /** Whole seconds until the current window ends (at least 1). */
  retryAfterSeconds(): number {
    this.roll();
    return Math.max(1, Math.ceil((this.windowStart + this.windowMs - this.now()) / 1000));
  }
}

export interface ThrottleLimits {
  requestsPerMinute: number;
  failuresPerIpPerMinute: number;
  replicas: number;
}

const share = (limit: number, replicas: number) => Math.max(1, Math.ceil(limit / replicas));

export class Throttle {
  private readonly window = 60_000;
  private readonly requests: WindowCounter;
  private readonly failures: WindowCounter;
  limits: { requests: number; failuresPerIp: number };

  constructor(
    private readonly deployment: ThrottleLimits,
    now: () => number = Date.now,
  ) {
    this.requests = new WindowCounter(this.window, 100_000, now);
    this.failures = new WindowCounter(this.window, 100_000, now);
    this.limits = this.shares(deployment.replicas);
  }

  private shares(replicas: number) {
    return {
      requests: share(this.deployment.requestsPerMinute, replicas),
      failuresPerIp: share(this.deployment.failuresPerIpPerMinute, replicas),
    };
  }

  /** The live replica count changed (heartbeats): each limit becomes the new share. */
  setReplicas(replicas: number): void {
    this.limits = this.shares(Math.max(1, replicas));
  }

  private refuse(reply: FastifyReply, counter: WindowCounter, message: string): FastifyReply {
    const retry = counter.retryAfterSeconds();
    if (bodyUnread(reply.request)) reply.header('connection', 'close');
    reply.header('retry-after', String(retry));
    return sendError(reply, 'RATE_LIMITED', { message: `${message}; retry after ${retry} s` });
  }

  /** Whether the request's address spent its budget of requests without a valid key. */
  addressSpent(request: FastifyRequest): boolean {
    return request.ip !== INJECTED_ADDRESS && this.failures.get(`ip|${request.ip}`) >= this.limits.failuresPerIp;
  }

  /**
   * Answers a request whose key failed verification: 401, or 429 once its address spent its failure
   * budget. Requests the MCP server injects carry the key of a request already verified: never counted.
   * No key, or not the shape of one (`presented`), looked nothing up and guesses nothing: a plain 401
   * that spends no budget, so a client that forgot its header keeps hearing why.
   */
  refuseKey = (request: FastifyRequest, reply: FastifyReply, presented: string | undefined): FastifyReply => {
    if (request.ip !== INJECTED_ADDRESS && parseSwitchKey(presented)) {
      const address = `ip|${request.ip}`;
      if (this.addressSpent(request)) {
        return this.refuse(
          reply,
          this.failures,
          `too many requests without a valid key from this address (more than ${this.limits.failuresPerIp} a minute)`,
        );
      }
      this.failures.add(address);
    }
    return sendError(reply, 'unauthorized');
  };

  /**
   * Spends one request of a verified key's budget and announces what is left (`RateLimit-*`, the
   * IETF httpapi draft's fields, on every answer to that key). Over the budget: 429 with `retry-after`,
   * returned; within it, undefined. A tool call the MCP server injects counts here like the same REST
   * request (one budget for both); the MCP transport's own requests (initialize, tool lists) do not.
   */
  admitKey = (reply: FastifyReply, key: VerifiedKey): FastifyReply | undefined => {
    const spent = this.requests.add(`k|${key.keyId}`);
    const limit = this.limits.requests;
    reply
      .header('ratelimit-limit', String(limit))
      .header('ratelimit-remaining', String(Math.max(0, limit - spent)))
      .header('ratelimit-reset', String(this.requests.retryAfterSeconds()));
    if (spent > limit) return this.refuse(reply, this.requests, `more than ${limit} requests a minute with this key`);
    return undefined;
  };
}
