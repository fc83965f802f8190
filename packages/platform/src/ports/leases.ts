import type { LeaseRecord } from '@switch/core/lease';

export interface Lease extends LeaseRecord {
  name: string;
}

/**
 * Leases in the store: what keeps a background loop to one replica at a time (the reconciler, the
 * outbox relay). Every change is a compare-and-set on the lease's current state, so of replicas
 * asking together exactly one gets it (the rule: `acquiredLease` in core).
 */
export interface Leases {
  leases: LeaseTable;
}

export interface LeaseTable {
  /**
   * Takes or renews lease `name` for `holder` at `now` (ms since the epoch, the caller's clock) for
   * `ttlMs`; null while another holder's lease is live.
   */
  acquire(name: string, holder: string, now: number, ttlMs: number): Promise<Lease | null>;
  /** Lets go of the lease if `holder` still holds it under `token` (else nothing). */
  release(name: string, holder: string, token: number): Promise<void>;
  /** The lease as stored (operators, drills): who holds it, under which token, until when. */
  get(name: string): Promise<Lease | null>;
}
