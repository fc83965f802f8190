import { randomInt } from 'node:crypto';

/**
 * Per-key state that must hold across every replica sharing one bank credential: request nonces and
 * the bank references the switch chooses. Never a hash of something longer (two orders could
 * share one reference); always unique by construction.
 */

/** Numbers assigned per scope and key, shared by every replica (the store's `bankReferences`). */
export interface ReferenceBook {
  /**
   * The number `key` (e.g. an orderRef) holds in `scope` (e.g. one bank and merchant), allocated on
   * first ask from the scope's sequence 1, 2, 3…: unique by construction across every replica
   * sharing the store, and the same number for the same key on every later ask.
   */
  assign(scope: string, key: string): Promise<number>;
  /** The number `key` holds in `scope`, or null when it was never assigned. */
  find(scope: string, key: string): Promise<number | null>;
}

/** A book held in this process only: for tests and single-process runs (`npm start`). */
export function memoryReferenceBook(): ReferenceBook {
  const rows = new Map<string, number>();
  const seq = new Map<string, number>();
  return {
    assign: async (scope, key) => {
      const id = `${scope}|${key}`;
      const found = rows.get(id);
      if (found !== undefined) return found;
      const n = (seq.get(scope) ?? 0) + 1;
      seq.set(scope, n);
      rows.set(id, n);
      return n;
    },
    find: async (scope, key) => rows.get(`${scope}|${key}`) ?? null,
  };
}

/** `n` as a fixed-width decimal reference; refuses a number that does not fit (never wraps into a reused one). */
export function decimalReference(n: number, digits: number): string {
  const text = String(n);
  if (!Number.isSafeInteger(n) || n < 0 || text.length > digits) throw new Error(`reference ${n} does not fit in ${digits} digits`);
  return text.padStart(digits, '0');
}

/**
 * A nonce for APIs that want it increasing per key, shared by replicas with no coordination:
 * `<microsecond clock, strictly increasing in this process><3-digit replica id>`. Two replicas can
 * never send the same nonce (their ids differ), and each replica's nonces increase even when many
 * calls share a microsecond or its clock steps back. Replicas' clocks may disagree: the bank must
 * accept a nonce within its window rather than only above the last one seen (see the bank's
 * emulator README for the rule assumed).
 */
export class ReplicaNonce {
  private last = 0n;
  readonly replica: number;

  constructor(
    private readonly clockMs: () => number = Date.now,
    /** 0-999, unique among the replicas sharing a key (default: random, from `replicaId` below). */
    replica?: number,
  ) {
    this.replica = replica ?? randomInt(1000);
    if (!Number.isInteger(this.replica) || this.replica < 0 || this.replica > 999)
      throw new Error(`replica id ${this.replica} is not 0-999`);
  }

  next(): string {
    const micros = BigInt(Math.floor(this.clockMs())) * 1000n;
    this.last = micros > this.last ? micros : this.last + 1n;
    return `${this.last}${String(this.replica).padStart(3, '0')}`;
  }
}

/** A replica id 0-999 from configuration, else from the pod's name (its hash), else random. */
export function replicaId(configured: string | undefined, hostname: string | undefined): number | undefined {
  if (configured !== undefined && /^[0-9]{1,3}$/.test(configured)) return Number(configured);
  if (!hostname) return undefined;
  let h = 0;
  for (const ch of hostname) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % 1000;
}
