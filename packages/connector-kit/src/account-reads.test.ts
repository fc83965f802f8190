import { describe, expect, it } from 'vitest';
import { cursorOffset, invalidCursor, statementPage } from './account-reads';
import type { Movimiento } from '@switch/core/contracts/bancos';

const mov = (fecha: string, referencia: string): Movimiento => ({
  fecha,
  hora: null,
  referencia,
  concepto: 'x',
  tipo: 'credito',
  monto: 1,
  saldo: null,
});

describe('statement paging', () => {
  const all = [mov('2026-11-01', 'a'), mov('2026-11-02', 'b'), mov('2026-11-03', 'c'), mov('2026-11-09', 'out')];
  it('pages the movements in the window with an opaque cursor until null', () => {
    const query = { cuenta: '0'.repeat(20), desde: '2026-11-01', limite: 2 };
    const first = statementPage('bnc', query, '2026-11-05', 0, all);
    expect(first.movimientos.map((m) => m.referencia)).toEqual(['a', 'b']);
    expect(first.siguiente).not.toBeNull();
    const second = statementPage('bnc', query, '2026-11-05', cursorOffset(first.siguiente!)!, all);
    expect(second.movimientos.map((m) => m.referencia)).toEqual(['c']);
    expect(second.siguiente).toBeNull();
    expect(second).toMatchObject({ banco: 'bnc', moneda: 'VES', desde: '2026-11-01', hasta: '2026-11-05' });
  });
  it('refuses a cursor it never gave, naming the field', () => {
    expect(cursorOffset(undefined)).toBe(0);
    expect(cursorOffset('garbage')).toBeNull();
    expect(invalidCursor().raw.field).toBe('cursor');
  });
});
