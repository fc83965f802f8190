import { bareHttpOrderOutcome, unsupported } from '@switch/connector-kit/connector';
import type { BankOutcome } from '@switch/core/operation';
import type { MotivoRechazo } from '@switch/core/estados';
import type { Movimiento } from '@switch/core/contracts/bancos';
import { answerRaw, type BncAnswer, type BncCall } from './protocol';
import { fechaDesdeBnc, FormatError } from './requests';
import { classify, extractCode, type CodeFamily } from './codes';

/**
 * BNC's answers read back: how a BNC call becomes the switch's outcome. Three readers, because the same answer means
 * different things to an order, to a status query and to a read:
 * - an order learns whether it ran (only a provable "did not run" is not_processed);
 * - a status query learns the order's state; a failed query teaches nothing (unknown), never a
 *   rejection of an order that may have moved money;
 * - a read only succeeds or fails with a motivo.
 */

/** The answer of an order that BNC accepted (status OK, value opened) → the order's outcome; `raw` is what to keep. */
export type OnAccepted = (answer: BncAnswer, raw: Record<string, unknown>) => BankOutcome;

export function orderOutcome(call: BncCall, family: CodeFamily, onAccepted: OnAccepted): BankOutcome {
  switch (call.kind) {
    case 'not_sent':
      return { type: 'not_processed', raw: call.raw };
    case 'unknown':
      return { type: 'unknown', raw: call.raw };
    case 'auth':
      return rejected('FIRMA_AUTH', {
        ...call.raw,
        codigo: call.raw.codigo ?? 'AUTH',
        descripcion: call.raw.descripcion ?? 'credenciales rechazadas por BNC',
      });
    case 'http_error':
      return httpErrorOutcome(call.httpStatus, call.raw);
    case 'answer':
      break;
  }
  const a = call.answer;
  const raw = { ...answerRaw(a), ...(call.relogon ? { relogon: true } : {}) };
  if (a.status === 'OK') {
    // It ran, but an answer we cannot open may be tampered or garbled: let a status query say.
    if (a.valueProblem) return { type: 'unknown', raw };
    return onAccepted(a, raw);
  }
  const c = classify(a.code, family, 'order');
  // A 5xx only proves something through a code the table knows.
  if (a.httpStatus >= 500 && !c.known) return { type: 'unknown', raw };
  return byDisposition(c.disposition, c.motivo, raw, 'order');
}

/** A response that is not BNC's envelope: the status line is all there is to go on. */
function httpErrorOutcome(status: number, raw: Record<string, unknown>): BankOutcome {
  const withCode = { ...raw, codigo: `HTTP${status}`, descripcion: `respuesta HTTP ${status} sin sobre BNC` };
  // Credentials refused at the door: FIRMA_AUTH. Any other bare status (404, 408, 429, 5xx, a 2xx we
  // cannot read) may come after the order reached the bank: unknown, settled by a status query.
  return bareHttpOrderOutcome(status, withCode);
}

function byDisposition(
  disposition: ReturnType<typeof classify>['disposition'],
  motivo: MotivoRechazo,
  raw: Record<string, unknown>,
  context: 'order' | 'status',
): BankOutcome {
  switch (disposition) {
    case 'reject':
      return rejected(motivo, raw);
    case 'not_processed':
      // In a status answer the CCE's "agent offline" is the order's final fate, not a reroute.
      return context === 'order' ? { type: 'not_processed', raw } : rejected(motivo, raw);
    case 'refresh_key':
      return rejected('FIRMA_AUTH', raw);
    case 'unknown':
    case 'success':
    case 'pending':
      // A KO carrying a success code is not something to act on.
      return { type: 'unknown', raw };
  }
}

const rejected = (motivo: MotivoRechazo, raw: Record<string, unknown>): BankOutcome => ({
  type: 'rejected',
  motivo,
  referencia: null,
  raw,
});

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null);

/**
 * A SIMF order's immediate answer (DebitBeginner / CreditBeginner): the value may carry the ISO
 * `Status` and `Code` (RJCT with a reason, AC00 waiting for the receiver). Accepted means "sent to
 * the central bank"; settlement comes through GetStatusTrans.
 */
export function simfExecuted(a: BncAnswer, raw: Record<string, unknown>): BankOutcome {
  const v = (a.value ?? {}) as Record<string, unknown>;
  const status = str(v.Status)?.toUpperCase() ?? null;
  const referencia = str(v.Reference);
  const endtoend = str(v.EndToEndId);
  const reasonCode = str(v.Code)?.toUpperCase() ?? null;
  if (status === 'RJCT') {
    const c = rjctReason(reasonCode && reasonCode !== 'RJCT' ? reasonCode : extractCode(str(v.RejectDescription)));
    const withCode = { ...raw, codigo: c.code, descripcion: str(v.RejectDescription) ?? c.descripcion };
    const outcome = byDisposition(c.disposition, c.motivo, withCode, 'order');
    return outcome.type === 'rejected' ? { ...outcome, referencia } : outcome;
  }
  return { type: 'accepted', pending: status !== 'ACCP', referencia, endtoend, raw };
}

