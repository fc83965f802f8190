import { describe, expect, it } from 'vitest';
import { isListProblem, transactionFilter } from './transaction-list';

const caller = { merchantId: 'm1', mode: 'live' as const };

describe('transaction list filters', () => {
  it('bounds days by the Venezuelan calendar (UTC-4), both ends inclusive, and always one merchant and mode', () => {
    const parsed = transactionFilter(caller, { desde: '2026-03-01', hasta: '2026-03-02', estado: 'LIQUIDADA', limite: '5' });
    expect(parsed).toEqual({
      filter: { merchantId: 'm1', mode: 'live', estado: 'LIQUIDADA', desde: '2026-03-01T04:00:00.000Z', hasta: '2026-03-03T04:00:00.000Z' },
      limit: 5,
    });
    expect(transactionFilter(caller, {})).toEqual({ filter: { merchantId: 'm1', mode: 'live' }, limit: 20 });
  });

  it('names the field of a bad query: hasta before desde, a cursor not given by the list', () => {
    expect(transactionFilter(caller, { desde: '2026-03-02', hasta: '2026-03-01' })).toEqual({ field: 'hasta', message: 'is before desde' });
    const bad = transactionFilter(caller, { cursor: 'bm90LWEtY3Vyc29y' });
    expect(isListProblem(bad) && bad.field).toBe('cursor');
    const cursor = Buffer.from(JSON.stringify(['2026-03-01T10:00:00.000Z', 'txn_1'])).toString('base64url');
    expect(transactionFilter(caller, { cursor })).toMatchObject({ after: { createdAt: '2026-03-01T10:00:00.000Z', id: 'txn_1' } });
  });
});
