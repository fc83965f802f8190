import type { MotivoRechazo } from '@switch/shared';

/**
 * What a code from Banco Activo means to the switch:
 * - `rejected`: the bank refused the order; nothing moved;
 * - `not_processed`: the bank (or its gateway) says explicitly it did not take the order: the only
 *   answer after which a payout may go to another bank;
 * - `not_found`: a status query names no order the bank knows;
 * - `unknown`: the bank itself cannot say whether the order ran (query later, never resend).
 * Auth failures are `rejected` with FIRMA_AUTH: never rerouted.
 */
export type Disposition = 'rejected' | 'not_processed' | 'not_found' | 'unknown';

export interface CodeMeaning {
  motivo: MotivoRechazo;
  descripcion: string;
  disposition: Disposition;
}

const rejected = (motivo: MotivoRechazo, descripcion: string): CodeMeaning => ({ motivo, descripcion, disposition: 'rejected' });
const notProcessed = (descripcion: string): CodeMeaning => ({ motivo: 'BANCO_NO_DISPONIBLE', descripcion, disposition: 'not_processed' });
const undetermined = (descripcion: string): CodeMeaning => ({ motivo: 'DESCONOCIDO', descripcion, disposition: 'unknown' });

/** Gateway fault codes are namespaced so they can never collide with the bank's own `code` values. */
export const wso2Key = (faultCode: string): string => `wso2:${faultCode}`;

/**
 * The one table. Three families:
 * 1. Activo's `code` strings for business errors [INV]: §4.1 says "4xx/5xx strings" (e.g. "422");
 *    the list itself is invented in the style of the other banks.
 * 2. WSO2 API Manager fault codes the gateway answers with [inf: standard WSO2 codes].
 * 3. ISO 20022 reason codes of the CCE (PROTOCOLS §5.2) [doc], sent as `motivo` on débito/crédito
 *    inmediato rejections and in status answers.
 */
