import {
  bareHttpOrderOutcome,
  orderOutcome as kitOrderOutcome,
  type CodeEntry,
  saldoRead,
  bankCodeOf,
  credito,
  identificacionOf,
  phoneOf,
} from '@switch/connector-kit/connector';
import type { BankOutcome } from '@switch/core/operation';
import type { Movimiento, Saldo, CreditoRecibido } from '@switch/core/contracts/bancos';
import type { MotivoRechazo } from '@switch/core/estados';
import type { ReadOutcome } from '@switch/connector-kit/bank-port';
import { classify, ESTATUS_CREDITO, ESTATUS_PAGO, EXITO, SIN_CONFIRMACION } from './codes';
import { gatewayFault, isRecord, OPERACIONES_SOAP, unwrapEnvelope, type Answer } from './protocol';
import { fechaIso, parseMonto } from './requests';

/**
 * Bancaribe's answers read back as the switch's outcomes: orders, status queries and reads. Pure:
 * no I/O, no clock.
 */

// ---------------------------------------------------------------------------------------------
// Answers

export type { Answer };

type Raw = Record<string, unknown>;

export type OrderKind = 'c2p' | 'anulacion' | 'pagoB2p' | 'credito';

/** What a money order came to, read from the gateway's answer. */
export function interpretOrder(answer: Answer, kind: OrderKind): BankOutcome {
  const out = orderOut(answer.json, kind);
  if (out && hasCode(out)) {
    const codigo = String(out.codigoError).trim();
    const referencia = text(out.secuencial);
    const raw = rawOf(answer, codigo, text(out.descripcionError) ?? '');
    if (codigo === EXITO) return success(kind, out, referencia, raw);
    return kitOrderOutcome(classify(codigo), raw, { referencia });
  }
  return fromTransport(answer);
}

function orderOut(json: unknown, kind: OrderKind): Raw | null {
  if (kind === 'pagoB2p') return isRecord(json) ? json : null;
  return unwrapEnvelope(json, kind === 'credito' ? OPERACIONES_SOAP.creditoInmediato : OPERACIONES_SOAP.c2p);
}

function success(kind: OrderKind, out: Raw, referencia: string | null, raw: Raw): BankOutcome {
  switch (kind) {
    case 'c2p':
    case 'anulacion':
      return { type: 'settled', referencia, endtoend: null, raw };
    case 'credito':
      return { type: 'accepted', pending: true, referencia, endtoend: text(out.endToEndId), raw };
    case 'pagoB2p': {
      // codigoError "0" alone is not success: without a confirmation code the payout's fate is open.
      const confirmacion = text(out.codigoConfirmacion);
      if (confirmacion !== null && SIN_CONFIRMACION.includes(confirmacion))
        return { type: 'unknown', raw: { ...raw, codigoConfirmacion: confirmacion } };
      return { type: 'settled', referencia, endtoend: null, raw };
    }
  }
}

/** The reason of an explicit rejection (RJCT, RECHAZADA): a reason the table does not know as a rejection leaves it RJCT's. */
function rejectionReason(codigo: string): CodeEntry {
  const entry = classify(codigo);
  return entry && (entry.meaning === 'rejected' || entry.meaning === 'unknown' || entry.meaning === 'not_processed')
    ? entry
    : classify('RJCT')!;
}

/** "No such order" in a status answer (the kit's `notFound`). */
const saysNotFound = (codigo: string): boolean => classify(codigo)?.inStatus === 'not_processed';

/**
 * An answer without a business code: the gateway's own. Only what the gateway proves is taken as
 * proof; a server error without such proof may hide an executed order.
 */
function fromTransport(answer: Answer): BankOutcome {
  const fault = gatewayFault(answer.json);
  const codigo = fault?.code ?? String(answer.status);
  const raw = rawOf(answer, codigo, fault?.message ?? snippet(answer.text));
  const known = fault ? classify(fault.code) : undefined;
  if (known) return kitOrderOutcome(known, raw);
  // A bare 4xx (429 included) or 5xx may come after the order reached the bank: unknown.
  return bareHttpOrderOutcome(answer.status, raw);
}

