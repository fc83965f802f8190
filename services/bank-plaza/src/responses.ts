import { field, FormatError, parseAmount } from '@switch/connector-kit/formats';
import type { BankOutcome } from '@switch/core/operation';
import type { Movimiento, CreditoRecibido } from '@switch/core/contracts/bancos';
import {
  bankCodeOf,
  credito,
  identificacionOf,
  phoneOf,
  bareHttpOrderOutcome,
  orderOutcome as kitOrderOutcome,
  readFailure as kitReadFailure,
  statusOutcome as kitStatusOutcome,
  unknownOutcome,
  type ReadFailure,
} from '@switch/connector-kit/connector';
import type { StatusQuery } from '@switch/connector-kit/bank-port';
import { classify, CODIGO_EXITO, type Classified } from './codes';
import type { PlazaAnswer } from './protocol';

/**
 * Banco Plaza's answers read back: what an order, a status query and a read learn from one answer
 * (the kit applies the money rules: an unlisted code or a bare HTTP error is unknown, never a
 * rejection), and the statement's body in our shapes.
 */

export { field };

type Response = Extract<PlazaAnswer, { kind: 'response' }>;

/** How a successful order answer reads, per operation. */
export type Success = (body: unknown) => {
  type: 'settled' | 'accepted';
  pending: boolean;
  referencia: string | null;
  endtoend: string | null;
};

function classified(answer: Response): Classified | null {
  return answer.result.codigo ? classify(answer.result.codigo, answer.result.descripcionSistema) : null;
}

/** What the bank's answer to an order means. Only a code the table knows to mean "not executed" rejects it. */
export function orderOutcome(answer: PlazaAnswer, success: Success): BankOutcome {
  if (answer.kind === 'not_sent') return { type: 'not_processed', raw: answer.raw };
  if (answer.kind === 'unknown') return unknownOutcome(answer.raw);
  const { status, raw, body } = answer;
  const c = classified(answer);
  if (!c) return bareHttpOrderOutcome(status, raw);
  const entry = c.entry;
  if (!entry) return unknownOutcome(raw);
  const bankRef = field(body, 'numeroReferencia', 'referencia', 'referencia_c');
  if (entry.meaning === 'settled' || entry.meaning === 'pending' || entry.meaning === 'accepted') {
    if (status >= 300) return unknownOutcome(raw);
    // An interbank status in the answer (ACCP, AC00) overrides the operation's usual success.
    const s = success(body);
    const interbank = c.code !== CODIGO_EXITO;
    const type = interbank ? (entry.meaning === 'settled' ? 'settled' : 'accepted') : s.type;
    if (type === 'settled') return { type, referencia: s.referencia, endtoend: s.endtoend, raw };
    return { type, pending: (interbank && entry.meaning === 'pending') || s.pending, referencia: s.referencia, endtoend: s.endtoend, raw };
  }
  return kitOrderOutcome(entry, raw, { referencia: bankRef });
}

/**
 * What a status answer says about the order. Only the bank's explicit "no such order" (0025, a 404)
 * is not_processed; an unlisted code, a refused or failed query is unknown (the state stays).
 */
export function statusOutcome(answer: PlazaAnswer, query: StatusQuery, kind: 'cce' | 'p2p' | 'c2p' | 'reverso'): BankOutcome {
  if (answer.kind !== 'response') return unknownOutcome(answer.raw);
  const { status, raw, body } = answer;
  const c = classified(answer);
  if (!c?.entry) return unknownOutcome(raw);
  const referencia = field(body, 'numeroReferencia', 'referencia', 'referencia_c') ?? query.referencia;
  const endtoend = field(body, 'endtoend') ?? query.endtoend;
  if (c.code === CODIGO_EXITO) {
    if (status >= 300) return unknownOutcome(raw);
    if (kind === 'reverso') {
      // The reversal is read off the C2P it reversed.
      return field(body, 'estado') === 'REVERSADA'
        ? { type: 'settled', referencia: query.referencia, endtoend: null, raw }
        : { type: 'not_processed', raw };
    }
    return { type: 'settled', referencia, endtoend, raw };
  }
  // The bank's "not found" travels as a 404 with its code (PROTOCOLS §2.3: 404 on consultaLiq).
  if (status === 404) return { type: 'not_processed', raw };
  return kitStatusOutcome(c.entry, raw, { referencia, endtoend });
}

/** A read that did not give figures, as the reason the caller sees; null when the answer is a success. */
export function readFailure(answer: PlazaAnswer): ReadFailure | null {
  if (answer.kind === 'not_sent') return { ok: false, motivo: 'BANCO_NO_DISPONIBLE', raw: answer.raw };
  if (answer.kind === 'unknown') return { ok: false, motivo: 'RECHAZO_TECNICO', raw: answer.raw };
  const c = classified(answer);
  if (!c) {
    if (answer.status < 300) return { ok: false, motivo: 'DESCONOCIDO', raw: answer.raw };
    if (answer.status === 404) return { ok: false, motivo: 'CUENTA_NO_EXISTE', raw: answer.raw };
    return kitReadFailure(undefined, answer.raw, answer.status);
  }
  if (c.code === CODIGO_EXITO && answer.status < 300) return null;
  return kitReadFailure(c.entry, answer.raw, answer.status);
}

