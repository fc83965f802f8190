import { account20, amount2, bankCode4, FormatError, phone11, text } from '@switch/connector-kit/formats';
import { decimalReference, type ReferenceBook } from '@switch/connector-kit/references';
import type { CobrarBody, PagarBody, TokenBody } from '@switch/core/contracts/operaciones';
import type { ExecuteOrder, StatusQuery } from '@switch/connector-kit/bank-port';
import type { PlazaRequest } from './protocol';

/**
 * Banco Plaza's requests built from the switch's orders: paths, field names and forms of
 * PROTOCOLS §2.4, and our instruments in the bank's forms (§2.1, §5.3). Nothing here does I/O but
 * the reference book. A value the bank cannot take is refused with a FormatError before anything is
 * sent.
 */

/** `V12345678` → `V00012345678`: the person-type letter and 11 zero-padded digits (12 characters). */
export function plazaId(identificacion: string): string {
  const m = /^([VEJGP])([0-9]{1,11})$/.exec(identificacion.trim().toUpperCase());
  if (!m) throw new FormatError(`identificación "${identificacion}" is not a letter V/E/J/G/P and digits`);
  return `${m[1]}${m[2]!.padStart(11, '0')}`;
}

/** v0 C2P phones: 10 digits without the leading 0 (`4141234567`). */
export function phone10(telefono: string): string {
  return phone11(telefono).slice(1);
}

/** `motivo`/`concepto` carry at most 35 characters at the bank. */
export const text35 = (value: string): string => text(value, 35);

/** `C` account or `T` phone, the bank's instrument-type letter. */
export function tipoInstrumento(tipo: 'cuenta' | 'telefono'): 'C' | 'T' {
  return tipo === 'cuenta' ? 'C' : 'T';
}

/** The merchant reference the bank takes: 12 digits (`referencia_c`, CCE `referencia`). */
export const REFERENCIA_DIGITS = 12;

/**
 * The 12-digit merchant reference of one attempt: the number the reference book assigns to its
 * orderRef in this merchant's scope (a sequence shared by every replica through the store), so two
 * orders never share one, and a status query finds the order's by its orderRef. Never a hash: 12
 * digits cannot hold the 128 bits of a transaction id.
 */
export async function referenciaFor(book: ReferenceBook, rif: string, orderRef: string): Promise<string> {
  return decimalReference(await book.assign(referenceScope(rif), orderRef), REFERENCIA_DIGITS);
}

/** The reference an attempt was given, or null when it never was (then it was never sent). */
export async function referenciaOf(book: ReferenceBook, rif: string, orderRef: string): Promise<string | null> {
  const n = await book.find(referenceScope(rif), orderRef);
  return n === null ? null : decimalReference(n, REFERENCIA_DIGITS);
}

const referenceScope = (rif: string): string => `banco_plaza:${rif}:referencia`;

/** The merchant's side of every order, from configuration (PROTOCOLS §2.4: `{rif}`, cobrador/origen account). */
export interface Merchant {
  /** The API client's RIF: the `{rif}` of the paths and the scope of the merchant references. */
  rif: string;
  /** RIF of the account's holder when it is not the API client (a merchant's registered account). */
  holderRif?: string;
  account: string;
  phone?: string;
  clientIp: string;
}

/** The channel every known integration sends (23 = botón de pago). */
export const CANAL = '23';
export const MONEDA = 'VES';

export const PATHS = {
  c2p: '/v0/pagos/c2p',
  tokenDI: '/v1/cce/debinm/tokenDI',
  cobroDI: '/v1/cce/debinm/cobroDI',
  consultarDI: '/v1/cce/debinm/consultarDI',
  pagoO: '/v1/cce/pagoO',
  consultaLiq: '/v1/cce/consultaLiq',
  p2p: '/v1/pagos/p2p',
  cuentas: '/v0/cuentas',
} as const;

/** The payer's identification fields of a Débito Inmediato (account `C` or phone `T`). */
function pagadorDI(pagador: TokenBody['pagador']): Record<string, unknown> {
  return {
    Tvalidacion_p: tipoInstrumento(pagador.tipo),
    identificacion_p: plazaId(pagador.identificacion),
    ...(pagador.tipo === 'cuenta' ? { cuenta_pagador: account20(pagador.valor) } : { telefono_pagador: phone11(pagador.valor) }),
    cod_banco_p: bankCode4(pagador.banco),
  };
}

