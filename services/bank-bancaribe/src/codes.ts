import {
  authRefusal,
  code,
  ISO20022_CODES,
  lookup,
  notFound,
  notProcessed,
  rejects,
  undetermined,
  type CodeEntry,
  type CodeTable,
} from '@switch/connector-kit/connector';

/**
 * What a code from Bancaribe means for the money, in the kit's `CodeTable` shape (code → meaning →
 * motivo, with its source: `assumed` for the invented `codigoError` list and the WSO2/OAuth2 faults
 * we infer, `observed` for the balance service's codes seen in public integrations, `published` for
 * the CCE's ISO 20022 reasons). Credential and configuration failures are FIRMA_AUTH
 * (`authRefusal`): never rerouted. A code the table does not list is unknown: never a rejection.
 */

/** `codigoError` of a successful C2P, payout, crédito inmediato or query (0 as a number or "0"). */
export const EXITO = '0';

/**
 * Every code Bancaribe or its gateway may answer with, in one table. The namespaces (numeric
 * `codigoError`, the balance service's 5-6 digit codes, ISO 20022 reasons, WSO2 fault codes and
 * OAuth2 errors) do not collide, so one flat key is enough.
 */
export const CODES: CodeTable = {
  // codigoError of C2P / B2P / crédito inmediato: not public; ISO 8583 response codes (PROTOCOLS §3.3).
  '5': rejects('OTP_INVALIDO', 'Clave de pago inválida o vencida', 'assumed'),
  '13': rejects('MONTO_INVALIDO', 'Monto inválido', 'assumed'),
  // "Record not found": in a status answer, no such order; on an order (a void whose original the bank
  // does not find) it does not say the order did not run: unknown, then queried (the kit's rule).
  '25': notFound('Registro no encontrado', 'assumed'),
  '51': rejects('SALDO_INSUFICIENTE', 'Fondos insuficientes', 'assumed'),
  '56': rejects('NO_AFILIADO_SERVICIO', 'Cliente no afiliado al servicio', 'assumed'),
  '61': rejects('EXCEDE_LIMITE', 'Excede el límite de monto', 'assumed'),
  '63': authRefusal('Violación de seguridad: comercio, RIF o hash no corresponden', 'assumed'),
  '91': notProcessed('Banco no disponible, operación no procesada', 'assumed'),
  '94': rejects('DUPLICADA', 'Transacción duplicada', 'assumed'),
  // "System error" does not say the order did not run: unknown, then queried (the kit's rule); as the
  // reason of a record the bank calls RECHAZADA it is RECHAZO_TECNICO.
  '96': code('unknown', 'RECHAZO_TECNICO', 'Error de sistema', 'assumed'),

  // Balance and statement service (`{code, message}`), PROTOCOLS §3.2. Our RIF, hash and cédula are
  // configuration, so the bank not knowing them is a credential problem.
  '80049': rejects('RECHAZO_TECNICO', 'Debe indicar cédula / RIF.', 'observed'),
  '103000': authRefusal('El cliente no existe en los registros.', 'observed'),
  '701114': authRefusal('Cédula errada.', 'observed'),
  '101042': authRefusal('Cédula errada.', 'observed'),
  '201025': rejects('RECHAZO_TECNICO', 'La moneda no corresponde a la cuenta.', 'observed'),
  '101032': rejects('RECHAZO_TECNICO', 'Seleccione el producto correspondiente.', 'observed'),
  '101128': rejects('CUENTA_BLOQUEADA', 'La cuenta no está vigente.', 'observed'),
  '201004': rejects('CUENTA_NO_EXISTE', 'La cuenta registrada no existe.', 'observed'),

  // ISO 20022 reasons of the CCE (`codigoRechazo` of a RJCT), PROTOCOLS §5.2: the kit's shared table
  // (AB01, the CCE timing out, is unresolved: PROTOCOLS advises asking again).
  ...ISO20022_CODES,

  // WSO2 API Manager faults, answered by the gateway itself.
  '900901': authRefusal('Invalid Credentials', 'assumed'),
  '900902': authRefusal('Missing Credentials', 'assumed'),
  '900906': authRefusal('No matching resource found (configuration)', 'assumed'),
  '900908': authRefusal('Resource forbidden (subscription)', 'assumed'),
  '900800': notProcessed('Message throttled out', 'assumed'),
  '101503': notProcessed('Error connecting to the back end', 'assumed'),
  '303001': notProcessed('Endpoint suspended', 'assumed'),
  '101504': undetermined('Back end connection timed out', 'assumed'),
  '101505': undetermined('Back end connection closed', 'assumed'),

  // Token endpoint (OAuth2 error responses of WSO2).
  invalid_client: authRefusal('Client authentication failed', 'assumed'),
  unauthorized_client: authRefusal('Client not allowed this grant', 'assumed'),
  unsupported_grant_type: authRefusal('Unsupported grant_type value', 'assumed'),
  invalid_request: authRefusal('Malformed token request', 'assumed'),
};

/** The entry of a bank code; undefined for a code not in the table (unknown: never a rejection). */
export function classify(code: string | number | null | undefined): CodeEntry | undefined {
  return lookup(CODES, code);
}

export const isAuthFailure = (code: string | number | null | undefined): boolean => classify(code)?.motivo === 'FIRMA_AUTH';
export const isNotProcessed = (code: string | number | null | undefined): boolean => classify(code)?.meaning === 'not_processed';

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
