import type { MotivoRechazo } from '@switch/shared';

/**
 * BNC's answer codes → the switch's outcome (PROTOCOLS §1.5, §5.2). One table, data only.
 *
 * `disposition` says what an order learns from the code:
 * - `reject`: the bank refused the order; it did not run. Final RECHAZADA with `motivo`. Auth and
 *   configuration refusals carry FIRMA_AUTH and are never rerouted (DESIGN rule 4).
 * - `not_processed`: the bank says explicitly that the order was not executed for a reason outside
 *   the payer/beneficiary (issuer or network down, a failure before the order was taken). A payout
 *   may be rerouted. In a status answer the same code is a final rejection with `motivo`.
 * - `unknown`: an internal failure that does not say whether the money moved: DESCONOCIDA, resolved
 *   only by a status query (DESIGN rule 3).
 * - `refresh_key`: EPIRWK, the WorkingKey was refused before anything ran: log on and retry once.
 * - `success` / `pending`: positive answers (000000, ISO ACCP / AC00).
 *
 * `family` overrides apply where one code means different things on different services (BNC reuses
 * ISO-8583 style G-codes with per-service wording).
 */
export type Disposition = 'reject' | 'not_processed' | 'unknown' | 'refresh_key' | 'success' | 'pending';

/** Which BNC service answered: the code lists differ by service. */
export type CodeFamily = 'p2p' | 'c2p' | 'simf' | 'query';

export interface CodeEntry {
  motivo: MotivoRechazo;
  disposition: Disposition;
  descripcion: string;
  family?: Partial<Record<CodeFamily, { motivo: MotivoRechazo; disposition: Disposition; descripcion: string }>>;
}

const reject = (motivo: MotivoRechazo, descripcion: string): CodeEntry => ({ motivo, disposition: 'reject', descripcion });
const auth = (descripcion: string): CodeEntry => ({ motivo: 'FIRMA_AUTH', disposition: 'reject', descripcion });
const notProcessed = (descripcion: string): CodeEntry => ({ motivo: 'BANCO_NO_DISPONIBLE', disposition: 'not_processed', descripcion });
const unknown = (descripcion: string): CodeEntry => ({ motivo: 'RECHAZO_TECNICO', disposition: 'unknown', descripcion });

