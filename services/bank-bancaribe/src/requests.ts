import { amountText, caracasDate, FormatError, fromDdMmYyyy, idParts, phone11, phone58, toDdMmYyyy } from '@switch/connector-kit/formats';
import type { CobrarBody, PagarBody } from '@switch/core/contracts/operaciones';

/**
 * Bancaribe's requests: the bodies of its services built from our operations (pure: no I/O, no
 * clock), and our instruments in Bancaribe's forms (and its figures back in ours).
 *
 * Seen in public integrations [code]: phones travel as our 11 digits (`04141234114`), natural
 * persons as letter + digits (`V12345114`), legal entities (RIF) as letter + 9 digits zero-padded
 * (`J000012114`), amounts as strings with a dot and 2 decimals (`"5.00"`), currency 928.
 * Invented [INV]: statement dates `dd/MM/yyyy`; crédito inmediato to a phone as `58` + 10 digits
 * (the CCE's CELE form, PROTOCOLS §5.1).
 */

/** ISO 4217 numeric code of the bolívar, as Bancaribe sends it in `codigoMoneda`. */
export const CODIGO_MONEDA_VES = 928;

/** Bancaribe's own central-bank code: `bancoCredito` of a C2P, `bancoPagador` of a payout. */
export const CODIGO_BANCARIBE = '0114';

/** Our 11-digit phone is already Bancaribe's form; checked so a bad value never reaches the bank. */
export const telefono = phone11;

/** A phone as the CCE's CELE instrument: country code 58 instead of the leading 0. */
export const telefonoCele = phone58;

/**
 * Persons keep their number as given (`V12345114`); legal entities and government (J, G) use the
 * RIF form of 9 zero-padded digits (`J000012114`).
 */
export function identificacion(valor: string): string {
  const { letter, digits } = idParts(valor, 9);
  return letter === 'J' || letter === 'G' ? `${letter}${digits.padStart(9, '0')}` : `${letter}${digits}`;
}

/** Amounts as Bancaribe writes them: dot decimal, always 2 decimals, no grouping. */
export function monto(valor: number): string {
  return amountText(valor, '.');
}

/** An amount from the bank: a JSON number or a dot-decimal string. Null when it is neither. */
export function parseMonto(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.round(value * 100) / 100 : null;
  if (typeof value === 'string' && /^-?[0-9]+(\.[0-9]{1,2})?$/.test(value.trim())) return Math.round(Number(value.trim()) * 100) / 100;
  return null;
}

/** `YYYY-MM-DD` (ours) → `dd/MM/yyyy` (Bancaribe's statements, [INV]). */
export const fechaBanco = toDdMmYyyy;

/** `dd/MM/yyyy` (Bancaribe's) → `YYYY-MM-DD`; null when it is not such a date. */
export function fechaIso(banco: unknown): string | null {
  return typeof banco === 'string' && /^[0-9]{2}\/[0-9]{2}\/[0-9]{4}$/.test(banco.trim()) ? fromDdMmYyyy(banco) : null;
}

/** Today's date in Caracas (UTC-4, no daylight saving), where the bank's day turns (the kit's). */
export { caracasDate, FormatError };

/** The merchant as Bancaribe knows it: affiliation data issued with the API credentials. */
export interface Comercio {
  rif: string;
  telefono: string;
  cuenta: string;
  nombre: string;
  /** `clienteHash` / `hash`: the merchant's static GUID issued by the bank. */
  hash: string;
  /** `direccionInternet` / `requestIP` / `ipOrigen`. */
  ip: string;
  terminal: string;
}

/** `tipoTrx` of the payment query: our own C2P collections and payouts [INV] ("PM" [code] is received pago móvil). */
export type TipoTrx = 'C2P' | 'B2P';

// ---------------------------------------------------------------------------------------------
// Requests

/**
 * The C2P service's request [code]: the merchant's side, the same in a collection and in its void,
 * around what each adds. `numeroReferencia` carries our order reference, the bank's duplicate guard [INV].
 */
function c2pService(
  ref: string,
  comercio: Comercio,
  token: string,
  concepto: string,
  own: Record<string, unknown>,
): Record<string, unknown> {
  return {
    request: {
      identificadorExterno: token,
      direccionInternet: comercio.ip,
      rif: identificacion(comercio.rif),
      telefonoCredito: telefono(comercio.telefono),
      nombreComercio: comercio.nombre,
      bancoCredito: CODIGO_BANCARIBE,
      canalVirtual: 1,
      codigoMoneda: CODIGO_MONEDA_VES,
      sucursal: 1,
      cajaTerminal: comercio.terminal,
      tipoTerminal: 'WEB',
      concepto,
      vendedor: 1,
      ...own,
      numeroReferencia: ref,
    },
  };
}

