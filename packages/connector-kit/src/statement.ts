import type { BancoId } from '@switch/core/bancos';
import type { Movimiento, Movimientos, MovimientosQuery } from '@switch/core/contracts/bancos';
import type { ReadOutcome } from './bank-port';

/**
 * Statements are paged by the switch: the banks answer a whole date range at once. A cursor is an
 * opaque offset into the filtered, ordered statement of the same query.
 */
export function cursorOffset(cursor: string | undefined): number | null {
  if (cursor === undefined || cursor === '') return 0;
  const m = /^o:([0-9]{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return m ? Number(m[1]) : null;
}

const cursorAt = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');

/** The answer for a cursor the switch never gave: the gateway turns `raw.field` into a 400 naming it. */
export function invalidCursor(): Extract<ReadOutcome<never>, { ok: false }> {
  return { ok: false, motivo: 'DESCONOCIDO', raw: { field: 'cursor', descripcion: 'is not a cursor this statement gave' } };
}

/** One page of the movements between `desde` and `hasta`, with the cursor of the next page. */
export function statementPage(
  banco: BancoId,
  query: MovimientosQuery,
  hasta: string,
  offset: number,
  movements: readonly Movimiento[],
): Movimientos {
  const all = movements.filter((m) => m.fecha >= query.desde && m.fecha <= hasta);
  const limite = query.limite ?? 100;
  return {
    cuenta: query.cuenta,
    banco,
    moneda: 'VES',
    desde: query.desde,
    hasta,
    movimientos: all.slice(offset, offset + limite),
    siguiente: offset + limite < all.length ? cursorAt(offset + limite) : null,
  };
}
