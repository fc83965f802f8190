import { amountText, caracasDate, fromDdMmYyyy, parseAmount, phone58, phoneFrom58, toDdMmYyyy } from '@switch/connector-kit/formats';
import type { CobrarBody, PagarBody, TokenBody } from '@switch/core/contracts/operaciones';
import type { Instrumento } from '@switch/core/contracts/fields';
import type { StatusQuery } from '@switch/connector-kit/bank-port';

/**
 * Banco Activo's requests: the bodies of its services, built from the switch's orders (the "transformers" of a
 * Hyperswitch connector). C2P and P2P field names are seen in public code [code]; the rest follow
 * PROTOCOLS §4.1 [INV]. Every money order carries `locator` = the switch's orderRef: the bank answers a
 * repeated locator with the original result instead of running it again.
 */

export interface Merchant {
  rif: string;
  cuenta?: string;
  telefono?: string;
  usuario?: string;
  ip?: string;
}

export type Body = Record<string, string>;

/** A request the switch refuses to send, with the reason (kept in `raw`). */
export interface Unsendable {
  unsendable: string;
  /** A missing merchant setting is a configuration problem (FIRMA_AUTH); a wrong instrument is not supported. */
  motivo: 'NO_SOPORTADO' | 'FIRMA_AUTH';
}

export const isUnsendable = (b: Body | Unsendable): b is Unsendable => Object.hasOwn(b, 'unsendable');

const payer = (p: Instrumento): Body => ({
  cedula_pago: cedulaActivo(p.identificacion),
  nombre_pago: p.nombre,
  ...instrumentoActivo('pago', p),
  bco_pago: p.banco,
});

/** Débito inmediato step 1: the payer's bank sends him an OTP [INV]. */
export function otpRequest(body: TokenBody, locator: string, m: Merchant): Body {
  return {
    rif_comercio: cedulaActivo(m.rif),
    ...payer(body.pagador),
    monto: montoActivo(body.monto.valor),
    concepto: body.concepto,
    locator,
  };
}

/** Débito inmediato step 2: the debit, naming the OTP request it answers (`id_solicitud`) [INV]. */
export function debitoRequest(body: CobrarBody, idSolicitud: string, locator: string, m: Merchant): Body {
  const cuentaComercio = body.cobrador.tipo === 'cuenta' ? body.cobrador.valor : m.cuenta;
  return {
    id_solicitud: idSolicitud,
    otp: body.otp,
    ...payer(body.pagador),
    monto: montoActivo(body.monto.valor),
    concepto: body.concepto,
    locator,
    rif_comercio: cedulaActivo(m.rif),
    ...(cuentaComercio ? { cuenta_comercio: cuentaComercio } : {}),
  };
}

/** Cobro C2P: the payer's phone and the key his bank gave him [code]. */
export function c2pRequest(body: CobrarBody, locator: string, m: Merchant): Body | Unsendable {
  if (body.pagador.tipo !== 'telefono')
    return { unsendable: 'C2P collects from a phone (pago móvil); the payer is an account', motivo: 'NO_SOPORTADO' };
  const telefono = body.cobrador.tipo === 'telefono' ? body.cobrador.valor : m.telefono;
  if (!telefono)
    return { unsendable: 'no merchant phone for C2P: the cobrador is an account and ACTIVO_<MODE>_PHONE is not set', motivo: 'FIRMA_AUTH' };
  return {
    usuario: m.usuario ?? cedulaActivo(m.rif),
    rif_comercio: cedulaActivo(m.rif),
    telefono_comercio: telefonoActivo(telefono),
    area_origen: telefono.slice(0, 4),
    ip: m.ip ?? '127.0.0.1',
    monto: montoActivo(body.monto.valor),
    cedula_pago: cedulaActivo(body.pagador.identificacion),
    telefono_pago: telefonoActivo(body.pagador.valor),
    bco_pago: body.pagador.banco,
    motivo: body.concepto,
    otp: body.otp,
    locator,
  };
}

