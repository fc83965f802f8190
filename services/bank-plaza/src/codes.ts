import type { MotivoRechazo } from '@switch/shared';

/**
 * Every code Banco Plaza may answer with, and what it means for the switch. Only `0000` is
 * documented [code]; the 4-digit rejections are invented [INV] (PROTOCOLS §2.5, numbered after
 * ISO 8583 response codes) and the CCE operations pass ISO 20022 statuses and reasons in
 * `descripcionSistema` [doc, PROTOCOLS §5.2]. Change the data here, not the connector.
 *
 * effect:
 * - `ok`: the operation was done (what "done" means depends on the operation);
 * - `settled` / `pending`: an interbank status (ACCP / AC00);
 * - `rejected`: a business rejection with its motivo;
 * - `not_processed`: the bank explicitly did not take the order (may be rerouted);
 * - `auth`: credentials, signature or nonce refused (FIRMA_AUTH, never rerouted);
 * - `not_found`: the bank has no such order (status queries);
 * - `unknown`: the bank itself cannot say yet.
 */
export type CodeEffect = 'ok' | 'settled' | 'pending' | 'rejected' | 'not_processed' | 'auth' | 'not_found' | 'unknown';

export interface CodeEntry {
  effect: CodeEffect;
  motivo: MotivoRechazo | null;
  descripcion: string;
  source: 'code' | 'doc' | 'INV';
  /** A generic rejection whose real reason is the ISO code in `descripcionSistema`. */
  generic?: true;
}

const e = (effect: CodeEffect, motivo: MotivoRechazo | null, descripcion: string, source: CodeEntry['source'], generic?: true): CodeEntry =>
  generic ? { effect, motivo, descripcion, source, generic } : { effect, motivo, descripcion, source };

/** Banco Plaza's own 4-digit codes. */
export const PLAZA_CODES: Readonly<Record<string, CodeEntry>> = {
  '0000': e('ok', null, 'Operacion exitosa', 'code'),
  '0013': e('rejected', 'MONTO_INVALIDO', 'Monto invalido', 'INV'),
  '0014': e('rejected', 'CUENTA_NO_EXISTE', 'Cuenta o instrumento invalido', 'INV'),
  '0025': e('not_found', 'DESCONOCIDO', 'Registro no encontrado', 'INV'),
  '0030': e('rejected', 'RECHAZO_TECNICO', 'Error de formato', 'INV'),
  '0051': e('rejected', 'SALDO_INSUFICIENTE', 'Saldo insuficiente', 'INV'),
  '0055': e('rejected', 'OTP_INVALIDO', 'OTP invalido o vencido', 'INV'),
  '0056': e('rejected', 'NO_AFILIADO_SERVICIO', 'Cliente no afiliado al servicio', 'INV'),
  '0061': e('rejected', 'EXCEDE_LIMITE', 'Excede el limite permitido', 'INV'),
  '0091': e('not_processed', 'BANCO_NO_DISPONIBLE', 'Banco no disponible, operacion no procesada', 'INV'),
  '0094': e('rejected', 'DUPLICADA', 'Operacion duplicada', 'INV'),
  '0401': e('auth', 'FIRMA_AUTH', 'Firma o api-key invalida', 'INV'),
  '0402': e('auth', 'FIRMA_AUTH', 'Nonce repetido o no creciente', 'INV'),
  /** CCE rejection whose reason is the ISO code in descripcionSistema. */
  RJCT: e('rejected', 'DESCONOCIDO', 'Rechazada por la CCE', 'doc', true),
};

