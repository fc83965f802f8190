import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Throttling at the edge (docs/decisions.md "Throttling before authentication"). Runs as the first
 * `onRequest` hook, before authentication, validation and any store work:
 *
 * - a request budget per merchant id (named in the key header; per source address when no key is
 *   given), the documented `SWITCH_RATE_LIMIT_PER_MINUTE`;
 * - a failure budget per source address and per merchant id: refused requests (400, 401, 403, 404,
 *   405, 413, 415, and a 422 that refuses the client's input: TOKEN_MISMATCH, ACCOUNT_NOT_REGISTERED)
 *   are counted when answered, and once a budget is spent every request of that address or merchant
 *   id is 429 until the window ends. A wrong key costs the attacker, not the store.
 *
 * The merchant id is read from the header without trusting it: it only picks the counter.
 * Every figure is the deployment's; each of `replicas` gateways enforces its share (limit/replicas,
 * rounded up), so behind an even load balancer the sum is the documented limit.
 */

/** Source address of requests the MCP server injects into the API: no client can have it. */
export const INJECTED_ADDRESS = 'mcp-injected';

// 404: unknown routes (scans) and ids (a `/consultar` guess costs a store read), both the client's error.
const FAILURE_STATUSES = new Set([400, 401, 403, 404, 405, 413, 415]);

/** 422 codes that refuse the client's input (not a state of the switch such as BANCO_NO_DISPONIBLE): counted as failures. */
export const REFUSED_INPUT_CODES: ReadonlySet<string> = new Set(['TOKEN_MISMATCH', 'ACCOUNT_NOT_REGISTERED']);
const refusedInput = new WeakSet<FastifyRequest>();

/** Marks a request answered with a refusal of its input (a 422 of `REFUSED_INPUT_CODES`): it spends the failure budgets. */
export function markRefusedInput(request: FastifyRequest): void {
  refusedInput.add(request);
}

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
  failuresPerMerchantPerMinute: number;
  replicas: number;
}

/** The merchant id and mode a request claims (`x-switch-key` or `Authorization: Bearer`), unverified. */
export function claimedMerchant(request: FastifyRequest): { merchantId: string; mode: 'test' | 'live' } | null {
  const header = request.headers['x-switch-key'];
  const auth = request.headers.authorization;
  const key = typeof header === 'string' ? header : typeof auth === 'string' && /^bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
  const m = key ? /^([^:\s]{1,128}):(\S+)$/.exec(key) : null;
  if (!m) return null;
  return { merchantId: m[1]!, mode: m[2]!.startsWith('sk_live_') ? 'live' : 'test' };
}

const share = (limit: number, replicas: number) => Math.max(1, Math.ceil(limit / replicas));

/** A body was announced but not read: answering must close the connection rather than drain it. */
export function bodyUnread(request: FastifyRequest): boolean {
  const h = request.headers;
  const announced = (h['content-length'] !== undefined && h['content-length'] !== '0') || h['transfer-encoding'] !== undefined;
  return announced && request.body === undefined;
}

export class Throttle {
  private readonly window = 60_000;
  private readonly requests: WindowCounter;
  private readonly failures: WindowCounter;
  limits: { requests: number; failuresPerIp: number; failuresPerMerchant: number };

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
      failuresPerMerchant: share(this.deployment.failuresPerMerchantPerMinute, replicas),
    };
  }

  /** The live replica count changed (heartbeats): each limit becomes the new share. */
  setReplicas(replicas: number): void {
    this.limits = this.shares(Math.max(1, replicas));
  }

  private refuse(reply: FastifyReply, counter: WindowCounter, message: string): FastifyReply {
    const retry = counter.retryAfterSeconds();
    if (bodyUnread(reply.request)) reply.header('connection', 'close');
    return reply
      .code(429)
      .header('retry-after', String(retry))
      .send({ error: 'RATE_LIMITED', message: `${message}; retry after ${retry} s` });
  }

  /** onRequest, first of all: refuses when the address or the claimed merchant spent its failure budget. */
  checkFailures = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const merchant = claimedMerchant(request);
    const ipSpent = request.ip !== INJECTED_ADDRESS && this.failures.get(`ip|${request.ip}`) >= this.limits.failuresPerIp;
    const merchantSpent = merchant !== null && this.failures.get(`m|${merchant.merchantId}`) >= this.limits.failuresPerMerchant;
    if (ipSpent || merchantSpent) {
      return this.refuse(
        reply,
        this.failures,
        `too many refused requests (more than ${ipSpent ? this.limits.failuresPerIp : this.limits.failuresPerMerchant} a minute)`,
      );
    }
    return undefined;
  };

  /** onRequest of the API, before authentication: the request budget of the claimed merchant (or address). */
  checkRequests = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const merchant = claimedMerchant(request);
    const key = merchant ? `m|${merchant.merchantId}|${merchant.mode}` : `ip|${request.ip}`;
    if (this.requests.add(key) > this.limits.requests) {
      return this.refuse(reply, this.requests, `more than ${this.limits.requests} requests a minute`);
    }
    return undefined;
  };

  /** onResponse: counts a refused request against its address and claimed merchant. */
  countFailure = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!FAILURE_STATUSES.has(reply.statusCode) && !refusedInput.has(request)) return;
    if (request.ip !== INJECTED_ADDRESS) this.failures.add(`ip|${request.ip}`);
    const merchant = claimedMerchant(request);
    if (merchant) this.failures.add(`m|${merchant.merchantId}`);
  };

  install(app: FastifyInstance): void {
    app.addHook('onRequest', this.checkFailures);
    app.addHook('onResponse', this.countFailure);
  }
}
