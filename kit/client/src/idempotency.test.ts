import { describe, expect, it } from 'vitest';
import { newIdempotencyKey, withIdempotencyKey } from './idempotency';

describe('idempotency keys', () => {
  it('a new operation gets a new UUID v4 key', () => {
    const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(100);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('withIdempotencyKey fixes the key once and keeps a key already given', () => {
    const body = withIdempotencyKey({ concepto: 'x' });
    expect(body.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    // The same object sent again is a retry: same key.
    expect(withIdempotencyKey(body).idempotency_key).toBe(body.idempotency_key);
    expect(withIdempotencyKey({ concepto: 'y' }).idempotency_key).not.toBe(body.idempotency_key);
  });
});