/** C2P collection [code]. */
export function c2pRequest(ref: string, comercio: Comercio, token: string, body: CobrarBody): Record<string, unknown> {
  return c2pService(ref, comercio, token, body.concepto, {
    identificadorPersona: identificacion(body.pagador.identificacion),
    telefonoPersona: telefono(body.pagador.valor),
    otp: body.otp,
    bancoPagador: body.pagador.banco,
    montoTransaccion: monto(body.monto.valor),
    anulacion: 'N',
  });
}

/**
 * Voiding a C2P: the same service with `anulacion: "S"` [inf]. The payment to void is named by its
 * `secuencial` in `secuencialOriginal` [INV]; `numeroReferencia` is this void's own reference.
 */
export function anulacionRequest(
  ref: string,
  comercio: Comercio,
  token: string,
  secuencialOriginal: string,
  concepto: string,
): Record<string, unknown> {
  return c2pService(ref, comercio, token, concepto, { anulacion: 'S', secuencialOriginal });
}

/** Pago móvil payout ("vuelto", Pago a Personas) [code], flat; `factura` carries our order reference. */
export function pagoB2pRequest(ref: string, comercio: Comercio, body: PagarBody): Record<string, unknown> {
  return {
    direccionInternet: comercio.ip,
    bancoCredito: body.beneficiario.banco,
    bancoPagador: CODIGO_BANCARIBE,
    cajaTerminal: comercio.terminal,
    canalVirtual: '1',
    codigoMoneda: CODIGO_MONEDA_VES,
    concepto: body.concepto,
    identificadorPersona: identificacion(body.beneficiario.identificacion),
    montoTransaccion: monto(body.monto.valor),
    nombreComercio: comercio.nombre,
    oficina: 800,
    rif: identificacion(comercio.rif),
    sucursal: 1,
    telefonoDebito: telefono(comercio.telefono),
    telefonoCredito: telefono(body.beneficiario.valor),
    tipoTerminal: 'WEB',
    vendedor: 1,
    factura: ref,
  };
}

/** Crédito inmediato [code]; `numeroReferencia` is our [INV] addition (the bank's duplicate guard). */
export function creditoRequest(ref: string, comercio: Comercio, token: string, body: PagarBody): Record<string, unknown> {
  const destino = body.beneficiario;
  return {
    requestIniciarCredInmediato: {
      bancoDestino: destino.banco,
      cedulaRifBeneficiario: identificacion(destino.identificacion),
      cedulaRifEmisor: identificacion(comercio.rif),
      concepto: body.concepto,
      cuentaDestino: destino.tipo === 'cuenta' ? destino.valor : telefonoCele(destino.valor),
      monedaDestino: '0',
      hash: comercio.hash,
      identificadorExterno: token,
      ipOrigen: comercio.ip,
      monto: monto(body.monto.valor),
      nombreBeneficiario: destino.nombre,
      nombreEmisor: comercio.nombre,
      terminal: comercio.terminal,
      tipoCtaCele: destino.tipo === 'cuenta' ? 'CNTA' : 'CELE',
      numeroReferencia: ref,
    },
  };
}

/** The payment query [code] asked for one of our own operations by reference [INV]. */
export function consultaPagoRequest(comercio: Comercio, tipoTrx: TipoTrx, secuencial: string | null, ref: string): Record<string, unknown> {
  return {
    rif: identificacion(comercio.rif),
    identificadorPersona: null,
    telefonoDebito: telefono(comercio.telefono),
    montoTransaccion: null,
    referencia: secuencial,
    factura: ref,
    tipoTrx,
    fecha: null,
  };
}

/** Status of a crédito inmediato [INV]: by the bank's `secuencial` when known, else by our reference. */
export function consultaCreditoRequest(comercio: Comercio, token: string, secuencial: string | null, ref: string): Record<string, unknown> {
  return {
    requestConsultarCredInmediato: {
      identificadorExterno: token,
      hash: comercio.hash,
      cedulaRifEmisor: identificacion(comercio.rif),
      secuencial,
      referencia: ref,
    },
  };
}

export function saldoRequest(comercio: Comercio, cuenta: string): Record<string, unknown> {
  return {
    canal: 'API',
    clienteRIF: identificacion(comercio.rif),
    clienteHash: comercio.hash,
    numeroCuenta: cuenta,
    requestIP: comercio.ip,
  };
}

/** [INV] the balance request plus a date range in the bank's `dd/MM/yyyy`. */
export function movimientosRequest(comercio: Comercio, cuenta: string, fechaDesde: string, fechaHasta: string): Record<string, unknown> {
  return { ...saldoRequest(comercio, cuenta), fechaDesde, fechaHasta };
}
