import { acquiredLease, releasedLease, type LeaseRecord } from '@switch/core/lease';
import type { Lease, LeaseTable } from '../../ports/leases';

/** Leases of the in-memory store: one process, so each change is atomic by construction. */
export class MemoryLeases implements LeaseTable {
  private readonly rows = new Map<string, LeaseRecord>();

  async acquire(name: string, holder: string, now: number, ttlMs: number): Promise<Lease | null> {
    const next = acquiredLease(this.rows.get(name) ?? null, holder, now, ttlMs);
    if (!next) return null;
    this.rows.set(name, next);
    return { name, ...next };
  }

  async release(name: string, holder: string, token: number): Promise<void> {
    const next = releasedLease(this.rows.get(name) ?? null, holder, token);
    if (next) this.rows.set(name, next);
  }

  async get(name: string): Promise<Lease | null> {
    const row = this.rows.get(name);
    return row ? { name, ...row } : null;
  }
}