/** The account's descriptive fields of a statement answer, without its (possibly long) movement list. */
export function accountData(body: unknown): Record<string, unknown> | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const { movimientos: _omitted, ...rest } = body as Record<string, unknown>;
  return rest;
}

const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const asString = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

/** Statement dates: `YYYYMMDD` (the bank's), `YYYY-MM-DD` or `dd/MM/yyyy` → `YYYY-MM-DD`. */
export function fechaFromPlaza(fecha: string): string {
  const s = fecha.trim();
  let m = /^([0-9]{4})([0-9]{2})([0-9]{2})$/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^([0-9]{2})\/([0-9]{2})\/([0-9]{4})$/.exec(s);
  if (m) return `${m[3]}-${m[2]}-${m[1]}`;
  throw new FormatError(`fecha "${fecha}" is not a date the bank uses`);
}

/** `YYYY-MM-DD` → `YYYYMMDD`. */
export function fechaToPlaza(fecha: string): string {
  return fechaFromPlaza(fecha).replace(/-/g, '');
}

/** Statement times: `HHMMSS` or `HH:MM:SS` → `HH:MM:SS`; anything else is unknown (null). */
export function horaFromPlaza(hora: unknown): string | null {
  if (typeof hora !== 'string' && typeof hora !== 'number') return null;
  const s = String(hora).trim();
  const m = /^([0-9]{2}):?([0-9]{2}):?([0-9]{2})$/.exec(s.padStart(6, '0'));
  return m ? `${m[1]}:${m[2]}:${m[3]}` : null;
}

/** A bank amount, as a JSON number or a string in either decimal style (`1234.56`, `1.234,56`). */
export function montoFromPlaza(value: unknown): number {
  const n = parseAmount(value);
  if (n === null) throw new FormatError(`monto "${String(value)}" is not an amount`);
  return n;
}

/** The bank's `naturaleza` (C/D, CR/DB, credito/debito) → ours; falls back on the amount's sign. */
export function naturalezaFromPlaza(naturaleza: unknown, monto: number): 'credito' | 'debito' {
  const n = typeof naturaleza === 'string' ? naturaleza.trim().toUpperCase() : '';
  if (n.startsWith('C') || n === 'H' || n === '+') return 'credito';
  if (n.startsWith('D') || n === '-') return 'debito';
  return monto < 0 ? 'debito' : 'credito';
}

export interface Statement {
  saldoDisponible: number | null;
  saldoContable: number | null;
  saldoBloqueado: number | null;
  movimientos: Movimiento[];
}

/** The movements body read into our shapes, oldest first (the bank's order is not documented). */
export function readStatement(body: unknown): Statement {
  const r = asRecord(body);
  const number = (v: unknown): number | null => {
    try {
      return v === undefined || v === null ? null : montoFromPlaza(v);
    } catch {
      return null;
    }
  };
  const list = Array.isArray(r.movimientos) ? r.movimientos : [];
  const movimientos = list.map((item): Movimiento => {
    const m = asRecord(item);
    const monto = montoFromPlaza(m.monto);
    return {
      fecha: fechaFromPlaza(String(m.fecha ?? '')),
      hora: horaFromPlaza(m.hora),
      referencia: asString(m.referencia) ?? '',
      concepto: asString(m.concepto) ?? asString(m.descripcion) ?? '',
      tipo: naturalezaFromPlaza(m.naturaleza ?? m.tipo, monto),
      monto: Math.abs(monto),
      saldo: number(m.saldo),
    };
  });
  const key = (m: Movimiento) => `${m.fecha} ${m.hora ?? '00:00:00'}`;
  const ordered = movimientos.map((m, i) => ({ m, i })).sort((a, b) => (key(a.m) < key(b.m) ? -1 : key(a.m) > key(b.m) ? 1 : a.i - b.i));
  return {
    saldoDisponible: number(r.saldoDisponible),
    saldoContable: number(r.saldoContable),
    saldoBloqueado: number(r.saldoBloqueado),
    movimientos: ordered.map((x) => x.m),
  };
}

/** The credits of an operations search (`POST /v0/cuentas/operaciones`), with the payer's bank, phone and id. */
export function readOperaciones(cuenta: string, body: unknown): CreditoRecibido[] {
  const r = asRecord(body);
  const list = Array.isArray(r.movimientos) ? r.movimientos : [];
  return list.map((item) => {
    const m = asRecord(item);
    const line = {
      referencia: asString(m.referencia) ?? '',
      fecha: fechaFromPlaza(String(m.fecha ?? '')),
      hora: horaFromPlaza(m.hora),
      monto: montoFromPlaza(m.monto),
      concepto: asString(m.concepto) ?? '',
    };
    return credito('banco_plaza', cuenta, line, {
      telefono: phoneOf(m.telefono),
      identificacion: identificacionOf(m.cedula),
      banco: bankCodeOf(m.banco),
    });
  });
}
