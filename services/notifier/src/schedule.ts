/**
 * SPEC 6.3: attempt 1 at once, then 30 s, 2 min, 5 min, 15 min and 1 h, each counted from the previous
 * failed attempt; 6 attempts at most.
 */
export const SPEC_SCHEDULE_MS: readonly number[] = [0, 30_000, 120_000, 300_000, 900_000, 3_600_000];

/** When the attempt after `attemptsMade` failed ones is due, or null when the schedule is exhausted. */
export function nextAttemptAt(schedule: readonly number[], attemptsMade: number, lastFailedAt: Date): Date | null {
  const wait = schedule[attemptsMade];
  return wait === undefined ? null : new Date(lastFailedAt.getTime() + wait);
}
