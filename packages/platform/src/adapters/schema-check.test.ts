import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { SchemaViolation } from '@switch/core/contracts/errors';
import { assertPayload } from './schema-check';

const topic = {
  name: 'test.schema-check.v1',
  partitions: 1,
  schema: Type.Object({ n: Type.Integer(), at: Type.String({ format: 'date-time' }) }),
};

describe('assertPayload: the bus check of every message', () => {
  it('passes a valid payload', () => {
    expect(() => assertPayload(topic, { n: 1, at: '2026-01-01T00:00:00Z' })).not.toThrow();
  });

  it('refuses an invalid one and names every problem, not only the first', () => {
    let refused: unknown;
    try {
      assertPayload(topic, { n: 'one', at: 'yesterday' });
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(SchemaViolation);
    expect((refused as SchemaViolation).topic).toBe('test.schema-check.v1');
    expect((refused as SchemaViolation).problems).toEqual(['/n must be integer', '/at must match format "date-time"']);
  });
});
