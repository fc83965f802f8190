import { describe, expect, it } from 'vitest';
import { day, money, when, whenTag } from './format';

describe('money and times for people', () => {
  it('says bolívares with the separators of each language', () => {
    expect(money('es', 1719.83)).toBe('Bs. 1.719,83');
    expect(money('en', 1719.83)).toBe('Bs. 1,719.83');
    expect(money('es', 1234567.5)).toBe('Bs. 1.234.567,50');
    expect(money('es', -20)).toBe('−Bs. 20,00');
    expect(money('en', 0.1 + 0.2)).toBe('Bs. 0.30');
  });

  it('shows every instant in Caracas time, labelled, with the stored UTC on hover', () => {
    // 11:15 UTC is 07:15 in Caracas (UTC−4, no daylight saving).
    expect(when('es', '2026-11-27T11:15:00.000Z')).toBe('27/11/2026 07:15:00 VET');
    expect(when('en', '2026-11-27T11:15:00.000Z')).toBe('27/11/2026 07:15:00 VET');
    // 02:00 UTC is still the previous Venezuelan day.
    expect(day('es', '2026-11-28T02:00:00.000Z')).toBe('27/11/2026');
    expect(whenTag('es', '2026-11-27T11:15:00.000Z')).toBe(
      '<time datetime="2026-11-27T11:15:00.000Z" title="2026-11-27T11:15:00.000Z (UTC)">27/11/2026 07:15:00 VET</time>',
    );
    expect(whenTag('es', '"><script>')).not.toContain('<script>');
  });
});
