import CircuitBreaker from 'opossum';
import type { BancoId } from '@switch/core/contracts/bancos';
import { Agent, request } from 'undici';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Raw } from './bank-port';

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerOptions {
  /** Failure percentage over the rolling window that opens the breaker. */
  errorThresholdPercentage: number;
  /** Calls in the window before the percentage is judged. */
  volumeThreshold: number;
  /** How long the breaker stays open before one trial call (half-open). */
  resetTimeoutMs: number;
  rollingCountTimeoutMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = {
  errorThresholdPercentage: 50,
  volumeThreshold: 5,
  resetTimeoutMs: 30_000,
  rollingCountTimeoutMs: 10_000,
};

class CallFailed extends Error {
  constructor(readonly result: BankHttpResult) {
    super(result.kind === 'response' ? `HTTP ${result.status}` : result.reason);
  }
}

/** A failed call for breaker purposes: the bank did not answer, or answered with a server error. */
const failed = (r: BankHttpResult) => r.kind !== 'response' || r.status >= 500;

/**
 * One opossum breaker per bank and operation. A call while open never reaches the bank and comes
 * back as `not_sent` (so a payout may be rerouted). Listeners hear every state change (metrics,
 * routing).
 */
export class BankBreakers {
  private readonly breakers = new Map<string, CircuitBreaker<[() => Promise<BankHttpResult>], BankHttpResult>>();
  private readonly listeners: ((banco: BancoId, operation: string, state: BreakerState) => void)[] = [];

  constructor(
    readonly banco: BancoId,
    private readonly options: BreakerOptions = DEFAULT_BREAKER,
  ) {}

  onStateChange(listener: (banco: BancoId, operation: string, state: BreakerState) => void): void {
    this.listeners.push(listener);
  }

  async call(operation: string, send: () => Promise<BankHttpResult>): Promise<BankHttpResult> {
    const breaker = this.breakerFor(operation);
    try {
      return await breaker.fire(send);
    } catch (error) {
      if (error instanceof CallFailed) return error.result;
      if ((error as { code?: string }).code === 'EOPENBREAKER')
        return { kind: 'not_sent', reason: `circuit breaker open for ${this.banco} ${operation}` };
      return { kind: 'unknown', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  state(operation: string): BreakerState {
    const b = this.breakers.get(operation);
    if (!b) return 'closed';
    return b.opened ? 'open' : b.halfOpen ? 'half_open' : 'closed';
  }

  /** Every breaker of this bank with its state. */
  states(): Record<string, BreakerState> {
    return Object.fromEntries([...this.breakers.keys()].map((op) => [op, this.state(op)]));
  }

  shutdown(): void {
    for (const b of this.breakers.values()) b.shutdown();
  }

  private breakerFor(operation: string) {
    let b = this.breakers.get(operation);
    if (!b) {
      b = new CircuitBreaker(
        async (send: () => Promise<BankHttpResult>) => {
          const result = await send();
          if (failed(result)) throw new CallFailed(result);
          return result;
        },
        {
          timeout: false, // the HTTP client owns timeouts, so a late answer is classified, not dropped
          errorThresholdPercentage: this.options.errorThresholdPercentage,
          volumeThreshold: this.options.volumeThreshold,
          resetTimeout: this.options.resetTimeoutMs,
          rollingCountTimeout: this.options.rollingCountTimeoutMs,
          name: `${this.banco}:${operation}`,
        },
      );
      const emit = (state: BreakerState) => () => {
        for (const l of this.listeners) l(this.banco, operation, state);
      };
      b.on('open', emit('open'));
      b.on('halfOpen', emit('half_open'));
      b.on('close', emit('closed'));
      this.breakers.set(operation, b);
    }
    return b;
  }
}

/**
 * What one HTTP call to a bank came to, classified for money safety:
 * - `response`: the bank answered (any status); the connector reads it;
 * - `not_sent`: provably never reached the bank (refused, no route, connect timeout, breaker open):
 *   the only failure after which a payout may be rerouted;
 * - `unknown`: the request may have reached the bank but no complete answer came (timeout or cut
 *   after sending): the order becomes DESCONOCIDA and is never resent.
 */
export type BankHttpResult =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'not_sent'; reason: string }
  | { kind: 'unknown'; reason: string };

export interface BankHttpRequest {
  url: string;
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** Time allowed for the answer once the request is sent. */
  timeoutMs: number;
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export class BankHttpClient {
  private readonly agent: Agent;
  constructor(options: { connectTimeoutMs?: number; connections?: number } = {}) {
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs ?? 3_000 },
      connections: options.connections ?? 64,
      keepAliveTimeout: 10_000,
    });
  }

  async send(req: BankHttpRequest): Promise<BankHttpResult> {
    try {
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        dispatcher: this.agent,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      });
      const body = await res.body.text();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      return { kind: 'response', status: res.statusCode, headers, body };
    } catch (error) {
      const code = errorCode(error);
      if (code && NOT_SENT_CODES.has(code)) return { kind: 'not_sent', reason: code };
      return { kind: 'unknown', reason: code ?? (error instanceof Error ? error.message : String(error)) };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** What every connector is built with; a test injects its HTTP client and clock. */
export interface KitDeps {
  http?: BankHttpClient;
  now?: () => Date;
}

export interface SendOptions {
  /** Time allowed for an answer once a request is sent (integrators use 30-45 s). */
  timeoutMs: number;
  connectTimeoutMs?: number;
  breaker?: Partial<BreakerOptions>;
}

/** One request to a bank: `operation` names its breaker (one per bank endpoint). */
export interface KitRequest extends Omit<BankHttpRequest, 'timeoutMs'> {
  operation: string;
  timeoutMs?: number;
}

/**
 * One bank call as the connector reads it. `not_sent` (provably never reached the bank: refused,
 * no route, breaker open) and `unknown` (sent, no complete answer) carry what is known in `raw`; a
 * `response` is the bank's answer whatever its status, with the transport facts in `raw`.
 */
export type Sent =
  | { kind: 'not_sent'; raw: Raw }
  | { kind: 'unknown'; raw: Raw }
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string; raw: Raw };

/** Marks, per order, whether any request of it has left the switch (AsyncLocalStorage: concurrent orders do not mix). */
const scope = new AsyncLocalStorage<{ sent: boolean }>();

/** Runs `work` noting whether it sent anything; used by the kit's connector to tell "refused here" from "maybe at the bank". */
export async function tracked<T>(work: () => Promise<T>): Promise<{ value: T } | { error: unknown; sent: boolean }> {
  const mark = { sent: false };
  try {
    return { value: await scope.run(mark, work) };
  } catch (error) {
    return { error, sent: mark.sent };
  }
}

/**
 * The guarded send every bank uses: one breaker per operation, the shared HTTP client with its
 * connect and answer timeouts, the `not_sent` / `unknown` split, and the raw capture.
 */
export class GuardedSend {
  readonly breakers: BankBreakers;
  readonly now: () => Date;
  private readonly http: BankHttpClient;
  private readonly ownsHttp: boolean;

  constructor(
    readonly banco: BancoId,
    private readonly options: SendOptions,
    deps: KitDeps = {},
  ) {
    this.now = deps.now ?? (() => new Date());
    this.ownsHttp = deps.http === undefined;
    this.http = deps.http ?? new BankHttpClient({ connectTimeoutMs: options.connectTimeoutMs ?? 3_000 });
    this.breakers = new BankBreakers(banco, { ...DEFAULT_BREAKER, ...options.breaker });
  }

  /** The raw transport result through the operation's breaker. */
  async result(req: KitRequest): Promise<BankHttpResult> {
    const { operation, timeoutMs, ...http } = req;
    return this.breakers.call(operation, () => {
      const mark = scope.getStore();
      if (mark) mark.sent = true;
      return this.http.send({ timeoutMs: timeoutMs ?? this.options.timeoutMs, ...http });
    });
  }

  /** One call, classified: the answer with its transport facts, or why there is none. */
  async send(req: KitRequest): Promise<Sent> {
    const result = await this.result(req);
    if (result.kind !== 'response') return { kind: result.kind, raw: { reason: result.reason, operation: req.operation } };
    return { raw: { http_status: result.status }, ...result };
  }

  async close(): Promise<void> {
    this.breakers.shutdown();
    if (this.ownsHttp) await this.http.close();
  }
}
