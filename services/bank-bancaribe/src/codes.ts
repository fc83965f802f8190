import type { MotivoRechazo } from '@switch/shared';

/**
 * What a code from Bancaribe means for the money:
 * - `rejected`: the bank refused the order (final);
 * - `not_processed`: the bank says it did not process it (a payout may be rerouted);
 * - `not_found`: a status query found no such order;
 * - `unknown`: the code is no evidence either way (the order may have moved money).
 * Credential and configuration failures are `rejected` with FIRMA_AUTH: never rerouted.
 */
export type Disposition = 'rejected' | 'not_processed' | 'not_found' | 'unknown';

export interface CodeEntry {
  motivo: MotivoRechazo;
  disposition: Disposition;
  /** Where the code comes from, so an invented one is easy to find and change. */
  fuente: 'codigoError [INV]' | 'saldo [code]' | 'ISO 20022 [doc]' | 'WSO2 [inf]' | 'OAuth2 [inf]';
  descripcion: string;
}

const rejected = (motivo: MotivoRechazo, fuente: CodeEntry['fuente'], descripcion: string): CodeEntry => ({ motivo, disposition: 'rejected', fuente, descripcion });

/** `codigoError` of a successful C2P, payout, crédito inmediato or query (0 as a number or "0"). */
export const EXITO = '0';

/**
 * Every code Bancaribe or its gateway may answer with, in one table. The namespaces (numeric
 * `codigoError`, the balance service's 5-6 digit codes, ISO 20022 reasons, WSO2 fault codes and
 * OAuth2 errors) do not collide, so one flat key is enough.
 */
export const CODES: Readonly<Record<string, CodeEntry>> = {
  // codigoError of C2P / B2P / crédito inmediato: not public; ISO 8583 response codes (PROTOCOLS §3.3).
  '5': rejected('OTP_INVALIDO', 'codigoError [INV]', 'Clave de pago inválida o vencida'),
  '13': rejected('MONTO_INVALIDO', 'codigoError [INV]', 'Monto inválido'),
  '25': { motivo: 'DESCONOCIDO', disposition: 'not_found', fuente: 'codigoError [INV]', descripcion: 'Registro no encontrado' },
  '51': rejected('SALDO_INSUFICIENTE', 'codigoError [INV]', 'Fondos insuficientes'),
  '56': rejected('NO_AFILIADO_SERVICIO', 'codigoError [INV]', 'Cliente no afiliado al servicio'),
  '61': rejected('EXCEDE_LIMITE', 'codigoError [INV]', 'Excede el límite de monto'),
  '63': rejected('FIRMA_AUTH', 'codigoError [INV]', 'Violación de seguridad: comercio, RIF o hash no corresponden'),
  '91': { motivo: 'BANCO_NO_DISPONIBLE', disposition: 'not_processed', fuente: 'codigoError [INV]', descripcion: 'Banco no disponible, operación no procesada' },
  '94': rejected('DUPLICADA', 'codigoError [INV]', 'Transacción duplicada'),
  '96': rejected('RECHAZO_TECNICO', 'codigoError [INV]', 'Error de sistema'),

  // Balance and statement service (`{code, message}`), PROTOCOLS §3.2. Our RIF, hash and cédula are
  // configuration, so the bank not knowing them is a credential problem.
  '80049': rejected('RECHAZO_TECNICO', 'saldo [code]', 'Debe indicar cédula / RIF.'),
  '103000': rejected('FIRMA_AUTH', 'saldo [code]', 'El cliente no existe en los registros.'),
  '701114': rejected('FIRMA_AUTH', 'saldo [code]', 'Cédula errada.'),
  '101042': rejected('FIRMA_AUTH', 'saldo [code]', 'Cédula errada.'),
  '201025': rejected('RECHAZO_TECNICO', 'saldo [code]', 'La moneda no corresponde a la cuenta.'),
  '101032': rejected('RECHAZO_TECNICO', 'saldo [code]', 'Seleccione el producto correspondiente.'),
  '101128': rejected('CUENTA_BLOQUEADA', 'saldo [code]', 'La cuenta no está vigente.'),
  '201004': rejected('CUENTA_NO_EXISTE', 'saldo [code]', 'La cuenta registrada no existe.'),

  // ISO 20022 reasons of the CCE (`codigoRechazo` of a RJCT), PROTOCOLS §5.2.
  // AB01: the CCE timed out waiting; PROTOCOLS advises treating it as unresolved and asking again.
  AB01: { motivo: 'DESCONOCIDO', disposition: 'unknown', fuente: 'ISO 20022 [doc]', descripcion: 'Tiempo de espera agotado' },
  AB07: rejected('BANCO_NO_DISPONIBLE', 'ISO 20022 [doc]', 'Agente fuera de línea'),
  AC01: rejected('CUENTA_NO_EXISTE', 'ISO 20022 [doc]', 'Número de cuenta incorrecto'),
  AC04: rejected('CUENTA_NO_EXISTE', 'ISO 20022 [doc]', 'Cuenta cancelada'),
  AC06: rejected('CUENTA_BLOQUEADA', 'ISO 20022 [doc]', 'Cuenta bloqueada'),
  AC09: rejected('MONTO_INVALIDO', 'ISO 20022 [doc]', 'Moneda inválida'),
  AG09: rejected('RECHAZO_TECNICO', 'ISO 20022 [doc]', 'Pago no recibido'),
  AG10: rejected('BANCO_NO_DISPONIBLE', 'ISO 20022 [doc]', 'Agente suspendido o excluido'),
  AM02: rejected('EXCEDE_LIMITE', 'ISO 20022 [doc]', 'Monto no permitido'),
  AM03: rejected('MONTO_INVALIDO', 'ISO 20022 [doc]', 'Moneda no permitida'),
  AM04: rejected('SALDO_INSUFICIENTE', 'ISO 20022 [doc]', 'Fondos insuficientes'),
  AM05: rejected('DUPLICADA', 'ISO 20022 [doc]', 'Operación duplicada'),
  BE01: rejected('BENEFICIARIO_NO_COINCIDE', 'ISO 20022 [doc]', 'Datos del cliente no corresponden a la cuenta'),
  BE20: rejected('RECHAZO_TECNICO', 'ISO 20022 [doc]', 'Nombre demasiado largo'),
  CUST: rejected('CANCELADA_POR_PAGADOR', 'ISO 20022 [doc]', 'Cancelada por el deudor'),
  CH20: rejected('MONTO_INVALIDO', 'ISO 20022 [doc]', 'Demasiados decimales'),
  DT03: rejected('FUERA_DE_HORARIO', 'ISO 20022 [doc]', 'Fecha de procesamiento no bancaria inválida'),
  DU01: rejected('DUPLICADA', 'ISO 20022 [doc]', 'Identificador de mensaje duplicado'),
  FF05: rejected('RECHAZO_TECNICO', 'ISO 20022 [doc]', 'Código de producto incorrecto'),
  FF07: rejected('RECHAZO_TECNICO', 'ISO 20022 [doc]', 'Código de subproducto incorrecto'),
  RC08: rejected('CUENTA_NO_EXISTE', 'ISO 20022 [doc]', 'Código de banco no pertenece al sistema de compensación'),
  RJCT: rejected('DESCONOCIDO', 'ISO 20022 [doc]', 'Rechazada'),
  TKCM: rejected('OTP_INVALIDO', 'ISO 20022 [doc]', 'Token de aceptación de débito incorrecto'),
  VE01: rejected('RECHAZO_TECNICO', 'ISO 20022 [doc]', 'Rechazo técnico'),
  VE02: rejected('RECHAZO_TECNICO', 'ISO 20022 [doc]', 'Error de persistencia'),
  MD15: rejected('DESCONOCIDO', 'ISO 20022 [doc]', 'Rechazo definitivo'),

  // WSO2 API Manager faults, answered by the gateway itself.
  '900901': rejected('FIRMA_AUTH', 'WSO2 [inf]', 'Invalid Credentials'),
  '900902': rejected('FIRMA_AUTH', 'WSO2 [inf]', 'Missing Credentials'),
  '900906': rejected('FIRMA_AUTH', 'WSO2 [inf]', 'No matching resource found (configuration)'),
  '900908': rejected('FIRMA_AUTH', 'WSO2 [inf]', 'Resource forbidden (subscription)'),
  '900800': { motivo: 'BANCO_NO_DISPONIBLE', disposition: 'not_processed', fuente: 'WSO2 [inf]', descripcion: 'Message throttled out' },
  '101503': { motivo: 'BANCO_NO_DISPONIBLE', disposition: 'not_processed', fuente: 'WSO2 [inf]', descripcion: 'Error connecting to the back end' },
  '303001': { motivo: 'BANCO_NO_DISPONIBLE', disposition: 'not_processed', fuente: 'WSO2 [inf]', descripcion: 'Endpoint suspended' },
  '101504': { motivo: 'DESCONOCIDO', disposition: 'unknown', fuente: 'WSO2 [inf]', descripcion: 'Back end connection timed out' },
  '101505': { motivo: 'DESCONOCIDO', disposition: 'unknown', fuente: 'WSO2 [inf]', descripcion: 'Back end connection closed' },

  // Token endpoint (OAuth2 error responses of WSO2).
  invalid_client: rejected('FIRMA_AUTH', 'OAuth2 [inf]', 'Client authentication failed'),
  unauthorized_client: rejected('FIRMA_AUTH', 'OAuth2 [inf]', 'Client not allowed this grant'),
  unsupported_grant_type: rejected('FIRMA_AUTH', 'OAuth2 [inf]', 'Unsupported grant_type value'),
  invalid_request: rejected('FIRMA_AUTH', 'OAuth2 [inf]', 'Malformed token request'),
};