/** ISO 20022 statuses and reasons of the CCE (PROTOCOLS §5.2, BNC doc; identical for Débito and Crédito Inmediato). */
export const ISO_CODES: Readonly<Record<string, CodeEntry>> = {
  ACCP: e('settled', null, 'Aceptada y liquidada', 'doc'),
  AC00: e('pending', null, 'En espera del receptor', 'doc'),
  AB01: e('unknown', null, 'Tiempo de espera agotado (120 s)', 'doc'),
  AB07: e('rejected', 'BANCO_NO_DISPONIBLE', 'Agente fuera de linea', 'doc'),
  AC01: e('rejected', 'CUENTA_NO_EXISTE', 'Numero de cuenta incorrecto', 'doc'),
  AC04: e('rejected', 'CUENTA_NO_EXISTE', 'Cuenta cancelada', 'doc'),
  AC06: e('rejected', 'CUENTA_BLOQUEADA', 'Cuenta bloqueada', 'doc'),
  AC09: e('rejected', 'MONTO_INVALIDO', 'Moneda invalida', 'doc'),
  AG09: e('rejected', 'RECHAZO_TECNICO', 'Pago no recibido', 'doc'),
  AG10: e('rejected', 'BANCO_NO_DISPONIBLE', 'Agente suspendido o excluido', 'doc'),
  AM02: e('rejected', 'EXCEDE_LIMITE', 'Monto no permitido por el acuerdo', 'doc'),
  AM03: e('rejected', 'MONTO_INVALIDO', 'Moneda no permitida', 'doc'),
  AM04: e('rejected', 'SALDO_INSUFICIENTE', 'Fondos insuficientes', 'doc'),
  AM05: e('rejected', 'DUPLICADA', 'Operacion duplicada', 'doc'),
  BE01: e('rejected', 'BENEFICIARIO_NO_COINCIDE', 'Datos del cliente no corresponden a la cuenta', 'doc'),
  BE20: e('rejected', 'RECHAZO_TECNICO', 'Nombre demasiado largo', 'doc'),
  CUST: e('rejected', 'CANCELADA_POR_PAGADOR', 'Cancelada por el deudor', 'doc'),
  CH20: e('rejected', 'MONTO_INVALIDO', 'Demasiados decimales', 'doc'),
  DT03: e('rejected', 'FUERA_DE_HORARIO', 'Fecha de procesamiento no bancaria', 'doc'),
  DU01: e('rejected', 'DUPLICADA', 'Identificador de mensaje duplicado', 'doc'),
  FF05: e('rejected', 'RECHAZO_TECNICO', 'Codigo de producto incorrecto', 'doc'),
  FF07: e('rejected', 'RECHAZO_TECNICO', 'Codigo de subproducto incorrecto', 'doc'),
  RC08: e('rejected', 'CUENTA_NO_EXISTE', 'Banco no pertenece al sistema de compensacion', 'doc'),
  TKCM: e('rejected', 'OTP_INVALIDO', 'Token de aceptacion de debito incorrecto', 'doc'),
  VE01: e('rejected', 'RECHAZO_TECNICO', 'Rechazo tecnico CCE/SIMF', 'doc'),
  VE02: e('rejected', 'RECHAZO_TECNICO', 'Error de persistencia', 'doc'),
  MD15: e('rejected', 'DESCONOCIDO', 'Rechazo definitivo (sin descripcion publica)', 'code'),
};

export const UNKNOWN_CODE: CodeEntry = e('rejected', 'DESCONOCIDO', 'Codigo no clasificado', 'INV');

export interface Classified {
  /** The code the meaning was taken from (the Plaza code, or the ISO reason behind a generic one). */
  code: string;
  entry: CodeEntry;
  /** False when the code is in neither table. */
  known: boolean;
}

/** The ISO 20022 code leading `descripcionSistema` (`"AM04 Fondos insuficientes"` → `AM04`), if any. */
export function isoCodeIn(descripcionSistema: string | null): string | null {
  const m = /^\s*([A-Z0-9]{4})\b/.exec(descripcionSistema ?? '');
  return m && ISO_CODES[m[1]!] ? m[1]! : null;
}

/**
 * The meaning of one answer. A success may still carry an interbank status (AC00 pending, ACCP
 * settled); a generic rejection (or an unlisted code) is explained by its ISO reason when present.
 */
export function classify(codigo: string, descripcionSistema: string | null): Classified {
  const own = PLAZA_CODES[codigo] ?? ISO_CODES[codigo];
  const iso = isoCodeIn(descripcionSistema);
  if (own?.effect === 'ok') {
    const status = iso ? ISO_CODES[iso]! : undefined;
    if (status && (status.effect === 'pending' || status.effect === 'settled')) return { code: iso!, entry: status, known: true };
    return { code: codigo, entry: own, known: true };
  }
  if ((!own || own.generic) && iso) return { code: iso, entry: ISO_CODES[iso]!, known: true };
  if (own) return { code: codigo, entry: own, known: true };
  return { code: codigo, entry: UNKNOWN_CODE, known: false };
}
