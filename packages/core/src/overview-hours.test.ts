import { describe, expect, it } from 'vitest';
import { hourComplete, hoursOf, merchantHourKey, venezuelanHourOf } from './overview-hours';

describe('overview hours', () => {
  it('files an operation under its Venezuelan hour (UTC−4), the day turning at 04:00 UTC', () => {
    expect(venezuelanHourOf('2026-11-28T03:59:59.999Z')).toBe('2026-11-27T23');
    expect(venezuelanHourOf('2026-11-28T04:00:00.000Z')).toBe('2026-11-28T00');
    expect(merchantHourKey('demo', 'test', '2026-11-27T23')).toBe('demo|test|2026-11-27T23');
  });

  it('calls an hour complete a quarter of an hour after it ends, not before', () => {
    // 14:00–15:00 in Caracas is 18:00–19:00 UTC.
    expect(hourComplete('2026-11-27T14', Date.parse('2026-11-27T19:14:59.999Z'))).toBe(false);
    expect(hourComplete('2026-11-27T14', Date.parse('2026-11-27T19:15:00.000Z'))).toBe(true);
  });

  it('lists the hours of the days up to the current one, oldest first', () => {
    const hours = hoursOf(['2026-11-26', '2026-11-27'], Date.parse('2026-11-27T06:30:00.000Z'));
    expect(hours).toHaveLength(27);
    expect(hours[0]).toBe('2026-11-26T00');
    expect(hours.at(-1)).toBe('2026-11-27T02');
  });
});
