import {
  authRefusal,
  code,
  lookup,
  notFound,
  notProcessed,
  orderMeaning,
  rejects,
  type CodeEntry,
  type CodeTable,
  type Meaning,
} from '@switch/connector-kit/connector';
import type { MotivoRechazo } from '@switch/core/estados';

/**
 * BNC's answer codes → the switch's outcome (PROTOCOLS §1.5, §5.2), in the kit's `CodeTable` shape:
 * code → meaning → motivo, with its source (every code here is in BNC's published ESolutions doc or
 * the CCE's ISO 20022 list: `published`; what the emulator invents, e.g. G94 for a repeated
 * Reference, is marked in its README). One table, data only.
 *
 * What an order learns from the code (`Disposition`, derived from the entry by `classify`):
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
 * `BNC_FAMILY_CODES` override entries where one code means different things on different services
 * (BNC reuses ISO-8583 style G-codes with per-service wording).
 */
export type Disposition = 'reject' | 'not_processed' | 'unknown' | 'refresh_key' | 'success' | 'pending';

/** Which BNC service answered: the code lists differ by service. */
export type CodeFamily = 'p2p' | 'c2p' | 'simf' | 'query';

/** The code that means "log on again and retry once" (the WorkingKey was refused before anything ran). */
export const REFRESH_KEY = 'EPIRWK';