export const ACTIVO_CODES: Readonly<Record<string, CodeMeaning>> = {
  // 1. Activo business codes [INV]
  '400': rejected('RECHAZO_TECNICO', 'Solicitud inválida (campo faltante o con formato errado)'),
  '402': rejected('SALDO_INSUFICIENTE', 'Fondos insuficientes'),
  '404': { motivo: 'DESCONOCIDO', descripcion: 'Operación no encontrada', disposition: 'not_found' },
  '406': rejected('MONTO_INVALIDO', 'Monto inválido'),
  '409': rejected('DUPLICADA', 'Operación duplicada'),
  '410': rejected('OTP_INVALIDO', 'OTP inválido o vencido'),
  '412': rejected('NO_AFILIADO_SERVICIO', 'Cliente no afiliado al servicio'),
  '413': rejected('EXCEDE_LIMITE', 'Excede el límite diario o por operación'),
  '414': rejected('CUENTA_NO_EXISTE', 'Cuenta o teléfono no existe'),
  '415': rejected('CUENTA_BLOQUEADA', 'Cuenta bloqueada'),
  '416': rejected('BENEFICIARIO_NO_COINCIDE', 'Los datos del cliente no coinciden con la cuenta'),
  '418': rejected('FUERA_DE_HORARIO', 'Fuera del horario del servicio'),
  '422': rejected('DESCONOCIDO', 'Transacción rechazada'),
  '500': rejected('RECHAZO_TECNICO', 'Error de sistema'),
  '503': notProcessed('Servicio no disponible, operación no procesada'),

  // 2. WSO2 gateway faults [inf]
  [wso2Key('900900')]: rejected('FIRMA_AUTH', 'Unclassified Authentication Failure'),
  [wso2Key('900901')]: rejected('FIRMA_AUTH', 'Invalid Credentials'),
  [wso2Key('900902')]: rejected('FIRMA_AUTH', 'Missing Credentials'),
  [wso2Key('900905')]: rejected('FIRMA_AUTH', 'Incorrect Access Token Type is provided'),
  [wso2Key('900906')]: rejected('FIRMA_AUTH', 'No matching resource found in the API for the given request'),
  [wso2Key('900908')]: rejected('FIRMA_AUTH', 'Resource forbidden (API not subscribed)'),
  [wso2Key('900800')]: notProcessed('Message throttled out'),
  [wso2Key('900802')]: notProcessed('Message throttled out (subscription quota)'),
  [wso2Key('101503')]: notProcessed('Error connecting to the back end'),
  [wso2Key('101504')]: undetermined('Connection timed out to the back end'),
  [wso2Key('101505')]: undetermined('Connection closed by the back end'),

  // 3. ISO 20022 reasons of the CCE [doc]
  AB01: undetermined('Timeout, máximo 120 s'),
  AB07: rejected('BANCO_NO_DISPONIBLE', 'Agente fuera de línea'),
  AC01: rejected('CUENTA_NO_EXISTE', 'Número de cuenta incorrecto'),
  AC04: rejected('CUENTA_NO_EXISTE', 'Cuenta cancelada'),
  AC06: rejected('CUENTA_BLOQUEADA', 'Cuenta bloqueada'),
  AC09: rejected('MONTO_INVALIDO', 'Moneda inválida'),
  AG09: rejected('RECHAZO_TECNICO', 'Pago no recibido'),
  AG10: rejected('BANCO_NO_DISPONIBLE', 'Agente suspendido o excluido'),
  AM02: rejected('EXCEDE_LIMITE', 'Monto no permitido por el acuerdo'),
  AM03: rejected('MONTO_INVALIDO', 'Moneda no permitida'),
  AM04: rejected('SALDO_INSUFICIENTE', 'Fondos insuficientes'),
  AM05: rejected('DUPLICADA', 'Operación duplicada'),
  BE01: rejected('BENEFICIARIO_NO_COINCIDE', 'Datos del cliente no corresponden a la cuenta'),
  BE20: rejected('RECHAZO_TECNICO', 'Nombre demasiado largo'),
  CUST: rejected('CANCELADA_POR_PAGADOR', 'Cancelada por el deudor'),
  CH20: rejected('MONTO_INVALIDO', 'Demasiados decimales'),
  DT03: rejected('FUERA_DE_HORARIO', 'Fecha de procesamiento no bancaria inválida'),
  DU01: rejected('DUPLICADA', 'Identificador de mensaje duplicado'),
  FF05: rejected('RECHAZO_TECNICO', 'Código de producto errado'),
  FF07: rejected('RECHAZO_TECNICO', 'Código de subproducto errado'),
  RC08: rejected('CUENTA_NO_EXISTE', 'Código de banco no pertenece al sistema de compensación'),
  RJCT: rejected('DESCONOCIDO', 'Rechazada'),
  TKCM: rejected('OTP_INVALIDO', 'Token de aceptación de débito errado'),
  VE01: rejected('RECHAZO_TECNICO', 'Rechazo técnico (CCE/SIMF)'),
  VE02: rejected('RECHAZO_TECNICO', 'Error de persistencia'),
  MD15: rejected('DESCONOCIDO', 'Rechazo definitivo'),
};

/** A code the table does not know: unknown to the switch (status query), never a rejection. */
const UNKNOWN_CODE: CodeMeaning = undetermined('Código no reconocido');

/**
 * The meaning of an answer: a precise ISO 20022 reason wins over the bank's generic code (a "422"
 * carrying `motivo: "AM04"` is SALDO_INSUFICIENTE). Unknown codes are unknown (never a rejection).
 */
export function meaningOf(code: string | undefined, isoReason?: string | undefined): CodeMeaning & { codigo: string } {
  const iso = isoReason ? ACTIVO_CODES[isoReason] : undefined;
  if (isoReason && iso) return { ...iso, codigo: isoReason };
  const own = code !== undefined ? ACTIVO_CODES[code] : undefined;
  return { ...(own ?? UNKNOWN_CODE), codigo: code ?? isoReason ?? '' };
}

export function isAuthFailure(code: string): boolean {
  return ACTIVO_CODES[code]?.motivo === 'FIRMA_AUTH';
}
