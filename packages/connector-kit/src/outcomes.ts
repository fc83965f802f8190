import type { BankOutcome } from '@switch/core/operation';
import type { MotivoRechazo } from '@switch/core/estados';

/**
 * The one vocabulary for what a bank's answer means (STYLE "The seams that keep money safe"), and
 * the one shape of a bank's code table. Every connector maps its codes onto `Meaning`; the kit turns
 * a meaning into the switch's `BankOutcome` (domain/operation.ts) with the money rules applied once:
 *
 * - only an answer *known* to mean "not executed" is a rejection (`rejected`) or `not_processed`;
 * - a code a table does not list, a bare HTTP error, a cut or unreadable answer is `unknown`: the
 *   order becomes DESCONOCIDA and a status query settles it (DESIGN rule 3);
 * - in a status query a refusal of the *query* (auth, throttling, a failure of the bank) says
 *   nothing about the order: `unknown`, never a rejection of an order that may have moved money.
 */
export type Meaning =
  /** The money moved (ISO ACCP, a synchronous pago móvil/C2P success). */
  | 'settled'
  /** Taken by the bank, its final state comes later (an OTP sent, an order sent to the CCE). */
  | 'accepted'
  /** Waiting for the receiving bank (ISO AC00). */
  | 'pending'
  /** The bank refused the order: it did not run. Final, with `motivo`. */
  | 'rejected'
  /** The bank says explicitly it did not take the order: a payout may go to another bank. In a status answer: the bank has no such order. */
  | 'not_processed'
  /** The bank itself cannot say whether it ran. */
  | 'unknown';

/** Where a table entry comes from: a published bank document, public integrations, or our assumption. */
export type CodeSource = 'published' | 'observed' | 'assumed';

export interface CodeEntry {
  meaning: Meaning;
  /** `motivo_rechazo` when the meaning is `rejected` (else what a read reports). */
  motivo: MotivoRechazo | null;
  descripcion: string;
  source: CodeSource;
  /** What the code means in a status answer when it differs from an order's (e.g. "no such order"). */
  inStatus?: Meaning;
}

/** One bank's codes: code → meaning → motivo, with its source. Data only. */
export type CodeTable = Readonly<Record<string, CodeEntry>>;

export function code(
  meaning: Meaning,
  motivo: MotivoRechazo | null,
  descripcion: string,
  source: CodeSource,
  inStatus?: Meaning,
): CodeEntry {
  return inStatus ? { meaning, motivo, descripcion, source, inStatus } : { meaning, motivo, descripcion, source };
}
export const rejects = (motivo: MotivoRechazo, descripcion: string, source: CodeSource): CodeEntry =>
  code('rejected', motivo, descripcion, source);
/** Credentials, signature or nonce refused: FIRMA_AUTH, never rerouted; in a status answer it says nothing of the order. */
export const authRefusal = (descripcion: string, source: CodeSource): CodeEntry =>
  code('rejected', 'FIRMA_AUTH', descripcion, source, 'unknown');
export const notProcessed = (descripcion: string, source: CodeSource, inStatus: Meaning = 'unknown'): CodeEntry =>
  code('not_processed', 'BANCO_NO_DISPONIBLE', descripcion, source, inStatus);
export const undetermined = (descripcion: string, source: CodeSource): CodeEntry => code('unknown', null, descripcion, source);
/** "No such order": in a status answer the order never ran; on an order it proves nothing. */
export const notFound = (descripcion: string, source: CodeSource): CodeEntry =>
  code('unknown', 'DESCONOCIDO', descripcion, source, 'not_processed');

