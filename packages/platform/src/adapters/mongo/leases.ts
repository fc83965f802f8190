import type { Collection } from 'mongodb';
import { acquiredLease, releasedLease, type LeaseRecord } from '@switch/core/lease';
import type { Lease, LeaseTable } from '../../ports/leases';
import { insertNew } from './inserts';

type LeaseRow = LeaseRecord & { _id: string; rev: number };

/**
 * Leases in MongoDB: one document per lease, every change a `replaceOne` conditioned on the revision
 * read (atomic on one document, as the transaction log's compare-and-set; see conditional.ts for the
 * FerretDB build this needs), the first one an insert whose `_id` only one replica can win.
 */
export class MongoLeases implements LeaseTable {
  constructor(private readonly rows: Collection<LeaseRow>) {}

  async acquire(name: string, holder: string, now: number, ttlMs: number): Promise<Lease | null> {
    // A lost race means another replica wrote first: decide again on what it wrote (it now holds the
    // lease, so the second look ends it).
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await this.rows.findOne({ _id: name });
      const next = acquiredLease(row ? recordOf(row) : null, holder, now, ttlMs);
      if (!next) return null;
      if (!row) {
        if (await insertNew(this.rows, { _id: name, ...next, rev: 1 })) return { name, ...next };
        continue;
      }
      const { matchedCount } = await this.rows.replaceOne({ _id: name, rev: row.rev }, { ...next, rev: row.rev + 1 });
      if (matchedCount === 1) return { name, ...next };
    }
    return null;
  }

  async release(name: string, holder: string, token: number): Promise<void> {
    const row = await this.rows.findOne({ _id: name });
    const next = releasedLease(row ? recordOf(row) : null, holder, token);
    if (row && next) await this.rows.replaceOne({ _id: name, rev: row.rev }, { ...next, rev: row.rev + 1 });
  }

  async get(name: string): Promise<Lease | null> {
    const row = await this.rows.findOne({ _id: name });
    return row ? { name, ...recordOf(row) } : null;
  }
}

const recordOf = (row: LeaseRow): LeaseRecord => ({ holder: row.holder, token: row.token, expiresAt: row.expiresAt });
