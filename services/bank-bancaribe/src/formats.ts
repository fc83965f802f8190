import { hasAtMostDecimals } from '@switch/shared';

/**
 * Our instruments in Bancaribe's forms, and Bancaribe's figures back in ours.
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
export function telefono(valor: string): string {
  if (!/^0[0-9]{10}$/.test(valor)) throw new FormatError(`phone "${valor}" is not 11 digits with a leading 0`);
  return valor;
}

/** A phone as the CCE's CELE instrument: country code 58 instead of the leading 0. */
export function telefonoCele(valor: string): string {
  return `58${telefono(valor).slice(1)}`;
}

/**
 * Persons keep their number as given (`V12345114`); legal entities and government (J, G) use the
 * RIF form of 9 zero-padded digits (`J000012114`).
 */
export function identificacion(valor: string): string {
  const m = /^([VEJGP])([0-9]{1,9})$/.exec(valor);
  if (!m) throw new FormatError(`identification "${valor}" is not a letter V/E/J/G/P followed by 1 to 9 digits`);
  const [, letra, numero] = m as unknown as [string, string, string];
  return letra === 'J' || letra === 'G' ? `${letra}${numero.padStart(9, '0')}` : `${letra}${numero}`;
}

/** Amounts as Bancaribe writes them: dot decimal, always 2 decimals, no grouping. */
export function monto(valor: number): string {
  if (!Number.isFinite(valor) || valor < 0) throw new FormatError(`amount ${valor} is not a non-negative number`);
  if (!hasAtMostDecimals(valor, 2)) throw new FormatError(`amount ${valor} has more than 2 decimals`);
  const cents = Math.round(valor * 100);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** An amount from the bank: a JSON number or a dot-decimal string. Null when it is neither. */
export function parseMonto(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.round(value * 100) / 100 : null;
  if (typeof value === 'string' && /^-?[0-9]+(\.[0-9]{1,2})?$/.test(value.trim())) return Math.round(Number(value.trim()) * 100) / 100;
  return null;
}

/** `YYYY-MM-DD` (ours) → `dd/MM/yyyy` (Bancaribe's statements, [INV]). */
export function fechaBanco(iso: string): string {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(iso);
  if (!m) throw new FormatError(`date "${iso}" is not YYYY-MM-DD`);
  return `${m[3]}/${m[2]}/${m[1]}`;
}

/** `dd/MM/yyyy` (Bancaribe's) → `YYYY-MM-DD`; null when it is not such a date. */
export function fechaIso(banco: unknown): string | null {
  if (typeof banco !== 'string') return null;
  const m = /^([0-9]{2})\/([0-9]{2})\/([0-9]{4})$/.exec(banco.trim());
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
}

/** Today's date in Caracas (UTC-4, no daylight saving), where the bank's day turns. */
export function caracasDate(at: Date): string {
  return new Date(at.getTime() - 4 * 3600_000).toISOString().slice(0, 10);
}

export class FormatError extends Error {}