/** A code the table does not know: unknown to the switch (DESCONOCIDA, resolved by a status query), never a rejection. */
const UNCLASSIFIED: CodeEntry = { motivo: 'DESCONOCIDO', disposition: 'unknown', fuente: 'codigoError [INV]', descripcion: 'Código no clasificado' };

/** The meaning of a bank code; a code not in the table is unknown (never a rejection). */
export function classify(code: string | number | null | undefined): CodeEntry {
  if (code === null || code === undefined) return UNCLASSIFIED;
  return CODES[String(code).trim()] ?? UNCLASSIFIED;
}

export const isAuthFailure = (code: string | number | null | undefined): boolean => classify(code).motivo === 'FIRMA_AUTH';
export const isNotProcessed = (code: string | number | null | undefined): boolean => classify(code).disposition === 'not_processed';

/** `estatus` of a crédito inmediato (ISO 20022 transaction status). */
export const ESTATUS_CREDITO: Readonly<Record<string, 'settled' | 'pending' | 'rejected'>> = {
  ACCP: 'settled',
  AC00: 'pending',
  RJCT: 'rejected',
};

/** `estatus` of a C2P / payout in the payment query [INV]. */
export const ESTATUS_PAGO: Readonly<Record<string, 'settled' | 'rejected'>> = {
  APROBADA: 'settled',
  // The payment did settle; its voiding is a separate operation with its own record.
  ANULADA: 'settled',
  RECHAZADA: 'rejected',
};

/** `codigoConfirmacion` values that mean the payout was not confirmed (PROTOCOLS §3.2). */
export const SIN_CONFIRMACION: readonly string[] = ['0', '-1'];
