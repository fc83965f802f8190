import type { CobrarBody, ExecuteOrder, Movimiento, PagarBody, StatusQuery, TokenBody } from '@switch/shared';
import {
  account20,
  amount,
  bankCode,
  fechaFromPlaza,
  FormatError,
  horaFromPlaza,
  montoFromPlaza,
  naturalezaFromPlaza,
  phone10,
  phone11,
  plazaId,
  referenciaFor,
  texto35,
  tipoInstrumento,
} from './formats';

/**
 * Banco Plaza's requests built from the switch's orders, and its bodies read back (the Hyperswitch
 * "transformers"): paths, field names and forms of PROTOCOLS §2.4. Nothing here does I/O.
 */

/** The merchant's side of every order, from configuration (PROTOCOLS §2.4: `{rif}`, cobrador/origen account). */
export interface Merchant {
  rif: string;
  account: string;
  phone?: string;
  clientIp: string;
}

/** One call to the bank: what to send and what to sign. */
export interface PlazaRequest {
  /** The breaker this call goes through (one per bank endpoint). */
  operation: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path with its parameters, without the query string. */
  path: string;
  /** The base path the signature covers (no trailing `/{id}`). */
  signPath: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
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
    cod_banco_p: bankCode(pagador.banco),
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
      monto: amount(body.monto.valor),
      direccion_ip: m.clientIp,
    },
  };
}

/** `POST /v1/cce/debinm/cobroDI/{rif}`: the immediate debit with the OTP; `referencia_c` names the attempt. */
export function cobroDI(order: ExecuteOrder, body: CobrarBody, m: Merchant): PlazaRequest {
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
      identificacion_b: plazaId(m.rif),
      nombre_p: body.pagador.nombre,
      monto: amount(body.monto.valor),
      concepto: texto35(body.concepto),
      Token_p: body.otp,
      referencia_c: referenciaFor(order.orderRef),
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
      banco: bankCode(body.pagador.banco),
      id: plazaId(body.pagador.identificacion),
      telefonoPagador: phone10(body.pagador.valor),
      monto: amount(body.monto.valor),
      token: body.otp,
      ...(cobrador ? { telefonoCobrador: phone10(cobrador) } : {}),
      motivo: texto35(body.concepto),
    },
  };
}

/** `DELETE /v0/pagos/c2p/{referencia}`: reverses a C2P collection. */
export function reversoC2P(referencia: string): PlazaRequest {
  return { operation: 'reversoC2P', method: 'DELETE', path: `${PATHS.c2p}/${encodeURIComponent(referencia)}`, signPath: PATHS.c2p };
}

/** `tipo_proposito` of a CCE credit: only 220 is seen in public integrations; all purposes use it until the bank says otherwise. */
const PROPOSITO_CCE: Readonly<Record<NonNullable<PagarBody['proposito']>, string>> = { transferencia: '220', nomina: '220', proveedor: '220' };

/** `POST /v1/cce/pagoO/{rif}`: Crédito Inmediato from the merchant's account; `referencia` names the attempt. */
export function pagoO(order: ExecuteOrder, body: PagarBody, m: Merchant): PlazaRequest {
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
      identificacion_o: plazaId(m.rif),
      cuenta_origen: account20(m.account),
      cod_banco_d: '0138',
      nombre_d: body.ordenante.nombre,
      identificacion_b: plazaId(b.identificacion),
      cod_banco_a: bankCode(b.banco),
      nombre_a: b.nombre,
      ...(b.tipo === 'cuenta' ? { cuenta_destino: account20(b.valor) } : { telefono: phone11(b.valor) }),
      monto: amount(body.monto.valor),
      concepto: texto35(body.concepto),
      referencia: referenciaFor(order.orderRef),
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
      banco: bankCode(b.banco),
      idBeneficiario: plazaId(b.identificacion),
      telefono: phone11(b.valor),
      telefonoAfiliado: phone11(afiliado),
      monto: amount(body.monto.valor),
      motivo: texto35(body.concepto),
      canal: CANAL,
      moneda: MONEDA,
      cuenta: account20(m.account),
      idExterno: order.orderRef,
      ipCliente: m.clientIp,
    },
  };
}

/** `GET /v1/cce/debinm/consultarDI/{rif}?…`: state of an immediate debit, by our reference (and end-to-end when known). */
export function consultarDI(q: StatusQuery, m: Merchant): PlazaRequest {
  return {
    operation: 'consultarDI',
    method: 'GET',
    path: `${PATHS.consultarDI}/${plazaId(m.rif)}`,
    signPath: PATHS.consultarDI,
    query: { cuenta_cobrador: m.account, endtoend: q.endtoend ?? '', referencia_c: referenciaFor(q.orderRef), monto: '0.00', canal: CANAL },
  };
}

/** `GET /v1/cce/consultaLiq/{rif}?…`: settlement of a Crédito Inmediato, by our reference. */
export function consultaLiq(q: StatusQuery, m: Merchant): PlazaRequest {
  return {
    operation: 'consultaLiq',
    method: 'GET',
    path: `${PATHS.consultaLiq}/${plazaId(m.rif)}`,
    signPath: PATHS.consultaLiq,
    query: { cuenta: m.account, referencia: referenciaFor(q.orderRef), monto: '0.00', canal: CANAL },
  };
}

/** `GET /v0/pagos/c2p/{rif}/{referencia}` [inf, shape INV]: a C2P by the bank's reference. */
export function consultaC2P(referencia: string, m: Merchant): PlazaRequest {
  return { operation: 'consultaC2P', method: 'GET', path: `${PATHS.c2p}/${plazaId(m.rif)}/${encodeURIComponent(referencia)}`, signPath: PATHS.c2p };
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

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const asString = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

/** A string field of a bank body, or null. */
export function field(body: unknown, ...names: string[]): string | null {
  const r = asRecord(body);
  for (const n of names) {
    const v = asString(r[n]);
    if (v !== null) return v;
  }
  return null;
}

export interface Statement {
  saldoDisponible: number | null;
  saldoContable: number | null;
  saldoBloqueado: number | null;
  movimientos: Movimiento[];
}

/** The movements body read into our shapes, oldest first (the bank's order is not documented). */
export function readStatement(body: unknown): Statement {
  const r = asRecord(body);
  const number = (v: unknown): number | null => {
    try {
      return v === undefined || v === null ? null : montoFromPlaza(v);
    } catch {
      return null;
    }
  };
  const list = Array.isArray(r.movimientos) ? r.movimientos : [];
  const movimientos = list.map((item): Movimiento => {
    const m = asRecord(item);
    const monto = montoFromPlaza(m.monto);
    return {
      fecha: fechaFromPlaza(String(m.fecha ?? '')),
      hora: horaFromPlaza(m.hora),
      referencia: asString(m.referencia) ?? '',
      concepto: asString(m.concepto) ?? asString(m.descripcion) ?? '',
      tipo: naturalezaFromPlaza(m.naturaleza ?? m.tipo, monto),
      monto: Math.abs(monto),
      saldo: number(m.saldo),
    };
  });
  const key = (m: Movimiento) => `${m.fecha} ${m.hora ?? '00:00:00'}`;
  const ordered = movimientos.map((m, i) => ({ m, i })).sort((a, b) => (key(a.m) < key(b.m) ? -1 : key(a.m) > key(b.m) ? 1 : a.i - b.i));
  return {
    saldoDisponible: number(r.saldoDisponible),
    saldoContable: number(r.saldoContable),
    saldoBloqueado: number(r.saldoBloqueado),
    movimientos: ordered.map((x) => x.m),
  };
}
