/**
 * A lease: which process runs a background loop that must run once per deployment, not once per
 * replica (the reconciler's rounds, the router's outbox relay). `token` grows by one each time the
 * lease changes hands or lapses and is taken again (a new term): whatever a holder stamps with its
 * token can be told apart from the work of a later holder. Times are milliseconds since the epoch on
 * the caller's clock; replicas' clocks must agree to well within the lease's length.
 */
export interface LeaseRecord {
  holder: string;
  token: number;
  /** The holder may act until then; from then on anyone may take it. */
  expiresAt: number;
}

/**
 * The lease after `holder` asks for it at `now` for `ttlMs`, or null when another holds it. A holder
 * renewing its own live lease keeps its token; a lapsed lease (even its own: it may have been paused
 * past its end) is taken as a new term.
 */
export function acquiredLease(current: LeaseRecord | null, holder: string, now: number, ttlMs: number): LeaseRecord | null {
  if (!current) return { holder, token: 1, expiresAt: now + ttlMs };
  const live = current.expiresAt > now;
  if (live && current.holder !== holder) return null;
  if (live) return { holder, token: current.token, expiresAt: Math.max(current.expiresAt, now + ttlMs) };
  return { holder, token: current.token + 1, expiresAt: now + ttlMs };
}

/** The lease after its holder lets go (stopping): lapsed at once, so another replica takes it on its next round. */
export function releasedLease(current: LeaseRecord | null, holder: string, token: number): LeaseRecord | null {
  if (!current || current.holder !== holder || current.token !== token) return null;
  return { ...current, expiresAt: 0 };
}
