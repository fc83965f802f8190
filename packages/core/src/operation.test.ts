import { describe, expect, it } from 'vitest';
import type { PagarBody } from './contracts/operaciones';
import { newTransaction } from './operation';

describe('newTransaction', () => {
  it('starts a transaction with no outcome, version 1 and its first check due at once', () => {
    const build = (i: number) =>
      newTransaction({
        id: `tx_${i}`,
        merchantId: 'm_1',
        mode: 'test',
        idempotencyKey: `key-${i}`,
        fingerprint: 'f',
        request: { kind: 'pagar', body: { idempotency_key: `key-${i}` } as PagarBody },
        relatedId: null,
        now: '2026-11-25T00:00:00.000Z',
      });
    expect(build(1)).not.toHaveProperty('now');
    expect(build(1)).toMatchObject({
      id: 'tx_1',
      kind: 'pagar',
      estado: null,
      version: 1,
      nextCheckAt: '2026-11-25T00:00:00.000Z',
    });
  });
});
