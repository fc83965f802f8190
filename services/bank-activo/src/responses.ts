import { bareHttpOrderOutcome, lookup, orderOutcome as kitOrderOutcome, readFailure } from '@switch/connector-kit/connector';
import type { BankHttpResult } from '@switch/connector-kit/send';
import type { BankOutcome } from '@switch/core/operation';
import type { MotivoRechazo } from '@switch/core/estados';
import type { Movimiento } from '@switch/core/contracts/bancos';
import type { ReadOutcome } from '@switch/connector-kit/bank-port';
import { ACTIVO_CODES, meaningOf, wso2Key } from './codes';
import { CODE_OK, readAnswer, type ActivoAnswer } from './protocol';
import { fechaIso, parseMontoActivo } from './requests';

/**
 * Banco Activo's answers read back: from one HTTP result (the kit's guarded send) to the switch's outcome. The money rules live here: only a proof that the
 * order never ran is `not_processed`; a 5xx, a cut answer or an unreadable one is `unknown`; the
 * bank's untouched answer is always kept in `raw`.
 */

export type Raw = Record<string, unknown>;
type Answer = Extract<ActivoAnswer, { kind: 'answer' }>;

/** The bank's answer as kept in `raw`: HTTP status, the bank's code and description, the body. */
export function rawOf(answer: ActivoAnswer): Raw {
  switch (answer.kind) {
    case 'fault':
      return { http_status: answer.status, codigo: answer.fault.code, descripcion: answer.fault.message, body: answer.body };
    case 'answer':
      return {
        http_status: answer.status,
        codigo: answer.code,
        descripcion: answer.descripcion,
        ...(typeof answer.body.motivo === 'string' ? { motivo: answer.body.motivo } : {}),
        body: answer.body,
      };
    case 'unreadable':
      return { http_status: answer.status, codigo: null, descripcion: 'respuesta ilegible', body: answer.body };
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
export const nroReferencia = (a: Answer): string | null => str(a.body.nroReferencia);
export const endtoendOf = (a: Answer): string | null => str(a.body.endtoend);

const gatewayEntry = (faultCode: string) => lookup(ACTIVO_CODES, wso2Key(faultCode));

/** A money order's answer; `onOk` reads a `code: "200"` answer. */
export function orderOutcome(result: BankHttpResult, onOk: (answer: Answer, raw: Raw) => BankOutcome): BankOutcome {
  if (result.kind === 'not_sent') return { type: 'not_processed', raw: { reason: result.reason } };
  if (result.kind === 'unknown') return { type: 'unknown', raw: { reason: result.reason } };
  const answer = readAnswer(result.status, result.body);
  const raw = rawOf(answer);
  switch (answer.kind) {
    case 'unreadable':
      return { type: 'unknown', raw };
    case 'fault': {
      const entry = gatewayEntry(answer.fault.code);
      if (entry) return kitOrderOutcome(entry, raw);
      // An unlisted gateway fault: only a refusal of our credentials proves nothing ran.
      return bareHttpOrderOutcome(answer.status, raw);
    }
    case 'answer': {
      if (answer.code === CODE_OK) return answer.status < 300 ? onOk(answer, raw) : { type: 'unknown', raw };
      const { entry } = meaningOf(answer.code, str(answer.body.motivo) ?? undefined);
      // A server error proves something only through an explicit "not processed".
      if (answer.status >= 500 && entry?.meaning !== 'not_processed') return { type: 'unknown', raw };
      return kitOrderOutcome(entry, raw, { referencia: nroReferencia(answer) });
    }
  }
}

/** ISO 20022 state of a débito/crédito inmediato: ACCP settled, AC00 pending, RJCT rejected. */
export function estatusOutcome(answer: Answer, raw: Raw, pendingIsAccepted = true): BankOutcome {
  const referencia = nroReferencia(answer);
  const endtoend = endtoendOf(answer);
  switch (answer.body.estatus) {
    case 'ACCP':
      return { type: 'settled', referencia, endtoend, raw };
    case 'AC00':
      return { type: 'accepted', pending: pendingIsAccepted, referencia, endtoend, raw };
    case 'RJCT': {
      const reason = str(answer.body.motivo) ?? str(answer.body.codigoRechazo);
      // RJCT is a rejection; a reason the table does not know (or that is no rejection reason) leaves
      // it a rejection without motivo. AB01 (the CCE timed out) is unknown.
      const given = reason ? lookup(ACTIVO_CODES, reason) : undefined;
      const entry = given && (given.meaning === 'rejected' || given.meaning === 'unknown') ? given : lookup(ACTIVO_CODES, 'RJCT');
      return entry?.meaning === 'unknown'
        ? { type: 'unknown', raw }
        : { type: 'rejected', motivo: entry?.motivo ?? 'DESCONOCIDO', referencia, raw };
    }
    default:
      return { type: 'unknown', raw };
  }
}

/**
 * A status query's answer. Only a statement about the order moves it: its estatus, or "no such
 * order" (`not_processed`). Anything else (auth fault, 5xx, unreachable) says nothing about the order,
 * so it is `unknown`: a FIRMA_AUTH on the query must never turn a settled order into a rejected one.
 */
export function statusOutcome(result: BankHttpResult, onEstatus: (answer: Answer, raw: Raw) => BankOutcome): BankOutcome {
  if (result.kind !== 'response') return { type: 'unknown', raw: { reason: result.reason } };
  const answer = readAnswer(result.status, result.body);
  const raw = rawOf(answer);
  if (answer.kind !== 'answer') {
    const entry = answer.kind === 'fault' ? gatewayEntry(answer.fault.code) : undefined;
    return { type: 'unknown', raw: entry ? { ...raw, motivo_switch: entry.motivo ?? 'DESCONOCIDO' } : raw };
  }
  if (answer.code === CODE_OK && answer.status < 300) return onEstatus(answer, raw);
  const { entry } = meaningOf(answer.code);
  // The bank's explicit "no such order" (the kit's `notFound`: not processed in a status answer).
  if (entry?.inStatus === 'not_processed' && answer.status < 500) return { type: 'not_processed', raw };
  return { type: 'unknown', raw: { ...raw, motivo_switch: entry?.motivo ?? 'DESCONOCIDO' } };
}

/** A read (saldo, movimientos): no money moves, so any failure is just a motivo. */
export function readOutcome<T>(result: BankHttpResult, onOk: (answer: Answer, raw: Raw) => ReadOutcome<T>): ReadOutcome<T> {
  const fail = (motivo: MotivoRechazo, raw: Raw): ReadOutcome<T> => ({ ok: false, motivo, raw });
  if (result.kind !== 'response') return fail('BANCO_NO_DISPONIBLE', { reason: result.reason });
  const answer = readAnswer(result.status, result.body);
  const raw = rawOf(answer);
  switch (answer.kind) {
    case 'unreadable':
      return fail(answer.status >= 500 ? 'BANCO_NO_DISPONIBLE' : 'RECHAZO_TECNICO', raw);
    case 'fault': {
      const entry = gatewayEntry(answer.fault.code);
      if (entry?.meaning === 'rejected') return readFailure(entry, raw, answer.status);
      if (entry) return fail('BANCO_NO_DISPONIBLE', raw);
      return fail(answer.status >= 500 ? 'BANCO_NO_DISPONIBLE' : 'RECHAZO_TECNICO', raw);
    }
    case 'answer': {
      if (answer.code === CODE_OK && answer.status < 300) return onOk(answer, raw);
      if (answer.status >= 500) return fail('BANCO_NO_DISPONIBLE', raw);
      const { entry } = meaningOf(answer.code);
      // The kit's reading of a known refusal (motivo, or CUENTA_NO_EXISTE for "no such record"); an
      // unlisted or undetermined code leaves the bank unavailable for this read.
      if (entry && (entry.meaning === 'rejected' || entry.inStatus === 'not_processed')) return readFailure(entry, raw, answer.status);
      return fail('BANCO_NO_DISPONIBLE', raw);
    }
  }
}

/** A statement line in our shape; null when the bank's line cannot be read. */
export function movimientoOf(raw: unknown): Movimiento | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Raw;
  const fecha = fechaIso(m.fecha);
  const monto = parseMontoActivo(m.monto);
  const tipo = m.tipo === 'D' ? 'debito' : m.tipo === 'C' ? 'credito' : null;
  if (fecha === null || monto === null || tipo === null) return null;
  const saldo = m.saldo === undefined ? null : parseMontoActivo(m.saldo);
  return {
    fecha,
    hora: typeof m.hora === 'string' && /^[0-9]{2}:[0-9]{2}:[0-9]{2}$/.test(m.hora) ? m.hora : null,
    referencia: String(m.referencia ?? ''),
    concepto: String(m.concepto ?? ''),
    tipo,
    monto: Math.abs(monto),
    saldo,
  };
}

export const round2 = (n: number): number => Math.round(n * 100) / 100;
