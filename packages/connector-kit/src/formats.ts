import type { MotivoRechazo } from '@switch/core/estados';

/**
 * Formats every bank shares: our instruments (SPEC 2.1: `04141234567`, 20-digit accounts,
 * `V12345678`, amounts with 2 decimals) checked before they reach a bank, and Caracas dates. A bank's
 * own forms (its phone prefix, its id padding, its decimal mark) live in its `requests.ts` and
 * `responses.ts`, built on these.
 */

/** A value the bank cannot take: nothing is sent and the order is refused with `motivo`. */
export class FormatError extends Error {
  constructor(
    message: string,
    readonly motivo: MotivoRechazo = 'RECHAZO_TECNICO',
  ) {
    super(message);
    this.name = 'FormatError';
  }
}

/** Our 11-digit phone with its leading 0, checked. */
export function phone11(telefono: string): string {
  if (!/^0[0-9]{10}$/.test(telefono)) throw new FormatError(`teléfono "${telefono}" is not 11 digits with a leading 0`);
  return telefono;
}

/** `04141234567` → `584141234567`: country code instead of the trunk 0 (the CCE's CELE form). */
export function phone58(telefono: string): string {
  return `58${phone11(telefono).slice(1)}`;
}

/** `584141234567` (or an already local number) → `04141234567`. */
export function phoneFrom58(telefono: string): string {
  return /^58[0-9]{10}$/.test(telefono) ? `0${telefono.slice(2)}` : telefono;
}

export function account20(cuenta: string): string {
  if (!/^[0-9]{20}$/.test(cuenta)) throw new FormatError(`cuenta "${cuenta}" is not 20 digits`);
  return cuenta;
}

export function bankCode4(banco: string): string {
  if (!/^[0-9]{4}$/.test(banco)) throw new FormatError(`banco "${banco}" is not a 4-digit code`);
  return banco;
}

/** `V12345678` → `{ letter: 'V', digits: '12345678' }`; `maxDigits` is the bank's limit. */
export function idParts(identificacion: string, maxDigits = 9): { letter: string; digits: string } {
  const m = new RegExp(`^([VEJGP])([0-9]{1,${maxDigits}})$`).exec(identificacion.trim().toUpperCase());
  if (!m) throw new FormatError(`identificación "${identificacion}" is not a letter V/E/J/G/P followed by 1 to ${maxDigits} digits`);
  return { letter: m[1]!, digits: m[2]! };
}

/** A positive amount with at most two decimals, in cents-exact form. */
export function amount2(valor: number): number {
  if (!Number.isFinite(valor) || valor <= 0) throw new FormatError(`monto ${valor} is not a positive amount`, 'MONTO_INVALIDO');
  const cents = Math.round(valor * 100);
  if (Math.abs(cents / 100 - valor) > 1e-9) throw new FormatError(`monto ${valor} has more than 2 decimals`, 'MONTO_INVALIDO');
  return cents / 100;
}

/** An amount written with two decimals and the given decimal mark (`150.00`, `150,00`). */
export function amountText(valor: number, mark: '.' | ',' = '.'): string {
  const cents = Math.round(amount2(valor) * 100);
  return `${Math.floor(cents / 100)}${mark}${String(cents % 100).padStart(2, '0')}`;
}

/** A bank amount: a JSON number or a string in either decimal style (`1234.56`, `1.234,56`, `150,00`); null when neither. */
export function parseAmount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.round(value * 100) / 100 : null;
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (!/^-?[0-9.,]+$/.test(s)) return null;
  const normalised = /,[0-9]{1,2}$/.test(s) ? s.replace(/\./g, '').replace(',', '.') : s.replace(/,/g, '');
  const n = Number(normalised);
  return s !== '' && Number.isFinite(n) ? Math.round(n * 100) / 100 : null;
}

/** Free text cut to a bank's limit, control characters dropped. */
export function text(value: string, max: number): string {
  return Array.from(value.replace(/[\u0000-\u001f\u007f]/g, ' ').trim())
    .slice(0, max)
    .join('');
}

/** Venezuela's offset: UTC-4, no daylight saving. Every bank's day turns at Caracas midnight. */
const CARACAS_OFFSET_MS = 4 * 3600_000;
const caracas = (at: Date): string => new Date(at.getTime() - CARACAS_OFFSET_MS).toISOString();

/** The Caracas calendar date of an instant, `YYYY-MM-DD`. */
export const caracasDate = (at: Date): string => caracas(at).slice(0, 10);
/** The Caracas wall time of an instant, `HH:MM:SS`. */
export const caracasTime = (at: Date): string => caracas(at).slice(11, 19);

function isoDate(date: string): [string, string, string] {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(date);
  if (!m) throw new FormatError(`date "${date}" is not YYYY-MM-DD`);
  return [m[1]!, m[2]!, m[3]!];
}

/** `YYYY-MM-DD` → `dd/MM/yyyy`. */
export function toDdMmYyyy(date: string): string {
  const [y, m, d] = isoDate(date);
  return `${d}/${m}/${y}`;
}

/** `dd/MM/yyyy` (day and month may have one digit) → `YYYY-MM-DD`; null when it is not such a date. */
export function fromDdMmYyyy(date: unknown): string | null {
  if (typeof date !== 'string') return null;
  const m = /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})$/.exec(date.trim());
  return m ? `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}` : null;
}

/** Whole days from one `YYYY-MM-DD` to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The date `n` days after a `YYYY-MM-DD`. */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** A string field of a bank body (numbers read as text), or null. */
export function field(body: unknown, ...names: string[]): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const r = body as Record<string, unknown>;
  for (const n of names) {
    const v = r[n];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    if (typeof v === 'number') return String(v);
  }
  return null;
}

/** The body as JSON when it is JSON, else the text as received (an empty body is null). */
export function parseBody(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