/** GetStatusTrans → the order's state: ACCP settled, AC00 pending, RJCT with its reason; SMF001 no such order. */
export function simfStatus(call: BncCall): BankOutcome {
  if (call.kind !== 'answer') return { type: 'unknown', raw: call.raw };
  const a = call.answer;
  const raw = answerRaw(a);
  if (a.status !== 'OK') return a.code === 'SMF001' ? { type: 'not_processed', raw } : { type: 'unknown', raw };
  if (a.valueProblem) return { type: 'unknown', raw };
  const v = (a.value ?? {}) as Record<string, unknown>;
  const txSts = str(v.TxSts)?.toUpperCase() ?? null;
  const referencia = str(v.Reference);
  const endtoend = str(v.EndToEndId);
  switch (txSts) {
    case 'ACCP':
      // The CCE's final positive status (PROTOCOLS §5.2: ACCP → LIQUIDADA).
      return { type: 'settled', referencia, endtoend, raw };
    case 'AC00':
      return { type: 'accepted', pending: true, referencia, endtoend, raw };
    case 'RJCT': {
      const description = str(v.RsnDescription);
      const c = rjctReason(str(v.RsnCode)?.toUpperCase() ?? extractCode(description));
      const withCode = { ...raw, codigo: c.code, descripcion: description ?? c.descripcion };
      const outcome = byDisposition(c.disposition, c.motivo, withCode, 'status');
      return outcome.type === 'rejected' ? { ...outcome, referencia } : outcome;
    }
    default:
      return { type: 'unknown', raw };
  }
}

/** Why a read failed, as a motivo. */
export function readFailure(call: BncCall): { ok: false; motivo: MotivoRechazo; raw: Record<string, unknown> } {
  switch (call.kind) {
    case 'not_sent':
    case 'unknown':
      return { ok: false, motivo: 'BANCO_NO_DISPONIBLE', raw: call.raw };
    case 'auth':
      return { ok: false, motivo: 'FIRMA_AUTH', raw: call.raw };
    case 'http_error':
      return { ok: false, motivo: [401, 403, 404].includes(call.httpStatus) ? 'FIRMA_AUTH' : 'BANCO_NO_DISPONIBLE', raw: call.raw };
    case 'answer': {
      const raw = answerRaw(call.answer);
      if (call.answer.status === 'OK') return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
      const c = classify(call.answer.code, 'query');
      const motivo = c.disposition === 'not_processed' ? 'BANCO_NO_DISPONIBLE' : c.disposition === 'unknown' ? 'RECHAZO_TECNICO' : c.motivo;
      return { ok: false, motivo, raw };
    }
  }
}

export { str as stringField };

/** The reason of an explicit RJCT: a reason the table does not know leaves it a rejection (RJCT's own meaning). */
function rjctReason(code: string | null): ReturnType<typeof classify> {
  const c = classify(code ?? 'RJCT', 'simf');
  return c.known ? c : { ...classify('RJCT', 'simf'), code: c.code };
}

export { answerRaw };

/** A C2P, P2P or reversal BNC took: settled, with the bank's `Reference`. */
export function settledWithReference(a: BncAnswer, raw: Record<string, unknown>): BankOutcome {
  return { type: 'settled', referencia: str((a.value as Record<string, unknown> | null)?.Reference), endtoend: null, raw };
}

/** A capability BNC lacks: refused here, nothing sent. */
export const noSoportado = (descripcion: string): BankOutcome => unsupported(descripcion);

/** A statement line as BNC gives it (`Position/History*`). */
export type Movement = Record<string, unknown>;

/** The statement fields BNC marks a movement with; our envelope `Reference` is one of them [doc; which one INV]. */
export const REFERENCE_FIELDS = ['ReferenceA', 'ReferenceB', 'ReferenceC', 'ReferenceD'] as const;

export const isCredit = (m: Movement): boolean =>
  str(m.BalanceDelta)?.toLowerCase() === 'ingreso' || (!m.BalanceDelta && Number(m.Amount) > 0);

/** A statement line in our shape. */
export function toMovimiento(m: Movement): Movimiento {
  const amount = Number(m.Amount);
  if (!Number.isFinite(amount)) throw new FormatError(`movement ${String(m.ControlNumber)} has no numeric Amount`);
  const delta = str(m.BalanceDelta)?.toLowerCase();
  return {
    fecha: fechaDesdeBnc(str(m.Date) ?? ''),
    hora: null,
    referencia: str(m.ReferenceA) ?? str(m.ControlNumber) ?? '',
    concepto: str(m.Concept) ?? '',
    tipo: delta === 'ingreso' ? 'credito' : delta === 'egreso' ? 'debito' : amount < 0 ? 'debito' : 'credito',
    monto: Math.abs(amount),
    saldo: null,
  };
}
