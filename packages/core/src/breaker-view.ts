import type { BancoId, Mode } from './contracts/bancos';

/**
 * One connector replica's last breaker report, as a router received it. Every replica of a bank's
 * connector keeps breakers of its own (its own calls, its own network path), so replicas may disagree:
 * the view keeps each replica's report apart and derives the bank's state from all of them.
 */
export interface BreakerReport {
  banco: BancoId;
  mode: Mode;
  /** The reporting connector replica's stable instance id ('' for a report that names none). */
  replica: string;
  /** Whether any of this replica's breakers (one per bank operation) is open. */
  open: boolean;
  /** When the router received it (its own clock, ms since the epoch): reports are aged on one clock. */
  receivedAt: number;
}

/** The key a replica's report is kept under: its latest report replaces its previous one, no one else's. */
export const breakerReportKey = (r: Pick<BreakerReport, 'banco' | 'mode' | 'replica'>): string => `${r.banco}|${r.mode}|${r.replica}`;

/**
 * Banks of `mode` to route around at `now`: a bank is routed around while ANY replica of its
 * connector that reported within `staleMs` reports an open breaker (docs/decisions/0175-breaker-view-across-replicas.md).
 * Orders reach replicas by partition, not by health, so a replica whose breaker is open refuses its
 * share of the bank's orders; sending the bank new work then fails some of it. A report older than
 * `staleMs` (a replica gone, scaled down or killed) counts for nothing. Pure and order-independent:
 * the same reports give the same answer whatever order they arrived in.
 */
export function unavailableBanks(reports: Iterable<BreakerReport>, mode: Mode, now: number, staleMs: number): Set<BancoId> {
  const out = new Set<BancoId>();
  for (const r of reports) if (r.mode === mode && r.open && isFresh(r, now, staleMs)) out.add(r.banco);
  return out;
}

/** A report counts while younger than `staleMs`. */
export const isFresh = (r: Pick<BreakerReport, 'receivedAt'>, now: number, staleMs: number): boolean => now - r.receivedAt < staleMs;
