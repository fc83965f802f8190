import type { Mode } from './contracts/bancos';
import { isFinal } from './estados';
import type { Transaction } from './operation';
import { addToOverview, type OverviewGroup } from './overview';

/**
 * One Venezuelan hour of a merchant's operations in one mode, read for the overview: the groups of
 * its operations that have their final outcome, and the operations still open (in flight, ACEPTADA,
 * PENDIENTE, DESCONOCIDA). Tokens move no money and are left out.
 */
export interface HourOverview {
  /** `YYYY-MM-DDTHH`, Venezuelan time. */
  hour: string;
  final: OverviewGroup[];
  open: Transaction[];
}

/** Venezuela is UTC−4 all year. */
export const venezuelanHourOf = (iso: string): string => new Date(Date.parse(iso) - 4 * 3_600_000).toISOString().slice(0, 13);

/**
 * The key a store files a merchant's operations of one mode and one Venezuelan hour under (one
 * equality, served by one index on MongoDB and on FerretDB alike): `merchant|mode|YYYY-MM-DDTHH`.
 */
export const merchantHourKey = (merchantId: string, mode: Mode, hour: string): string => `${merchantId}|${mode}|${hour}`;

/** The same for a Venezuelan day (`YYYY-MM-DD`): the export's walk. */
export const merchantDayKey = (merchantId: string, mode: Mode, day: string): string => `${merchantId}|${mode}|${day}`;

/** Folds one hour's operations as a store reads them: `add` each, then `result`. */
export function hourFold(hour: string): { add(tx: Transaction): void; result(): HourOverview } {
  const groups = new Map<string, OverviewGroup>();
  const open: Transaction[] = [];
  return {
    add(tx) {
      if (tx.kind === 'token') return;
      if (isFinal(tx.estado)) addToOverview(groups, tx);
      else open.push(tx);
    },
    result: () => ({ hour, final: [...groups.values()], open }),
  };
}

/**
 * How long after an hour ends operations of that hour may still be written for the first time (the
 * router writes a new operation as it stamps its creation; this covers clocks apart and a commit
 * retried through a short store outage).
 */
export const LATE_FIRST_WRITE_MS = 15 * 60_000;

/**
 * Whether every operation of an hour has been written: it ended `LATE_FIRST_WRITE_MS` ago. From then
 * on its final operations' groups never change (LIQUIDADA and RECHAZADA never move again; a reverso
 * is an operation of its own hour) and only its open operations can: they are read again by id.
 */
export function hourComplete(hour: string, now: number): boolean {
  return now >= Date.parse(`${hour}:00:00.000Z`) + 4 * 3_600_000 + 3_600_000 + LATE_FIRST_WRITE_MS;
}

/** The Venezuelan hours of `days` (`YYYY-MM-DD`) up to the one of `now`, oldest first. */
export function hoursOf(days: readonly string[], now: number): string[] {
  const current = venezuelanHourOf(new Date(now).toISOString());
  return days.flatMap((day) => Array.from({ length: 24 }, (_, h) => `${day}T${String(h).padStart(2, '0')}`)).filter((h) => h <= current);
}
