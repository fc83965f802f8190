import { describe, expect, it } from 'vitest';
import { partitionOf } from './partition';

describe('partitionOf', () => {
  it('maps a key to the same partition every time, within range', () => {
    for (const key of ['a', 'txn_1', 'ñandú', '']) {
      const p = partitionOf(key, 12);
      expect(p).toBe(partitionOf(key, 12));
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(12);
      expect(Number.isInteger(p)).toBe(true);
    }
  });

  it('spreads keys over every partition', () => {
    const seen = new Set(Array.from({ length: 600 }, (_, i) => partitionOf(`txn_${i}`, 12)));
    expect(seen.size).toBe(12);
  });
});