export const BNC_CODES: CodeTable = {
  '000000': code('settled', 'DESCONOCIDO', 'Operación exitosa', 'published'),

  // ── General EPI codes [doc] ─────────────────────────────────────────────────────────────────
  // EPIRWK: the bank refused the WorkingKey before looking at the order: safe to log on and retry.
  EPIRWK: authRefusal('Petición denegada por medidas de seguridad', 'published'),
  // Credential / configuration refusals: the request was rejected at the door, and nothing another
  // bank or a retry could fix; FIRMA_AUTH is never rerouted.
  EPICNF: authRefusal('No es posible encontrar al cliente especificado, o el mismo no se encuentra activo', 'published'),
  EPIONA: authRefusal('No cuenta con los permisos para realizar esta operación', 'published'),
  EPIHV: authRefusal('Hash de la petición inválido', 'published'),
  EPIR02: authRefusal('El ClientGUID dentro de la petición difiere del ClientGUID proveniente del objeto ApiRequest', 'published'),
  EPIMC1: authRefusal('Cliente sin permisos del ChildClient', 'published'),
  EPIMC2: authRefusal('Comercio no encontrado', 'published'),
  // The merchant's own accounts cannot be found: a set-up problem at the bank, not the payer's.
  EPIANF: authRefusal('No se encontraron las cuentas del cliente', 'published'),
  // Our request failed the bank's model validation: refused before running, but deterministic,
  // so a rejection (our bug to fix) rather than a reroute.
  EPIIMS: rejects('RECHAZO_TECNICO', 'El modelo recibido no cumple con las validaciones', 'published'),
  // Communication / internal codes. Only the ones whose wording places the failure before the order
  // was taken prove "not executed": the logon exception (no order is sent without a key), "could not
  // process your request", an exception validating the request or building the downstream request,
  // the merchant-account lookups done before debiting, the Novared GUID lookup done before routing.
  EPIR01: notProcessed('Excepción interna manejando solicitud de logon', 'published'),
  EPIR03: notProcessed('No se ha podido procesar su solicitud.', 'published'),
  EPIE03: notProcessed('Excepción validando la petición', 'published'),
  EPIEBR: notProcessed('Excepción agregando parámetros al request', 'published'),
  EPIAVF: notProcessed('Error de validación obteniendo cuentas del cliente', 'published'),
  EPICCA: notProcessed('Error de comunicación obteniendo cuentas del cliente', 'published'),
  EPIAVM: notProcessed('No se completó la validación de la cuenta', 'published'),
  EPIGN1: notProcessed('Excepción consultando el GUID de Novared', 'published'),
  EPIGN2: notProcessed('Excepción consultando el GUID de Novared', 'published'),
  // Failures that may come after the order reached the payment network or the ledger (an insert,
  // a delegated process, a downstream call, an unexpected downstream status): the money may have
  // moved, so the order is DESCONOCIDA until a status query says otherwise.
  EPIE00: code('unknown', 'RECHAZO_TECNICO', 'Ha ocurrido un error interno', 'published'),
  EPIE02: code('unknown', 'RECHAZO_TECNICO', 'Excepción interna en proceso delegado', 'published'),
  EPIKNF: code('unknown', 'RECHAZO_TECNICO', 'Ha ocurrido un error interno', 'published'),
  EPIEDD: code('unknown', 'RECHAZO_TECNICO', 'Error de comunicación', 'published'),
  EPIECP: code('unknown', 'RECHAZO_TECNICO', 'Excepción al insertar transacción C2P', 'published'),
  EPIEMP: code('unknown', 'RECHAZO_TECNICO', 'Excepción al insertar transacción P2P', 'published'),
  P2PEMP: code('unknown', 'RECHAZO_TECNICO', 'Excepción al insertar transacción P2P', 'published'),
  EPIESF: code('unknown', 'RECHAZO_TECNICO', 'Excepción ejecutando petición en cliente', 'published'),
  EPIURS: code('unknown', 'RECHAZO_TECNICO', 'Status de respuesta inesperado a la petición', 'published'),

  // ── Pago Móvil (P2P) and C2P G-codes [doc] ──────────────────────────────────────────────────
  // These are ISO-8583 response codes from the interbank switch: a G-code is a decline, so the
  // operation did not run. The four BNC calls "problemas de comunicación, intente de nuevo" (G05,
  // G12, G91, G96; G91 is "emisor inoperativo" in C2P, G92 a routing error) are declines for reasons
  // outside the payer and beneficiary: not processed, a payout may go to another bank.
  G05: notProcessed('Existen problemas de comunicación, por favor intente de nuevo en unos minutos', 'published'),
  G12: notProcessed('Existen problemas de comunicación, por favor intente de nuevo en unos minutos', 'published'),
  G91: notProcessed('Emisor inoperativo / problemas de comunicación', 'published'),
  G92: notProcessed('Error de ruta', 'published'),
  G96: notProcessed('Mal funcionamiento del sistema / problemas de comunicación', 'published'),
  // "Es posible que el beneficiario no se encuentre afiliado": BNC's own reading of these declines
  // for Pago Móvil. In C2P G41 is "tarjeta extraviada": the payer's instrument is blocked.
  G14: rejects('NO_AFILIADO_SERVICIO', 'Es posible que el beneficiario no se encuentre afiliado al servicio de Pago Móvil', 'published'),
  // In C2P G41 reads differently (BNC_FAMILY_CODES.c2p).
  G41: rejects('NO_AFILIADO_SERVICIO', 'Es posible que el beneficiario no se encuentre afiliado al servicio de Pago Móvil', 'published'),
  G43: rejects('NO_AFILIADO_SERVICIO', 'Es posible que el beneficiario no se encuentre afiliado al servicio de Pago Móvil', 'published'),
  G52: rejects('NO_AFILIADO_SERVICIO', 'El beneficiario no se encuentra afiliado al servicio de Pago Móvil', 'published'),
  // C2P: the payer's phone is not registered for Pago Móvil at his bank.
  G56: rejects('NO_AFILIADO_SERVICIO', 'Tarjeta/Telf no registrado', 'published'),
  G51: rejects('SALDO_INSUFICIENTE', 'Fondos insuficientes', 'published'),
  // C2P: the payer's key (OTP/"PIN") is wrong or expired; G38/G75 are too many wrong keys.
  G55: rejects('OTP_INVALIDO', 'PIN/clave de pago incorrecta', 'published'),
  G38: rejects('OTP_INVALIDO', 'PIN excedido', 'published'),
  G75: rejects('OTP_INVALIDO', 'PIN excedido', 'published'),
  G61: rejects('EXCEDE_LIMITE', 'Excede el límite de montos diarios', 'published'),
  G65: rejects('EXCEDE_LIMITE', 'Excede el límite de cantidades de transacciones diarias', 'published'),
  G98: rejects('EXCEDE_LIMITE', 'Excedido límite de efectivo', 'published'),
  // "Beneficiario restringido en el banco destino" / restricted card: the account cannot move money.
  G62: rejects('CUENTA_BLOQUEADA', 'Beneficiario restringido en el banco destino', 'published'),
  G36: rejects('CUENTA_BLOQUEADA', 'Tarjeta restringida', 'published'),
  G04: rejects('CUENTA_BLOQUEADA', 'Retener tarjeta', 'published'),
  G80: rejects('BENEFICIARIO_NO_COINCIDE', 'Cédula inválida del beneficiario', 'published'),
  G01: rejects('BENEFICIARIO_NO_COINCIDE', 'Error en cédula', 'published'),
  // ISO-8583 13 is "invalid amount"; BNC's C2P list only says "Inválido".
  G13: rejects('MONTO_INVALIDO', 'Inválido', 'published'),
  G59: rejects('BLOQUEO_RIESGO', 'Sospecha de fraude', 'published'),
  G63: rejects('BLOQUEO_RIESGO', 'Violación de seguridad', 'published'),
  G94: rejects('DUPLICADA', 'Transacción duplicada', 'published'),
  G17: rejects('CANCELADA_POR_PAGADOR', 'Cancelado', 'published'),
  // ISO-8583 90: cut-off in progress at the issuer.
  G90: rejects('FUERA_DE_HORARIO', 'Suspensión en progreso', 'published'),
  G58: rejects('CUENTA_NO_DEBITO', 'Transacción no permitida', 'published'),
  // ISO-8583 03 is "invalid merchant": our affiliation, not the payer's problem.
  G03: authRefusal('Inválido (comercio)', 'published'),
  G02: rejects('RECHAZO_TECNICO', 'Referirse a banco emisor', 'published'),
  G06: rejects('RECHAZO_TECNICO', 'Error', 'published'),

  // ── ISO 20022 (Débito / Crédito Inmediato through SIMF) [doc, §5.2] ─────────────────────────
  ACCP: code('settled', 'DESCONOCIDO', 'Operación aceptada', 'published'),
  AC00: code('pending', 'PENDIENTE_BCV', 'Operación en espera de respuesta del receptor', 'published'),
  // The 120 s window ran out: the CCE cancels, but whether the receiving bank acted is not said.
  AB01: code('unknown', 'RECHAZO_TECNICO', 'Tiempo de espera agotado', 'published'),
  AB07: notProcessed('Agente fuera de línea', 'published'),
  AG10: notProcessed('Agente suspendido o excluido', 'published'),
  AC01: rejects('CUENTA_NO_EXISTE', 'Número de cuenta incorrecto', 'published'),
  AC04: rejects('CUENTA_NO_EXISTE', 'Cuenta cancelada', 'published'),
  RC08: rejects('CUENTA_NO_EXISTE', 'Código del Banco no existe en el sistema de compensación / liquidación', 'published'),
  AC06: rejects('CUENTA_BLOQUEADA', 'Cuenta bloqueada', 'published'),
  AC09: rejects('MONTO_INVALIDO', 'Moneda no válida', 'published'),
  AM03: rejects('MONTO_INVALIDO', 'Moneda no permitida', 'published'),
  CH20: rejects('MONTO_INVALIDO', 'Número de decimales incorrecto', 'published'),
  AM02: rejects('EXCEDE_LIMITE', 'Monto de la transacción no permitido', 'published'),
  AM04: rejects('SALDO_INSUFICIENTE', 'Saldo insuficiente', 'published'),
  AM05: rejects('DUPLICADA', 'Operación duplicada', 'published'),
  DU01: rejects('DUPLICADA', 'Identificación de mensaje duplicado', 'published'),
  BE01: rejects('BENEFICIARIO_NO_COINCIDE', 'Datos del cliente no corresponden a la cuenta', 'published'),
  CUST: rejects('CANCELADA_POR_PAGADOR', 'Solicitud de cancelación realizada por el deudor', 'published'),
  TKCM: rejects('OTP_INVALIDO', 'Código único de operación de aceptación de débito incorrecto', 'published'),
  DT03: rejects('FUERA_DE_HORARIO', 'Fecha de procesamiento no bancaria no válida', 'published'),
  AG09: rejects('RECHAZO_TECNICO', 'Pago no recibido', 'published'),
  BE20: rejects('RECHAZO_TECNICO', 'Longitud del nombre inválida', 'published'),
  FF05: rejects('RECHAZO_TECNICO', 'Código del producto incorrecto', 'published'),
  FF07: rejects('RECHAZO_TECNICO', 'Código del subproducto incorrecto', 'published'),
  VE01: rejects('RECHAZO_TECNICO', 'Rechazo técnico', 'published'),
  VE02: rejects('RECHAZO_TECNICO', 'Error técnico de persistencia', 'published'),
  RJCT: rejects('DESCONOCIDO', 'Operación rechazada', 'published'),
  MD15: rejects('DESCONOCIDO', 'Rechazo', 'published'),
  // SIMF status query: no such operation. Said of an order it does not prove the order did not run:
  // unknown, then queried (the kit's rule), never a reroute.
  SMF001: notFound('Operación no encontrada', 'published'),
};

