import { createHash } from 'node:crypto';
import { hasAtMostDecimals, type Instrumento } from '@switch/shared';

/**
 * Our API's instrument forms → BNC's (PROTOCOLS §0, §1.4): phones `58` + 10 digits, ids a letter and
 * 9 digits zero-padded (`V012345678`), bank codes as a 32-bit int where the field is an int
 * (`BeneficiaryBankCode: 191`) and as the 4-digit string where it is a string (`DebtorBank: "0191"`),
 * amounts as JSON numbers with at most 2 decimals, dates `dd/MM/yyyy` in answers.
 */

export class FormatError extends Error {}

/** `04141234567` → `584141234567`. */
export function telefonoBnc(local: string): string {
  if (!/^0[0-9]{10}$/.test(local)) throw new FormatError(`phone "${local}" is not 11 digits with a leading 0`);
  return `58${local.slice(1)}`;
}

/** `584141234567` → `04141234567`. */
export function telefonoLocal(bnc: string): string {
  if (!/^58[0-9]{10}$/.test(bnc)) throw new FormatError(`phone "${bnc}" is not 58 and 10 digits`);
  return `0${bnc.slice(2)}`;
}

/** `V12345678` → `V012345678`: the type letter and the number padded to 9 digits, as the doc's example. */
export function identificacionBnc(id: string): string {
  const m = /^([VEJGP])([0-9]{1,9})$/.exec(id);
  if (!m) throw new FormatError(`identification "${id}" is not a letter V, E, J, G or P and 1 to 9 digits`);
  return `${m[1]}${m[2]!.padStart(9, '0')}`;
}

/** `0102` → 102, for the int fields (`BeneficiaryBankCode`, `DebtorBankCode`). */
export function codigoBancoInt(code: string): number {
  if (!/^[0-9]{4}$/.test(code)) throw new FormatError(`bank code "${code}" is not 4 digits`);
  return Number(code);
}

/** 191 or "191" → `0191`. */
export function codigoBancoStr(code: number | string): string {
  const s = String(code).trim();
  if (!/^[0-9]{1,4}$/.test(s)) throw new FormatError(`bank code "${s}" is not numeric`);
  return s.padStart(4, '0');
}

/** An amount for BNC's `Decimal(13,2)` fields: a positive JSON number of at most 2 decimals. */
export function montoBnc(valor: number): number {
  if (!(valor > 0) || !hasAtMostDecimals(valor, 2) || valor >= 1e11) throw new FormatError(`amount ${valor} is not positive with at most 2 decimals`);
  return valor;
}

/** The 20-digit account or the `58…` phone, with its ISO instrument type, for the SIMF fields. */
export function instrumentoSimf(instr: Pick<Instrumento, 'tipo' | 'valor'>): { account: string; type: 'CNTA' | 'CELE' } {
  if (instr.tipo === 'cuenta') {
    if (!/^[0-9]{20}$/.test(instr.valor)) throw new FormatError(`account "${instr.valor}" is not 20 digits`);
    return { account: instr.valor, type: 'CNTA' };
  }
  return { account: telefonoBnc(instr.valor), type: 'CELE' };
}

/**
 * `Description`/`Concept` allow 100 characters; control characters are dropped since they would
 * only reach the payer's statement as noise.
 */
export function textoBnc(text: string, max = 100): string {
  return Array.from(text.replace(/[\u0000-\u001f\u007f]/g, ' ').trim()).slice(0, max).join('');
}

/** The OTP goes in `AddtlInf`, an int in BNC's model (≤ 8 digits). */
export function otpBnc(otp: string): number {
  if (!/^[0-9]{6,8}$/.test(otp)) throw new FormatError('otp is not 6 to 8 digits');
  return Number(otp);
}

/**
 * The envelope `Reference` of an order: BNC marks the movement with it and refuses a second use in
 * the day, so it is derived from the orderRef (stable per attempt) and a redelivered order cannot run
 * twice. Alphanumeric only, as the doc asks. Stripping separators alone could make two orderRefs
 * collide (and the second would be answered with the first's result), so a stripped or long one
 * keeps a readable prefix plus a hash of the whole orderRef.
 */
export function envelopeReference(orderRef: string): string {
  if (/^[A-Za-z0-9]{1,40}$/.test(orderRef)) return orderRef;
  const readable = orderRef.replace(/[^A-Za-z0-9]/g, '').slice(0, 24);
  return `${readable}${createHash('sha256').update(orderRef).digest('hex').slice(0, 16)}`;
}

/** P2P `OperationRef` (≤ 20 characters; BNC answers `SwAlreadySent:true` on a repeat): a hash of the orderRef. */
export function operationRef(orderRef: string): string {
  return createHash('sha256').update(orderRef).digest('hex').slice(0, 20);
}

const VET_OFFSET_MS = 4 * 3600_000;

/** Venezuelan calendar date (UTC-4, no daylight saving) of an instant, `YYYY-MM-DD`. */
export function venezuelanDate(at: Date): string {
  return new Date(at.getTime() - VET_OFFSET_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` → BNC's DateTime `YYYY-MM-DDT00:00:00`. */
export function fechaBnc(date: string): string {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date)) throw new FormatError(`date "${date}" is not YYYY-MM-DD`);
  return `${date}T00:00:00`;
}

/** BNC's `dd/MM/yyyy` → `YYYY-MM-DD`. */
export function fechaDesdeBnc(date: string): string {
  const m = /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})$/.exec(date.trim());
  if (!m) throw new FormatError(`date "${date}" is not dd/MM/yyyy`);
  return `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
}

/** `YYYY-MM-DD` → `dd/MM/yyyy` (the emulator's answers). */
export function fechaHaciaBnc(date: string): string {
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y}`;
}

/** Whole days from one `YYYY-MM-DD` to another, and the date `n` days after one. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
