import { describe, expect, it } from 'vitest';
import { sharesOneHiddenClass } from '../../test/fixtures/hidden-class';
import type { PagarBody } from '../contracts/requests';
import { newTransaction } from './operation';

describe('newTransaction', () => {
  it('gives every new transaction the same hidden class: no map and no old-space garbage of its own', () => {
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
    expect(sharesOneHiddenClass(build)).toBe(true);
    expect(build(1)).toMatchObject({
      id: 'tx_1',
      kind: 'pagar',
      estado: null,
      version: 1,
      nextCheckAt: '2026-11-25T00:00:00.000Z',
    });
  });
});
