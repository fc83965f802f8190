import CircuitBreaker from 'opossum';
import type { BancoId } from '@switch/core/bancos';
import type { BankHttpResult } from './bank-http';

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
