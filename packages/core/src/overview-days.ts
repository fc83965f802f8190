import type { Mode } from './bancos';
import { isFinal } from './estados';
import type { Transaction } from './operation';
import { addToOverview, type OverviewGroup } from './overview';

/**
 * One Venezuelan day of a merchant's operations in one mode, folded for the overview: its groups
 * and how many of its operations have no final outcome yet (in flight, ACEPTADA, PENDIENTE,
 * DESCONOCIDA). Tokens move no money and are left out of both.
 */
export interface DayOverview {
  day: string;
  groups: OverviewGroup[];
  open: number;
}

/**
 * The key a store files a merchant's operations of one mode and one Venezuelan day under (one
 * equality, served by one index on MongoDB and on FerretDB alike): `merchant|mode|YYYY-MM-DD`.
 */
export const merchantDayKey = (merchantId: string, mode: Mode, day: string): string => `${merchantId}|${mode}|${day}`;

/** Folds one day's operations as a store reads them: `add` each, then `result`. */
export function dayFold(day: string): { add(tx: Transaction): void; result(): DayOverview } {
  const groups = new Map<string, OverviewGroup>();
  let open = 0;
  return {
    add(tx) {
      if (tx.kind === 'token') return;
      if (!isFinal(tx.estado)) open += 1;
      addToOverview(groups, tx);
    },
    result: () => ({ day, groups: [...groups.values()], open }),
  };
}

/**
 * How long after a day ends operations of that day may still be written for the first time (the
 * router writes a new operation as it stamps its creation; this covers clocks apart and a commit
 * retried through a short store outage).
 */
export const LATE_FIRST_WRITE_MS = 60 * 60_000;

/**
 * Whether a day's groups can no longer change: the day ended long enough ago that no operation of it
 * is still to be written, and every operation of it has its final outcome (LIQUIDADA and RECHAZADA
 * never move again; a reverso is an operation of its own day). Such groups may be kept for ever, by
 * any number of panel replicas, and need no invalidation.
 */
export function daySealed(d: DayOverview, now: number): boolean {
  const end = Date.parse(`${d.day}T04:00:00.000Z`) + 86_400_000;
  return d.open === 0 && now >= end + LATE_FIRST_WRITE_MS;
}