/** Per-service readings of a code, over `BNC_CODES`. */
export const BNC_FAMILY_CODES: Partial<Record<CodeFamily, CodeTable>> = {
  // In C2P G41 is "tarjeta extraviada": the payer's instrument is blocked.
  c2p: { G41: rejects('CUENTA_BLOQUEADA', 'Tarjeta extraviada', 'published') },
};

const DISPOSITION: Record<Meaning, Disposition> = {
  settled: 'success',
  accepted: 'success',
  pending: 'pending',
  rejected: 'reject',
  not_processed: 'not_processed',
  unknown: 'unknown',
};

export interface Classified {
  code: string | null;
  known: boolean;
  motivo: MotivoRechazo;
  disposition: Disposition;
  descripcion: string;
}

/** The kit entry of a code for one service (its family's reading first); undefined when neither lists it. */
export function entryOf(code: string | null, family: CodeFamily): CodeEntry | undefined {
  return lookup(BNC_FAMILY_CODES[family] ?? {}, code) ?? lookup(BNC_CODES, code);
}

/**
 * A code's meaning for one service; an unknown or missing code is unknown (a status query settles it),
 * never a rejection. Said of an order (`context: 'order'`) the kit's one rule applies (`orderMeaning`):
 * a "no such record" code is unknown, not a rejection nor a reroute.
 */
export function classify(code: string | null, family: CodeFamily, context: 'order' | 'answer' = 'answer'): Classified {
  const entry = entryOf(code, family);
  if (!entry) return { code, known: false, motivo: 'DESCONOCIDO', disposition: 'unknown', descripcion: 'Código no reconocido' };
  const meaning = context === 'order' ? orderMeaning(entry) : entry.meaning;
  const disposition = code === REFRESH_KEY ? 'refresh_key' : DISPOSITION[meaning];
  return { code, known: true, motivo: entry.motivo ?? 'DESCONOCIDO', disposition, descripcion: entry.descripcion };
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
