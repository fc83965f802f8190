import { describe, expect, it } from 'vitest';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { nextAttemptAt, SPEC_SCHEDULE_MS } from './dispatcher';
import { loadNotifierConfig } from './service';

const parseSchedule = (value: string | undefined) =>
  loadNotifierConfig(SecretBox.ephemeral(), { SWITCH_WEBHOOK_SCHEDULE_MS: value }).schedule;

describe('webhook retry schedule', () => {
  it('is the SPEC schedule by default: now, 30 s, 2 min, 5 min, 15 min, 1 h; six attempts', () => {
    expect(parseSchedule(undefined)).toEqual([0, 30_000, 120_000, 300_000, 900_000, 3_600_000]);
    expect(SPEC_SCHEDULE_MS).toHaveLength(6);
  });
  it('counts each wait from the previous failed attempt and ends after the sixth', () => {
    const failedAt = new Date('2026-01-01T00:00:00.000Z');
    expect(nextAttemptAt(SPEC_SCHEDULE_MS, 1, failedAt)!.toISOString()).toBe('2026-01-01T00:00:30.000Z');
    expect(nextAttemptAt(SPEC_SCHEDULE_MS, 2, failedAt)!.toISOString()).toBe('2026-01-01T00:02:00.000Z');
    expect(nextAttemptAt(SPEC_SCHEDULE_MS, 5, failedAt)!.toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(nextAttemptAt(SPEC_SCHEDULE_MS, 6, failedAt)).toBeNull();
  });
  it('refuses a malformed override', () => {
    expect(() => parseSchedule('0,thirty')).toThrow(/SWITCH_WEBHOOK_SCHEDULE_MS/);
    expect(parseSchedule('0,5,5')).toEqual([0, 5, 5]);
  });
});