/** Status of a crédito inmediato. Anything but a clear answer is `unknown`: the state stays. */
export function interpretConsultaCredito(answer: Answer): BankOutcome {
  const out = unwrapEnvelope(answer.json, OPERACIONES_SOAP.consultaCredito);
  if (!out || !hasCode(out))
    return { type: 'unknown', raw: rawOf(answer, gatewayFault(answer.json)?.code ?? String(answer.status), snippet(answer.text)) };
  const codigo = String(out.codigoError).trim();
  const raw = rawOf(answer, codigo, text(out.descripcionError) ?? '');
  if (codigo !== EXITO) return saysNotFound(codigo) ? { type: 'not_processed', raw } : { type: 'unknown', raw };
  const referencia = text(out.secuencial);
  const endtoend = text(out.endToEndId);
  const estatus = text(out.estatus) ?? '';
  switch (ESTATUS_CREDITO[estatus]) {
    case 'settled':
      return { type: 'settled', referencia, endtoend, raw: { ...raw, estatus } };
    case 'pending':
      return { type: 'accepted', pending: true, referencia, endtoend, raw: { ...raw, estatus } };
    case 'rejected': {
      const rechazo = text(out.codigoRechazo) ?? 'RJCT';
      // RJCT is a rejection; a reason the table does not know leaves it a rejection without motivo.
      const entry = rejectionReason(rechazo);
      const rejectedRaw = { ...raw, estatus, codigo: rechazo, descripcion: text(out.descripcionRechazo) ?? entry.descripcion };
      return entry.meaning === 'unknown'
        ? { type: 'unknown', raw: rejectedRaw }
        : { type: 'rejected', motivo: entry.motivo ?? 'DESCONOCIDO', referencia, raw: rejectedRaw };
    }
    default:
      return { type: 'unknown', raw: { ...raw, estatus } };
  }
}

/** Status of a C2P, a payout or a void, found in the payment query by our reference or the bank's. */
export function interpretConsultaPago(answer: Answer, secuencial: string | null, ref: string): BankOutcome {
  const json = answer.json;
  if (!isRecord(json) || !hasCode(json))
    return { type: 'unknown', raw: rawOf(answer, gatewayFault(json)?.code ?? String(answer.status), snippet(answer.text)) };
  const codigo = String(json.codigoError).trim();
  const raw = rawOf(answer, codigo, text(json.descripcionError) ?? '');
  if (codigo !== EXITO) return saysNotFound(codigo) ? { type: 'not_processed', raw } : { type: 'unknown', raw };
  const lista = Array.isArray(json.lista) ? json.lista.filter(isRecord) : [];
  const item = lista.find((i) => text(i.factura) === ref || (secuencial !== null && text(i.referencia) === secuencial));
  if (!item) return { type: 'not_processed', raw: { ...raw, descripcion: 'Operación no encontrada' } };
  const estatus = text(item.estatus) ?? '';
  const referencia = text(item.referencia);
  const itemCodigo = text(item.codigoError) ?? EXITO;
  const itemRaw = { ...raw, estatus, codigo: itemCodigo, descripcion: text(item.descripcionError) ?? '' };
  switch (ESTATUS_PAGO[estatus]) {
    case 'settled':
      return { type: 'settled', referencia, endtoend: null, raw: itemRaw };
    case 'rejected': {
      // The bank's own record says RECHAZADA: final. Its code only names the reason, even one that
      // would leave an order's answer open (a system error, "not found").
      const entry = rejectionReason(itemCodigo);
      return { type: 'rejected', motivo: entry.motivo ?? 'DESCONOCIDO', referencia, raw: itemRaw };
    }
    default:
      return { type: 'unknown', raw: itemRaw };
  }
}

// ---------------------------------------------------------------------------------------------
// Reads

export function interpretSaldo(answer: Answer, cuenta: string, at: Date): ReadOutcome<Saldo> {
  const json = answer.json;
  if (answer.status === 200 && isRecord(json) && isRecord(json.saldo)) {
    const disponible = parseMonto(json.saldo.disponible);
    const contable = parseMonto(json.saldo.contable);
    const bloqueado = json.saldo.bloqueado === undefined || json.saldo.bloqueado === null ? 0 : parseMonto(json.saldo.bloqueado);
    if (disponible !== null && contable !== null && bloqueado !== null) {
      return saldoRead('bancaribe', cuenta, { disponible, contable, bloqueado }, at, json);
    }
  }
  return readFailure(answer);
}