export const BNC_CODES: Readonly<Record<string, CodeEntry>> = {
  '000000': { motivo: 'DESCONOCIDO', disposition: 'success', descripcion: 'Operación exitosa' },

  // ── General EPI codes [doc] ─────────────────────────────────────────────────────────────────
  // EPIRWK: the bank refused the WorkingKey before looking at the order: safe to log on and retry.
  EPIRWK: { motivo: 'FIRMA_AUTH', disposition: 'refresh_key', descripcion: 'Petición denegada por medidas de seguridad' },
  // Credential / configuration refusals: the request was rejected at the door, and nothing another
  // bank or a retry could fix; FIRMA_AUTH is never rerouted.
  EPICNF: auth('No es posible encontrar al cliente especificado, o el mismo no se encuentra activo'),
  EPIONA: auth('No cuenta con los permisos para realizar esta operación'),
  EPIHV: auth('Hash de la petición inválido'),
  EPIR02: auth('El ClientGUID dentro de la petición difiere del ClientGUID proveniente del objeto ApiRequest'),
  EPIMC1: auth('Cliente sin permisos del ChildClient'),
  EPIMC2: auth('Comercio no encontrado'),
  // The merchant's own accounts cannot be found: a set-up problem at the bank, not the payer's.
  EPIANF: auth('No se encontraron las cuentas del cliente'),
  // Our request failed the bank's model validation: refused before running, but deterministic,
  // so a rejection (our bug to fix) rather than a reroute.
  EPIIMS: reject('RECHAZO_TECNICO', 'El modelo recibido no cumple con las validaciones'),
  // Communication / internal codes. Only the ones whose wording places the failure before the order
  // was taken prove "not executed": the logon exception (no order is sent without a key), "could not
  // process your request", an exception validating the request or building the downstream request,
  // the merchant-account lookups done before debiting, the Novared GUID lookup done before routing.
  EPIR01: notProcessed('Excepción interna manejando solicitud de logon'),
  EPIR03: notProcessed('No se ha podido procesar su solicitud.'),
  EPIE03: notProcessed('Excepción validando la petición'),
  EPIEBR: notProcessed('Excepción agregando parámetros al request'),
  EPIAVF: notProcessed('Error de validación obteniendo cuentas del cliente'),
  EPICCA: notProcessed('Error de comunicación obteniendo cuentas del cliente'),
  EPIAVM: notProcessed('No se completó la validación de la cuenta'),
  EPIGN1: notProcessed('Excepción consultando el GUID de Novared'),
  EPIGN2: notProcessed('Excepción consultando el GUID de Novared'),
  // Failures that may come after the order reached the payment network or the ledger (an insert,
  // a delegated process, a downstream call, an unexpected downstream status): the money may have
  // moved, so the order is DESCONOCIDA until a status query says otherwise.
  EPIE00: unknown('Ha ocurrido un error interno'),
  EPIE02: unknown('Excepción interna en proceso delegado'),
  EPIKNF: unknown('Ha ocurrido un error interno'),
  EPIEDD: unknown('Error de comunicación'),
  EPIECP: unknown('Excepción al insertar transacción C2P'),
  EPIEMP: unknown('Excepción al insertar transacción P2P'),
  P2PEMP: unknown('Excepción al insertar transacción P2P'),
  EPIESF: unknown('Excepción ejecutando petición en cliente'),
  EPIURS: unknown('Status de respuesta inesperado a la petición'),

  // ── Pago Móvil (P2P) and C2P G-codes [doc] ──────────────────────────────────────────────────
  // These are ISO-8583 response codes from the interbank switch: a G-code is a decline, so the
  // operation did not run. The four BNC calls "problemas de comunicación, intente de nuevo" (G05,
  // G12, G91, G96; G91 is "emisor inoperativo" in C2P, G92 a routing error) are declines for reasons
  // outside the payer and beneficiary: not processed, a payout may go to another bank.
  G05: notProcessed('Existen problemas de comunicación, por favor intente de nuevo en unos minutos'),
  G12: notProcessed('Existen problemas de comunicación, por favor intente de nuevo en unos minutos'),
  G91: notProcessed('Emisor inoperativo / problemas de comunicación'),
  G92: notProcessed('Error de ruta'),
  G96: notProcessed('Mal funcionamiento del sistema / problemas de comunicación'),
  // "Es posible que el beneficiario no se encuentre afiliado": BNC's own reading of these declines
  // for Pago Móvil. In C2P G41 is "tarjeta extraviada": the payer's instrument is blocked.
  G14: reject('NO_AFILIADO_SERVICIO', 'Es posible que el beneficiario no se encuentre afiliado al servicio de Pago Móvil'),
  G41: {
    ...reject('NO_AFILIADO_SERVICIO', 'Es posible que el beneficiario no se encuentre afiliado al servicio de Pago Móvil'),
    family: { c2p: { motivo: 'CUENTA_BLOQUEADA', disposition: 'reject', descripcion: 'Tarjeta extraviada' } },
  },
  G43: reject('NO_AFILIADO_SERVICIO', 'Es posible que el beneficiario no se encuentre afiliado al servicio de Pago Móvil'),
  G52: reject('NO_AFILIADO_SERVICIO', 'El beneficiario no se encuentra afiliado al servicio de Pago Móvil'),
  // C2P: the payer's phone is not registered for Pago Móvil at his bank.
  G56: reject('NO_AFILIADO_SERVICIO', 'Tarjeta/Telf no registrado'),
  G51: reject('SALDO_INSUFICIENTE', 'Fondos insuficientes'),
  // C2P: the payer's key (OTP/"PIN") is wrong or expired; G38/G75 are too many wrong keys.
  G55: reject('OTP_INVALIDO', 'PIN/clave de pago incorrecta'),
  G38: reject('OTP_INVALIDO', 'PIN excedido'),
  G75: reject('OTP_INVALIDO', 'PIN excedido'),
  G61: reject('EXCEDE_LIMITE', 'Excede el límite de montos diarios'),
  G65: reject('EXCEDE_LIMITE', 'Excede el límite de cantidades de transacciones diarias'),
  G98: reject('EXCEDE_LIMITE', 'Excedido límite de efectivo'),
  // "Beneficiario restringido en el banco destino" / restricted card: the account cannot move money.
  G62: reject('CUENTA_BLOQUEADA', 'Beneficiario restringido en el banco destino'),
  G36: reject('CUENTA_BLOQUEADA', 'Tarjeta restringida'),
  G04: reject('CUENTA_BLOQUEADA', 'Retener tarjeta'),
  G80: reject('BENEFICIARIO_NO_COINCIDE', 'Cédula inválida del beneficiario'),
  G01: reject('BENEFICIARIO_NO_COINCIDE', 'Error en cédula'),
  // ISO-8583 13 is "invalid amount"; BNC's C2P list only says "Inválido".
  G13: reject('MONTO_INVALIDO', 'Inválido'),
  G59: reject('BLOQUEO_RIESGO', 'Sospecha de fraude'),
  G63: reject('BLOQUEO_RIESGO', 'Violación de seguridad'),
  G94: reject('DUPLICADA', 'Transacción duplicada'),
  G17: reject('CANCELADA_POR_PAGADOR', 'Cancelado'),
  // ISO-8583 90: cut-off in progress at the issuer.
  G90: reject('FUERA_DE_HORARIO', 'Suspensión en progreso'),
  G58: reject('CUENTA_NO_DEBITO', 'Transacción no permitida'),
  // ISO-8583 03 is "invalid merchant": our affiliation, not the payer's problem.
  G03: auth('Inválido (comercio)'),
  G02: reject('RECHAZO_TECNICO', 'Referirse a banco emisor'),
  G06: reject('RECHAZO_TECNICO', 'Error'),

  // ── ISO 20022 (Débito / Crédito Inmediato through SIMF) [doc, §5.2] ─────────────────────────
  ACCP: { motivo: 'DESCONOCIDO', disposition: 'success', descripcion: 'Operación aceptada' },
  AC00: { motivo: 'PENDIENTE_BCV', disposition: 'pending', descripcion: 'Operación en espera de respuesta del receptor' },
  // The 120 s window ran out: the CCE cancels, but whether the receiving bank acted is not said.
  AB01: unknown('Tiempo de espera agotado'),
  AB07: notProcessed('Agente fuera de línea'),
  AG10: notProcessed('Agente suspendido o excluido'),
  AC01: reject('CUENTA_NO_EXISTE', 'Número de cuenta incorrecto'),
  AC04: reject('CUENTA_NO_EXISTE', 'Cuenta cancelada'),
  RC08: reject('CUENTA_NO_EXISTE', 'Código del Banco no existe en el sistema de compensación / liquidación'),
  AC06: reject('CUENTA_BLOQUEADA', 'Cuenta bloqueada'),
  AC09: reject('MONTO_INVALIDO', 'Moneda no válida'),
  AM03: reject('MONTO_INVALIDO', 'Moneda no permitida'),
  CH20: reject('MONTO_INVALIDO', 'Número de decimales incorrecto'),
  AM02: reject('EXCEDE_LIMITE', 'Monto de la transacción no permitido'),
  AM04: reject('SALDO_INSUFICIENTE', 'Saldo insuficiente'),
  AM05: reject('DUPLICADA', 'Operación duplicada'),
  DU01: reject('DUPLICADA', 'Identificación de mensaje duplicado'),
  BE01: reject('BENEFICIARIO_NO_COINCIDE', 'Datos del cliente no corresponden a la cuenta'),
  CUST: reject('CANCELADA_POR_PAGADOR', 'Solicitud de cancelación realizada por el deudor'),
  TKCM: reject('OTP_INVALIDO', 'Código único de operación de aceptación de débito incorrecto'),
  DT03: reject('FUERA_DE_HORARIO', 'Fecha de procesamiento no bancaria no válida'),
  AG09: reject('RECHAZO_TECNICO', 'Pago no recibido'),
  BE20: reject('RECHAZO_TECNICO', 'Longitud del nombre inválida'),
  FF05: reject('RECHAZO_TECNICO', 'Código del producto incorrecto'),
  FF07: reject('RECHAZO_TECNICO', 'Código del subproducto incorrecto'),
  VE01: reject('RECHAZO_TECNICO', 'Rechazo técnico'),
  VE02: reject('RECHAZO_TECNICO', 'Error técnico de persistencia'),
  RJCT: reject('DESCONOCIDO', 'Operación rechazada'),
  MD15: reject('DESCONOCIDO', 'Rechazo'),
  // SIMF status query: no such operation. For an order this is "the bank has no such order".
  SMF001: { motivo: 'DESCONOCIDO', disposition: 'not_processed', descripcion: 'Operación no encontrada' },
};