/** `POST /v1/cce/debinm/tokenDI`: the bank sends the payer an OTP. */
export function tokenDI(body: TokenBody, m: Merchant): PlazaRequest {
  return {
    operation: 'tokenDI',
    method: 'POST',
    path: PATHS.tokenDI,
    signPath: PATHS.tokenDI,
    body: {
      moneda: MONEDA,
      canal: CANAL,
      ...pagadorDI(body.pagador),
      cuenta_cobrador: account20(m.account),
      monto: amount2(body.monto.valor),
      direccion_ip: m.clientIp,
    },
  };
}

/** `POST /v1/cce/debinm/cobroDI/{rif}`: the immediate debit with the OTP; `referencia_c` names the attempt. */
export function cobroDI(referencia: string, body: CobrarBody, m: Merchant): PlazaRequest {
  return {
    operation: 'cobroDI',
    method: 'POST',
    path: `${PATHS.cobroDI}/${plazaId(m.rif)}`,
    signPath: PATHS.cobroDI,
    body: {
      moneda: MONEDA,
      canal: CANAL,
      ...pagadorDI(body.pagador),
      cuenta_cobrador: account20(m.account),
      identificacion_b: plazaId(m.holderRif ?? m.rif),
      nombre_p: body.pagador.nombre,
      monto: amount2(body.monto.valor),
      concepto: text35(body.concepto),
      Token_p: body.otp,
      referencia_c: referencia,
      direccion_ip: m.clientIp,
    },
  };
}

/** `POST /v0/pagos/c2p`: collection with the key the payer got from his own bank (phones without the 0). */
export function c2p(body: CobrarBody, m: Merchant): PlazaRequest {
  if (body.pagador.tipo !== 'telefono') throw new FormatError('C2P needs the payer as a phone', 'NO_SOPORTADO');
  const cobrador = m.phone ?? (body.cobrador.tipo === 'telefono' ? body.cobrador.valor : undefined);
  return {
    operation: 'c2p',
    method: 'POST',
    path: PATHS.c2p,
    signPath: PATHS.c2p,
    body: {
      banco: bankCode4(body.pagador.banco),
      id: plazaId(body.pagador.identificacion),
      telefonoPagador: phone10(body.pagador.valor),
      monto: amount2(body.monto.valor),
      token: body.otp,
      ...(cobrador ? { telefonoCobrador: phone10(cobrador) } : {}),
      motivo: text35(body.concepto),
    },
  };
}

/** `DELETE /v0/pagos/c2p/{referencia}`: reverses a C2P collection. */
export function reversoC2P(referencia: string): PlazaRequest {
  return { operation: 'reversoC2P', method: 'DELETE', path: `${PATHS.c2p}/${encodeURIComponent(referencia)}`, signPath: PATHS.c2p };
}

/** `tipo_proposito` of a CCE credit: only 220 is seen in public integrations; all purposes use it until the bank says otherwise. */
const PROPOSITO_CCE: Readonly<Record<NonNullable<PagarBody['proposito']>, string>> = {
  transferencia: '220',
  nomina: '220',
  proveedor: '220',
};

/** `POST /v1/cce/pagoO/{rif}`: Crédito Inmediato from the merchant's account; `referencia` names the attempt. */
export function pagoO(referencia: string, body: PagarBody, m: Merchant): PlazaRequest {
  const b = body.beneficiario;
  return {
    operation: 'pagoO',
    method: 'POST',
    path: `${PATHS.pagoO}/${plazaId(m.rif)}`,
    signPath: PATHS.pagoO,
    body: {
      moneda: MONEDA,
      canal: CANAL,
      tipo_cce: 'E',
      tipo_proposito: PROPOSITO_CCE[body.proposito ?? 'transferencia'],
      tipo_instrumento_b: tipoInstrumento(b.tipo),
      identificacion_o: plazaId(m.holderRif ?? m.rif),
      cuenta_origen: account20(m.account),
      cod_banco_d: '0138',
      nombre_d: body.ordenante.nombre,
      identificacion_b: plazaId(b.identificacion),
      cod_banco_a: bankCode4(b.banco),
      nombre_a: b.nombre,
      ...(b.tipo === 'cuenta' ? { cuenta_destino: account20(b.valor) } : { telefono: phone11(b.valor) }),
      monto: amount2(body.monto.valor),
      concepto: text35(body.concepto),
      referencia,
      direccion_ip: m.clientIp,
    },
  };
}