/** Pago móvil payout ("vuelto") from the merchant's phone [code]. */
export function p2pRequest(body: PagarBody, locator: string, m: Merchant): Body | Unsendable {
  if (body.beneficiario.tipo !== 'telefono')
    return { unsendable: 'pago móvil pays to a phone; the beneficiary is an account', motivo: 'NO_SOPORTADO' };
  const telefono = body.ordenante.tipo === 'telefono' ? body.ordenante.valor : m.telefono;
  if (!telefono)
    return {
      unsendable: 'no merchant phone for P2P: the ordenante is an account and ACTIVO_<MODE>_PHONE is not set',
      motivo: 'FIRMA_AUTH',
    };
  return {
    usuario: m.usuario ?? cedulaActivo(m.rif),
    cedula_pagador: cedulaActivo(m.rif),
    telefono_pagador: telefonoActivo(telefono),
    area_origen: telefono.slice(0, 4),
    ip: m.ip ?? '127.0.0.1',
    monto: montoActivo(body.monto.valor),
    cedula_benef: cedulaActivo(body.beneficiario.identificacion),
    telefono_benef: telefonoActivo(body.beneficiario.valor),
    bco_benef: body.beneficiario.banco,
    motivo: body.concepto,
    tipo_cuenta: '001',
    locator,
  };
}

/** Crédito inmediato to an account (CNTA) or phone (CELE) [INV]. */
export function creditoRequest(body: PagarBody, locator: string, m: Merchant): Body {
  const b = body.beneficiario;
  const cuentaOrdenante = body.ordenante.tipo === 'cuenta' ? body.ordenante.valor : m.cuenta;
  return {
    cedula_benef: cedulaActivo(b.identificacion),
    nombre_benef: b.nombre,
    ...instrumentoActivo('benef', b),
    tipo_instrumento: tipoInstrumento(b),
    bco_benef: b.banco,
    monto: montoActivo(body.monto.valor),
    concepto: body.concepto,
    locator,
    rif_comercio: cedulaActivo(m.rif),
    ...(cuentaOrdenante ? { cuenta_ordenante: cuentaOrdenante } : {}),
  };
}

/** Status of an order: always by locator (known even when the answer was lost) [INV]. */
export function operacionRequest(query: StatusQuery): Body {
  return {
    locator: query.orderRef,
    ...(query.referencia ? { nroReferencia: query.referencia } : {}),
    ...(query.endtoend ? { endtoend: query.endtoend } : {}),
  };
}

// ── Instrument forms ─────────────────────────────────────────────────────────────────────────

/**
 * Our instrument forms → Banco Activo's, and back. Only the comma-decimal amount is seen in public
 * code [code]; phone, id and date forms are [INV] choices kept here so one edit changes them all.
 */

/** 150 → "150,00": Activo sends and answers amounts as comma-decimal strings, no thousands mark [code] (the kit's `amountText`). */
export function montoActivo(valor: number): string {
  return amountText(valor, ',');
}

/** "1.234,56" / "1234,56" / "150" → number; null when it is not an amount (the kit's `parseAmount`). */
export const parseMontoActivo = parseAmount;

/** "04141234567" → "584141234567" [INV]: the CCE's CELE form (country code, no trunk 0; the kit's `phone58`). */
export const telefonoActivo = phone58;

/** "584141234567" → "04141234567" (the kit's `phoneFrom58`). */
export const telefonoLocal = phoneFrom58;

/**
 * "V12345678" stays; legal-entity RIFs (J, G) are padded to 9 digits, "J80066227" → "J080066227",
 * the way RIFs are printed [INV].
 */
export function cedulaActivo(identificacion: string): string {
  const letter = identificacion.charAt(0).toUpperCase();
  const digits = identificacion.slice(1).replace(/[^0-9]/g, '');
  return letter === 'J' || letter === 'G' ? `${letter}${digits.padStart(9, '0')}` : `${letter}${digits}`;
}

/** "2024-03-05" → "05/03/2024" [INV]: dates in the bank's dd/MM/yyyy (the kit's form). */
export const fechaActivo = toDdMmYyyy;

/** "05/03/2024" → "2024-03-05"; null when it is not such a date (the kit's `fromDdMmYyyy`). */
export const fechaIso = fromDdMmYyyy;

/** ISO 20022 instrument kind of the crédito inmediato: account or mobile phone. */
export function tipoInstrumento(instrumento: Pick<Instrumento, 'tipo'>): 'CNTA' | 'CELE' {
  return instrumento.tipo === 'cuenta' ? 'CNTA' : 'CELE';
}

/**
 * The `cuenta_x` or `telefono_x` field pair the bank takes for an instrument: exactly one is sent.
 */
export function instrumentoActivo<S extends string>(suffix: S, instrumento: Pick<Instrumento, 'tipo' | 'valor'>): Record<string, string> {
  return instrumento.tipo === 'cuenta'
    ? { [`cuenta_${suffix}`]: instrumento.valor }
    : { [`telefono_${suffix}`]: telefonoActivo(instrumento.valor) };
}

/** Caracas time (UTC-4, no daylight saving): the bank's calendar day (the kit's). */
export { caracasDate };
