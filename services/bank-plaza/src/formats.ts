import { createHash } from 'node:crypto';
import type { MotivoRechazo } from '@switch/shared';

/**
 * Our instrument forms (SPEC 2.1: `04141234567`, 20-digit accounts, `V12345678`) to Banco
 * Plaza's (PROTOCOLS §2.1, §5.3) and back. Each function refuses a value it cannot convert rather
 * than sending the bank something it will misread.
 */

/** A value the bank cannot take; nothing is sent, the order is refused with `motivo`. */
export class FormatError extends Error {
  constructor(
    message: string,
    readonly motivo: MotivoRechazo = 'RECHAZO_TECNICO',
  ) {
    super(message);
  }
}

/** `V12345678` → `V00012345678`: the person-type letter and 11 zero-padded digits (12 characters). */
export function plazaId(identificacion: string): string {
  const m = /^([VEJGP])([0-9]{1,11})$/.exec(identificacion.trim().toUpperCase());
  if (!m) throw new FormatError(`identificación "${identificacion}" is not a letter V/E/J/G/P and digits`);
  return `${m[1]}${m[2]!.padStart(11, '0')}`;
}

/** v1 (CCE and P2P) phones: 11 digits with the leading 0, as ours already are. */
export function phone11(telefono: string): string {
  if (!/^0[0-9]{10}$/.test(telefono)) throw new FormatError(`teléfono "${telefono}" is not 11 digits with a leading 0`);
  return telefono;
}

/** v0 C2P phones: 10 digits without the leading 0 (`4141234567`). */
export function phone10(telefono: string): string {
  return phone11(telefono).slice(1);
}

/** A v0 phone back to ours. */
export function phoneFrom10(telefono: string): string {
  if (!/^[0-9]{10}$/.test(telefono)) throw new FormatError(`teléfono "${telefono}" is not 10 digits`);
  return `0${telefono}`;
}

export function account20(cuenta: string): string {
  if (!/^[0-9]{20}$/.test(cuenta)) throw new FormatError(`cuenta "${cuenta}" is not 20 digits`);
  return cuenta;
}

export function bankCode(banco: string): string {
  if (!/^[0-9]{4}$/.test(banco)) throw new FormatError(`banco "${banco}" is not a 4-digit code`);
  return banco;
}

/** Amounts go as JSON numbers with at most two decimals (printed `10.00` by `plazaJson`). */
export function amount(valor: number): number {
  if (!Number.isFinite(valor) || valor <= 0) throw new FormatError(`monto ${valor} is not a positive amount`, 'MONTO_INVALIDO');
  const cents = Math.round(valor * 100);
  if (Math.abs(cents / 100 - valor) > 1e-9) throw new FormatError(`monto ${valor} has more than 2 decimals`, 'MONTO_INVALIDO');
  return cents / 100;
}

/** `motivo`/`concepto` carry at most 35 characters at the bank. */
export function texto35(text: string): string {
  return [...text.trim()].slice(0, 35).join('');
}

/**
 * The 12-character merchant reference (`referencia_c`, CCE `referencia`) of one attempt, derived
 * from its orderRef so the status query can name the order even when the first answer was lost.
 * Digits only, the form the bank's clients send.
 */
export function referenciaFor(orderRef: string): string {
  const digest = createHash('sha256').update(orderRef, 'utf8').digest();
  return (digest.readBigUInt64BE(0) % 1_000_000_000_000n).toString().padStart(12, '0');
}

/** `C` account or `T` phone, the bank's instrument-type letter. */
export function tipoInstrumento(tipo: 'cuenta' | 'telefono'): 'C' | 'T' {
  return tipo === 'cuenta' ? 'C' : 'T';
}

/** Venezuelan wall time (UTC-4, no daylight saving): the bank dates statements in it. */
function caracas(at: Date): string {
  return new Date(at.getTime() - 4 * 3600_000).toISOString();
}
export const venezuelanDate = (at: Date): string => caracas(at).slice(0, 10);
export const venezuelanTime = (at: Date): string => caracas(at).slice(11, 19);

/** Statement dates: `YYYYMMDD` (the bank's), `YYYY-MM-DD` or `dd/MM/yyyy` → `YYYY-MM-DD`. */
export function fechaFromPlaza(fecha: string): string {
  const s = fecha.trim();
  let m = /^([0-9]{4})([0-9]{2})([0-9]{2})$/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^([0-9]{2})\/([0-9]{2})\/([0-9]{4})$/.exec(s);
  if (m) return `${m[3]}-${m[2]}-${m[1]}`;
  throw new FormatError(`fecha "${fecha}" is not a date the bank uses`);
}

/** `YYYY-MM-DD` → `YYYYMMDD`. */
export function fechaToPlaza(fecha: string): string {
  return fechaFromPlaza(fecha).replace(/-/g, '');
}

/** Statement times: `HHMMSS` or `HH:MM:SS` → `HH:MM:SS`; anything else is unknown (null). */
export function horaFromPlaza(hora: unknown): string | null {
  if (typeof hora !== 'string' && typeof hora !== 'number') return null;
  const s = String(hora).trim();
  const m = /^([0-9]{2}):?([0-9]{2}):?([0-9]{2})$/.exec(s.padStart(6, '0'));
  return m ? `${m[1]}:${m[2]}:${m[3]}` : null;
}

/** A bank amount, as a JSON number or a string in either decimal style (`1234.56`, `1.234,56`). */
export function montoFromPlaza(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.round(value * 100) / 100;
  if (typeof value === 'string') {
    const s = value.trim();
    const normalised = /,[0-9]{1,2}$/.test(s) ? s.replace(/\./g, '').replace(',', '.') : s.replace(/,/g, '');
    const n = Number(normalised);
    if (s !== '' && Number.isFinite(n)) return Math.round(n * 100) / 100;
  }
  throw new FormatError(`monto "${String(value)}" is not an amount`);
}

/** The bank's `naturaleza` (C/D, CR/DB, credito/debito) → ours; falls back on the amount's sign. */
export function naturalezaFromPlaza(naturaleza: unknown, monto: number): 'credito' | 'debito' {
  const n = typeof naturaleza === 'string' ? naturaleza.trim().toUpperCase() : '';
  if (n.startsWith('C') || n === 'H' || n === '+') return 'credito';
  if (n.startsWith('D') || n === '-') return 'debito';
  return monto < 0 ? 'debito' : 'credito';
}