export interface Classified {
  code: string | null;
  known: boolean;
  motivo: MotivoRechazo;
  disposition: Disposition;
  descripcion: string;
}

/** A code's meaning for one service; an unknown or missing code is unknown (a status query settles it), never a rejection. */
export function classify(code: string | null, family: CodeFamily): Classified {
  const entry = code === null ? undefined : BNC_CODES[code];
  if (!entry) return { code, known: false, motivo: 'DESCONOCIDO', disposition: 'unknown', descripcion: 'Código no reconocido' };
  const specific = entry.family?.[family];
  return { code, known: true, ...(specific ?? { motivo: entry.motivo, disposition: entry.disposition, descripcion: entry.descripcion }) };
}

// Longest first, so `EPIHV` wins over a 6-character cut of `EPIHVHash…`.
const KNOWN_BY_LENGTH = Object.keys(BNC_CODES).sort((a, b) => b.length - a.length);

/**
 * The code at the head of a `message` ("000000Consulta exitosa", "EPIRWKPetición…", "G51 Fondos
 * insuficientes"). The doc says 6 characters, yet EPIHV has 5 and G-codes 3, so a known code is
 * matched first, then `^([A-Z0-9]{3,6})` as PROTOCOLS advises.
 */
export function extractCode(message: string | null | undefined): string | null {
  if (!message) return null;
  const text = message.trimStart();
  for (const code of KNOWN_BY_LENGTH) if (text.startsWith(code)) return code;
  const m = /^([A-Z0-9]{3,6})/.exec(text);
  return m ? m[1]! : null;
}

/** The free text after the code. */
export function messageText(message: string, code: string | null): string {
  const text = message.trimStart();
  return (code && text.startsWith(code) ? text.slice(code.length) : text).trim();
}
