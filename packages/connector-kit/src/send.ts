import { AsyncLocalStorage } from 'node:async_hooks';
import type { BancoId } from '@switch/core/bancos';
import { BankHttpClient, type BankHttpRequest, type BankHttpResult } from './bank-http';
import { BankBreakers, DEFAULT_BREAKER, type BreakerOptions } from './breaker';
import type { Raw } from './outcomes';

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