/** The statement lines of an answer, oldest first, or why there are none. */
export function interpretMovimientos(
  answer: Answer,
): { ok: true; movimientos: Movimiento[] } | { ok: false; motivo: MotivoRechazo; raw: Raw } {
  const json = answer.json;
  if (answer.status !== 200 || !isRecord(json) || !Array.isArray(json.movimientos)) return readFailure(answer);
  const movimientos: Movimiento[] = [];
  for (const item of json.movimientos) {
    const m = movimiento(item);
    if (!m) return { ok: false, motivo: 'RECHAZO_TECNICO', raw: { ...rawOf(answer, '200', 'movimiento ilegible'), movimiento: item } };
    movimientos.push(m);
  }
  // Stable sort: lines of one day keep the bank's order.
  return { ok: true, movimientos: movimientos.sort((a, b) => (a.fecha < b.fecha ? -1 : a.fecha > b.fecha ? 1 : 0)) };
}

/** The credits of a statement answer, with the payer's bank, phone and id where the line has them. */
export function interpretCreditos(
  answer: Answer,
  cuenta: string,
): { ok: true; creditos: CreditoRecibido[] } | { ok: false; motivo: MotivoRechazo; raw: Raw } {
  const read = interpretMovimientos(answer);
  if (!read.ok) return read;
  const items = (answer.json as { movimientos: unknown[] }).movimientos;
  const creditos: CreditoRecibido[] = [];
  for (const item of items) {
    const m = movimiento(item);
    if (m?.tipo !== 'credito' || !isRecord(item)) continue;
    creditos.push(
      credito('bancaribe', cuenta, m, {
        telefono: phoneOf(item.telefonoOrigen),
        identificacion: identificacionOf(item.cedulaOrigen),
        banco: bankCodeOf(item.bancoOrigen),
      }),
    );
  }
  return { ok: true, creditos };
}

function movimiento(item: unknown): Movimiento | null {
  if (!isRecord(item)) return null;
  const fecha = fechaIso(item.fecha);
  const importe = parseMonto(item.monto);
  const tipo = item.tipo === 'C' ? 'credito' : item.tipo === 'D' ? 'debito' : null;
  if (!fecha || importe === null || !tipo) return null;
  const hora = typeof item.hora === 'string' && /^[0-9]{2}:[0-9]{2}:[0-9]{2}$/.test(item.hora) ? item.hora : null;
  return {
    fecha,
    hora,
    referencia: text(item.referencia) ?? '',
    concepto: text(item.descripcion) ?? '',
    tipo,
    monto: Math.abs(importe),
    saldo: item.saldo === undefined || item.saldo === null ? null : parseMonto(item.saldo),
  };
}

function readFailure(answer: Answer): { ok: false; motivo: MotivoRechazo; raw: Raw } {
  const json = answer.json;
  const fault = gatewayFault(json);
  const bankCode = isRecord(json) && (typeof json.code === 'string' || typeof json.code === 'number') ? String(json.code) : null;
  const codigo = bankCode ?? fault?.code ?? String(answer.status);
  const descripcion = (isRecord(json) ? text(json.message) : null) ?? fault?.message ?? snippet(answer.text);
  const raw = rawOf(answer, codigo, descripcion);
  const known = classify(codigo);
  if (known) return { ok: false, motivo: known.motivo ?? 'DESCONOCIDO', raw };
  if (answer.status >= 500 || answer.status === 429) return { ok: false, motivo: 'BANCO_NO_DISPONIBLE', raw };
  if (answer.status === 401 || answer.status === 403) return { ok: false, motivo: 'FIRMA_AUTH', raw };
  return { ok: false, motivo: bankCode ? 'DESCONOCIDO' : 'RECHAZO_TECNICO', raw };
}

// ---------------------------------------------------------------------------------------------

const hasCode = (out: Raw): boolean => typeof out.codigoError === 'number' || typeof out.codigoError === 'string';

function text(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

const snippet = (body: string) => body.slice(0, 200);

/** The bank's untouched answer, with its code and description named for the switch. */
function rawOf(answer: Answer, codigo: string, descripcion: string): Raw {
  return { status: answer.status, codigo, descripcion, body: answer.json === undefined ? answer.text : answer.json };
}