/** `POST /v1/pagos/p2p/{rif}`: pago móvil payout; `idExterno` is the bank's duplicate guard. */
export function p2p(order: ExecuteOrder, body: PagarBody, m: Merchant): PlazaRequest {
  const b = body.beneficiario;
  if (b.tipo !== 'telefono') throw new FormatError('pago móvil needs the beneficiary as a phone', 'NO_SOPORTADO');
  const afiliado = m.phone ?? (body.ordenante.tipo === 'telefono' ? body.ordenante.valor : undefined);
  if (!afiliado) throw new FormatError('no affiliated phone: set PLAZA_<MODE>_PHONE', 'FIRMA_AUTH');
  return {
    operation: 'p2p',
    method: 'POST',
    path: `${PATHS.p2p}/${plazaId(m.rif)}`,
    signPath: PATHS.p2p,
    body: {
      banco: bankCode4(b.banco),
      idBeneficiario: plazaId(b.identificacion),
      telefono: phone11(b.valor),
      telefonoAfiliado: phone11(afiliado),
      monto: amount2(body.monto.valor),
      motivo: text35(body.concepto),
      canal: CANAL,
      moneda: MONEDA,
      cuenta: account20(m.account),
      idExterno: order.orderRef,
      ipCliente: m.clientIp,
    },
  };
}

/** `GET /v1/cce/debinm/consultarDI/{rif}?…`: state of an immediate debit, by our reference (and end-to-end when known). */
export function consultarDI(q: StatusQuery, referencia: string, m: Merchant): PlazaRequest {
  return {
    operation: 'consultarDI',
    method: 'GET',
    path: `${PATHS.consultarDI}/${plazaId(m.rif)}`,
    signPath: PATHS.consultarDI,
    query: { cuenta_cobrador: m.account, endtoend: q.endtoend ?? '', referencia_c: referencia, monto: '0.00', canal: CANAL },
  };
}

/** `GET /v1/cce/consultaLiq/{rif}?…`: settlement of a Crédito Inmediato, by our reference. */
export function consultaLiq(_q: StatusQuery, referencia: string, m: Merchant): PlazaRequest {
  return {
    operation: 'consultaLiq',
    method: 'GET',
    path: `${PATHS.consultaLiq}/${plazaId(m.rif)}`,
    signPath: PATHS.consultaLiq,
    query: { cuenta: m.account, referencia, monto: '0.00', canal: CANAL },
  };
}

/** `GET /v0/pagos/c2p/{rif}/{referencia}` [inf, shape INV]: a C2P by the bank's reference. */
export function consultaC2P(referencia: string, m: Merchant): PlazaRequest {
  return {
    operation: 'consultaC2P',
    method: 'GET',
    path: `${PATHS.c2p}/${plazaId(m.rif)}/${encodeURIComponent(referencia)}`,
    signPath: PATHS.c2p,
  };
}

/** `GET /v1/pagos/p2p/{rif}/{idExterno}` [INV]: a sent pago móvil by its idExterno. */
export function consultaP2P(orderRef: string, m: Merchant): PlazaRequest {
  return {
    operation: 'consultaP2P',
    method: 'GET',
    path: `${PATHS.p2p}/${plazaId(m.rif)}/${encodeURIComponent(orderRef)}`,
    signPath: PATHS.p2p,
    query: { canal: CANAL },
  };
}

/** `GET /v0/cuentas/{cuenta}/movimientos?moneda=&fechaInicio=&fechafin=`: statement and available balance. */
export function movimientos(cuenta: string, desde: string, hasta: string): PlazaRequest {
  return {
    operation: 'movimientos',
    method: 'GET',
    path: `${PATHS.cuentas}/${account20(cuenta)}/movimientos`,
    signPath: `${PATHS.cuentas}`,
    query: { moneda: MONEDA, fechaInicio: desde, fechafin: hasta },
  };
}

/**
 * `POST /v0/cuentas/operaciones/{rif}` [shape INV]: the account's credits (`naturaleza` C) of one day,
 * and with `referencia` only those whose reference ends in it: Plaza's search of operations by reference.
 */
export function operaciones(cuenta: string, fecha: string, referencia: string | undefined, m: Merchant): PlazaRequest {
  return {
    operation: 'operaciones',
    method: 'POST',
    path: `${PATHS.cuentas}/operaciones/${plazaId(m.rif)}`,
    signPath: `${PATHS.cuentas}/operaciones`,
    body: {
      rif_cliente: plazaId(m.rif),
      cuenta: account20(cuenta),
      moneda: MONEDA,
      naturaleza: 'C',
      fechaInicio: fecha,
      fechaFin: fecha,
      canal: CANAL,
      ...(referencia ? { referencia } : {}),
      direccion_ip: m.clientIp,
    },
  };
}
