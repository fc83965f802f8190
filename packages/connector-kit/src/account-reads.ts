import type { BancoId, Movimiento, Movimientos, MovimientosQuery, CreditoRecibido, Pagador } from '@switch/core/contracts/bancos';
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

/**
 * The incoming side of a statement: every bank's connector reads the credits of one account on one
 * day (Caracas time) with its own statement call and normalises the payer's details with these.
 */

/** A payer's phone in the switch's form (`04121234567`) from `58412…`, `412…` or `0412…`; null when it is none of them. */
export function phoneOf(raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const digits = String(raw).replace(/\D/g, '');
  if (/^58[0-9]{10}$/.test(digits)) return `0${digits.slice(2)}`;
  if (/^[0-9]{10}$/.test(digits) && digits[0] !== '0') return `0${digits}`;
  if (/^0[0-9]{10}$/.test(digits)) return digits;
  return null;
}

/** An identity document in the switch's form (`V12345678`): padding zeros and separators dropped. */
export function identificacionOf(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const m = /^([VEJGP])[-\s]?0*([0-9]{1,9})[-\s]?([0-9])?$/i.exec(raw.trim());
  if (!m) return null;
  // A RIF's check digit (`J-08006622-7`) belongs to the number the person gives.
  const number = m[3] ? `${m[2]}${m[3]}` : m[2]!;
  return number.length <= 9 ? `${m[1]!.toUpperCase()}${number}` : null;
}

/** A bank's 4-digit code from `102`, `0102` or `"0102"`. */
export function bankCodeOf(raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const digits = String(raw).replace(/\D/g, '');
  return digits.length >= 1 && digits.length <= 4 ? digits.padStart(4, '0') : null;
}

export const noPayer: Pagador = { telefono: null, identificacion: null, banco: null };

/** The credits of `fecha` among a bank's normalised lines, oldest first (stable for equal times). */
export function creditsOfDay(fecha: string, lines: readonly CreditoRecibido[]): CreditoRecibido[] {
  return lines
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => line.fecha === fecha && line.monto > 0)
    .sort((a, b) => (a.line.hora ?? '').localeCompare(b.line.hora ?? '') || a.i - b.i)
    .map(({ line }) => line);
}

/** A credit line in the switch's shape. */
export function credito(
  banco: BancoId,
  cuenta: string,
  line: { referencia: string; fecha: string; hora: string | null; monto: number; concepto?: string | null },
  pagador: Partial<Pagador> = {},
): CreditoRecibido {
  return {
    banco,
    cuenta,
    referencia: line.referencia,
    fecha: line.fecha,
    hora: line.hora,
    monto: Math.round(Math.abs(line.monto) * 100) / 100,
    concepto: line.concepto ?? '',
    pagador: { ...noPayer, ...pagador },
  };
}
