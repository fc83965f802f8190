import { describe, expect, it } from 'vitest';
import { newTransaction, type Transaction } from './operation';
import { asOneWrite, dispatch, resolveAttempt, transition } from './transaction-core';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:01.000Z';
const cuenta = { tipo: 'cuenta' as const, valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'A' };
const telefono = { tipo: 'telefono' as const, valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'B' };

/** A payout the bank accepted (two history entries: ACEPTADA, PENDIENTE), its order resolved. */
function pending(i = 0): Transaction {
  const fresh = newTransaction({
    id: `txn_edits_${i}`,
    merchantId: 'm',
    mode: 'test',
    idempotencyKey: 'k',
    fingerprint: 'f',
    request: {
      kind: 'pagar',
      body: {
        idempotency_key: 'k',
        monto: { valor: 10, moneda: 'VES' },
        concepto: 'x',
        ordenante: cuenta,
        beneficiario: telefono,
        via: 'pago_movil',
      },
    },
    relatedId: null,
    now: T0,
  });
  const answered = resolveAttempt(dispatch(fresh, 'bnc', 'pago_movil', T0), 1, 'accepted', T0);
  return transition(transition(answered, 'ACEPTADA', 'bank_outcome', {}, T0), 'PENDIENTE', 'status_query', {}, T0);
}

describe('transaction edits are values', () => {
  it('a new version keeps what it does not change and leaves its input as it was', () => {
    const tx = dispatch(pending(), 'banco_plaza', 'pago_movil', T1);
    const snapshot = structuredClone(tx);
    const next = resolveAttempt(tx, 2, 'settled', T1);
    expect(tx).toEqual(snapshot);
    expect(next.version).toBe(tx.version + 1);
    expect(next.request).toBe(tx.request);
    expect(next.history[1]).toBe(tx.history[1]);
    expect(next.attempts[0]).toBe(tx.attempts[0]);
    // The attempt it resolved is a new entry; the one in `tx` still has no outcome.
    expect(next.attempts[1]).toEqual({ ...tx.attempts[1], outcome: 'settled', resolvedAt: T1 });
    expect(tx.attempts[1]!.outcome).toBeUndefined();
  });

  it('several edits as one write renumber copies of their own entries and leave every input as it was', () => {
    const before = pending();
    const resolved = resolveAttempt(dispatch(before, 'banco_plaza', 'pago_movil', T1), 2, 'settled', T1);
    const settled = transition(resolved, 'LIQUIDADA', 'status_query', { referencia: 'R1', raw: { ok: true } }, T1);
    const snapshot = structuredClone(settled);
    const one = asOneWrite(before, settled);
    expect(one.version).toBe(before.version + 1);
    expect(one.history.at(-1)!.version).toBe(one.version);
    expect(one.attempts.at(-1)!.dispatchVersion).toBe(one.version);
    expect(settled, 'the edits it merged are inputs too').toEqual(snapshot);
    expect(one.history).toHaveLength(3);
    expect(one.history[0]).toBe(before.history[0]);
    expect(one.history[1]).toBe(before.history[1]);
    expect(one.attempts[0]).toBe(before.attempts[0]);
  });
});