/** Looks a code up; `undefined` when the table does not list it (an unknown code is never a rejection). */
export function lookup(table: CodeTable, codigo: string | number | null | undefined): CodeEntry | undefined {
  if (codigo === null || codigo === undefined) return undefined;
  const key = String(codigo).trim();
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * ISO 20022 statuses and reasons of the Venezuelan CCE (PROTOCOLS §5.2: BNC's published list,
 * identical for Débito and Crédito Inmediato). Shared by every bank that passes them through.
 */
export const ISO20022_CODES: CodeTable = {
  ACCP: code('settled', null, 'Aceptada y liquidada', 'published'),
  AC00: code('pending', null, 'En espera del receptor', 'published'),
  AB01: undetermined('Tiempo de espera agotado (120 s)', 'published'),
  AB07: rejects('BANCO_NO_DISPONIBLE', 'Agente fuera de linea', 'published'),
  AC01: rejects('CUENTA_NO_EXISTE', 'Numero de cuenta incorrecto', 'published'),
  AC04: rejects('CUENTA_NO_EXISTE', 'Cuenta cancelada', 'published'),
  AC06: rejects('CUENTA_BLOQUEADA', 'Cuenta bloqueada', 'published'),
  AC09: rejects('MONTO_INVALIDO', 'Moneda invalida', 'published'),
  AG09: rejects('RECHAZO_TECNICO', 'Pago no recibido', 'published'),
  AG10: rejects('BANCO_NO_DISPONIBLE', 'Agente suspendido o excluido', 'published'),
  AM02: rejects('EXCEDE_LIMITE', 'Monto no permitido por el acuerdo', 'published'),
  AM03: rejects('MONTO_INVALIDO', 'Moneda no permitida', 'published'),
  AM04: rejects('SALDO_INSUFICIENTE', 'Fondos insuficientes', 'published'),
  AM05: rejects('DUPLICADA', 'Operacion duplicada', 'published'),
  BE01: rejects('BENEFICIARIO_NO_COINCIDE', 'Datos del cliente no corresponden a la cuenta', 'published'),
  BE20: rejects('RECHAZO_TECNICO', 'Nombre demasiado largo', 'published'),
  CUST: rejects('CANCELADA_POR_PAGADOR', 'Cancelada por el deudor', 'published'),
  CH20: rejects('MONTO_INVALIDO', 'Demasiados decimales', 'published'),
  DT03: rejects('FUERA_DE_HORARIO', 'Fecha de procesamiento no bancaria', 'published'),
  DU01: rejects('DUPLICADA', 'Identificador de mensaje duplicado', 'published'),
  FF05: rejects('RECHAZO_TECNICO', 'Codigo de producto incorrecto', 'published'),
  FF07: rejects('RECHAZO_TECNICO', 'Codigo de subproducto incorrecto', 'published'),
  RC08: rejects('CUENTA_NO_EXISTE', 'Banco no pertenece al sistema de compensacion', 'published'),
  RJCT: rejects('DESCONOCIDO', 'Rechazada (generico)', 'published'),
  TKCM: rejects('OTP_INVALIDO', 'Token de aceptacion de debito incorrecto', 'published'),
  VE01: rejects('RECHAZO_TECNICO', 'Rechazo tecnico CCE/SIMF', 'published'),
  VE02: rejects('RECHAZO_TECNICO', 'Error de persistencia', 'published'),
  MD15: rejects('DESCONOCIDO', 'Rechazo definitivo (sin descripcion publica)', 'observed'),
};

/** The references an outcome carries when the bank gave them. */
export interface Refs {
  referencia?: string | null;
  endtoend?: string | null;
}

export type Raw = Record<string, unknown>;

export const unknownOutcome = (raw: Raw): BankOutcome => ({ type: 'unknown', raw });
export const rejectedOutcome = (motivo: MotivoRechazo, raw: Raw, referencia: string | null = null): BankOutcome => ({
  type: 'rejected',
  motivo,
  referencia,
  raw,
});
/** Refused here, before anything was sent (a capability the bank lacks). */
export const unsupported = (descripcion: string): BankOutcome =>
  rejectedOutcome('NO_SOPORTADO', { switch: true, codigo: 'NO_SOPORTADO', descripcion });

/** A meaning as the switch's outcome. `pending` is an accepted order waiting for the receiver. */
export function outcomeOf(meaning: Meaning, motivo: MotivoRechazo | null, raw: Raw, refs: Refs = {}): BankOutcome {
  const referencia = refs.referencia ?? null;
  const endtoend = refs.endtoend ?? null;
  switch (meaning) {
    case 'settled':
      return { type: 'settled', referencia, endtoend, raw };
    case 'accepted':
      return { type: 'accepted', pending: false, referencia, endtoend, raw };
    case 'pending':
      return { type: 'accepted', pending: true, referencia, endtoend, raw };
    case 'rejected':
      return { type: 'rejected', motivo: motivo ?? 'DESCONOCIDO', referencia, raw };
    case 'not_processed':
      return { type: 'not_processed', raw };
    case 'unknown':
      return { type: 'unknown', raw };
  }
}

/**
 * The one rule for answers to orders (money first): only an answer *known* to mean "not executed"
 * ends an order (`rejected`, or `not_processed` for a reroute). What the kit reads as not known:
 * - a code the table does not list;
 * - a "no such record" code: one whose meaning in a status answer is "the bank has no such order"
 *   (`inStatus: 'not_processed'`, the kit's `notFound`). Said of a status query it settles the
 *   order; said of an order (a reversal whose original the bank does not find, a debit answered
 *   "registro no encontrado") it does not say the order did not run, so it is `unknown`: DESCONOCIDA,
 *   then a status query, never a final RECHAZADA and never a reroute.
 * Every bank's order answers go through here, so a table entry cannot bend the rule.
 */
export function orderMeaning(entry: CodeEntry | undefined): Meaning {
  if (!entry) return 'unknown';
  if (entry.inStatus === 'not_processed' && entry.meaning !== 'settled' && entry.meaning !== 'accepted' && entry.meaning !== 'pending')
    return 'unknown';
  return entry.meaning;
}

/**
 * Entries of a table that contradict the rule above (a "no such record" code claiming on an order
 * that it did not run): none in a consistent table; each bank's codes test asserts it.
 */
export function orderRuleConflicts(table: CodeTable): string[] {
  return Object.entries(table)
    .filter(([, entry]) => entry.inStatus === 'not_processed' && (entry.meaning === 'rejected' || entry.meaning === 'not_processed'))
    .map(([codigo]) => codigo);
}

/**
 * What an order learns from a coded answer (`orderMeaning`). An unlisted code is unknown; a server
 * error proves something only through a code the table knows.
 */
export function orderOutcome(entry: CodeEntry | undefined, raw: Raw, refs: Refs = {}): BankOutcome {
  return outcomeOf(orderMeaning(entry), entry?.motivo ?? null, raw, refs);
}

/**
 * What a status query learns from a coded answer: unlisted → unknown; the query's own refusal
 * (auth, "not processed") → unknown unless the table says otherwise (`inStatus`).
 */
export function statusOutcome(entry: CodeEntry | undefined, raw: Raw, refs: Refs = {}): BankOutcome {
  if (!entry) return unknownOutcome(raw);
  const meaning = entry.inStatus ?? (entry.meaning === 'not_processed' ? 'unknown' : entry.meaning);
  if (meaning === 'rejected' && entry.motivo === 'FIRMA_AUTH') return unknownOutcome(raw);
  return outcomeOf(meaning, entry.motivo, raw, refs);
}

/**
 * An HTTP answer that carries no code the bank's table knows. Only a refusal of our credentials
 * proves the order did not run (FIRMA_AUTH, never rerouted); any other status — 400, 404, 408, 429,
 * 5xx, or a 2xx we cannot read — may have reached the bank: unknown.
 */
export function bareHttpOrderOutcome(status: number, raw: Raw): BankOutcome {
  if (status === 401 || status === 403) return rejectedOutcome('FIRMA_AUTH', { ...raw, codigo: raw.codigo ?? `HTTP${status}` });
  return unknownOutcome(raw);
}

/** A read (saldo, movimientos) that did not give figures: the reason the caller sees. */
export type ReadFailure = { ok: false; motivo: MotivoRechazo; raw: Raw };

/** What a failed read reports, from the meaning of its answer (reads move no money: no unknown state). */
export function readFailure(entry: CodeEntry | undefined, raw: Raw, httpStatus = 200): ReadFailure {
  if (!entry) {
    if (httpStatus === 401 || httpStatus === 403) return { ok: false, motivo: 'FIRMA_AUTH', raw };
    return { ok: false, motivo: httpStatus >= 500 ? 'BANCO_NO_DISPONIBLE' : 'DESCONOCIDO', raw };
  }
  if (entry.meaning === 'not_processed') return { ok: false, motivo: 'BANCO_NO_DISPONIBLE', raw };
  if (entry.inStatus === 'not_processed') return { ok: false, motivo: 'CUENTA_NO_EXISTE', raw };
  if (entry.meaning === 'rejected') return { ok: false, motivo: entry.motivo ?? 'DESCONOCIDO', raw };
  return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
}
