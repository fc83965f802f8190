import { createHash } from 'node:crypto';
import {
  account20,
  addDays,
  amount2,
  bankCode4,
  caracasDate,
  daysBetween,
  FormatError,
  fromDdMmYyyy,
  idParts,
  phone58,
  text,
  toDdMmYyyy,
} from '@switch/connector-kit/formats';
import type { Instrumento } from '@switch/core/contracts/fields';

/**
 * BNC's requests: its paths, the inner bodies of each operation, and our API's instrument forms → BNC's (PROTOCOLS §0, §1.4): phones `58` + 10 digits, ids a letter and
 * 9 digits zero-padded (`V012345678`), bank codes as a 32-bit int where the field is an int
 * (`BeneficiaryBankCode: 191`) and as the 4-digit string where it is a string (`DebtorBank: "0191"`),
 * amounts as JSON numbers with at most 2 decimals, dates `dd/MM/yyyy` in answers.
 */

export { FormatError };

/** `04141234567` → `584141234567` (the kit's `phone58`). */
export const telefonoBnc = phone58;

/** `584141234567` → `04141234567`. */
export function telefonoLocal(bnc: string): string {
  if (!/^58[0-9]{10}$/.test(bnc)) throw new FormatError(`phone "${bnc}" is not 58 and 10 digits`);
  return `0${bnc.slice(2)}`;
}

/** `V12345678` → `V012345678`: the type letter and the number padded to 9 digits, as the doc's example. */
export function identificacionBnc(id: string): string {
  if (id !== id.trim().toUpperCase()) throw new FormatError(`identification "${id}" is not a letter V, E, J, G or P and 1 to 9 digits`);
  const { letter, digits } = idParts(id, 9);
  return `${letter}${digits.padStart(9, '0')}`;
}

/** `0102` → 102, for the int fields (`BeneficiaryBankCode`, `DebtorBankCode`). */
export function codigoBancoInt(code: string): number {
  return Number(bankCode4(code));
}

/** 191 or "191" → `0191`. */
export function codigoBancoStr(code: number | string): string {
  const s = String(code).trim();
  if (!/^[0-9]{1,4}$/.test(s)) throw new FormatError(`bank code "${s}" is not numeric`);
  return s.padStart(4, '0');
}

/** An amount for BNC's `Decimal(13,2)` fields: a positive JSON number of at most 2 decimals. */
export function montoBnc(valor: number): number {
  if (valor >= 1e11) throw new FormatError(`amount ${valor} does not fit Decimal(13,2)`, 'MONTO_INVALIDO');
  return amount2(valor);
}

/** The 20-digit account or the `58…` phone, with its ISO instrument type, for the SIMF fields. */
export function instrumentoSimf(instr: Pick<Instrumento, 'tipo' | 'valor'>): { account: string; type: 'CNTA' | 'CELE' } {
  if (instr.tipo === 'cuenta') return { account: account20(instr.valor), type: 'CNTA' };
  return { account: telefonoBnc(instr.valor), type: 'CELE' };
}

/**
 * `Description`/`Concept` allow 100 characters; control characters are dropped since they would
 * only reach the payer's statement as noise.
 */
export function textoBnc(value: string, max = 100): string {
  return text(value, max);
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

/** Venezuelan calendar date of an instant (the kit's Caracas date). */
export const venezuelanDate = caracasDate;
export { addDays, daysBetween };

/** `YYYY-MM-DD` → BNC's DateTime `YYYY-MM-DDT00:00:00`. */
export function fechaBnc(date: string): string {
  return `${fromDdMmYyyy(toDdMmYyyy(date))!}T00:00:00`;
}

/** BNC's `dd/MM/yyyy` → `YYYY-MM-DD`. */
export function fechaDesdeBnc(date: string): string {
  const iso = fromDdMmYyyy(date);
  if (!iso) throw new FormatError(`date "${date}" is not dd/MM/yyyy`);
  return iso;
}

/** `YYYY-MM-DD` → `dd/MM/yyyy` (the emulator's answers). */
export const fechaHaciaBnc = toDdMmYyyy;

/** The BNC paths the connector uses (PROTOCOLS §1.4). */
export const BNC_PATHS = {
  sendC2P: 'MobPayment/SendC2P',
  reverseC2P: 'MobPayment/ReverseC2P',
  sendP2P: 'MobPayment/SendP2P',
  debitToken: 'SIMF/DebitTokenRequest',
  debit: 'SIMF/DebitBeginner',
  credit: 'SIMF/CreditBeginner',
  status: 'SIMF/GetStatusTrans',
  balance: 'Position/Current',
  history: 'Position/HistoryByDate',
} as const;

/**
 * `OperationType` of GetStatusTrans [INV]: the public material shows the field, not its values.
 * Kept here so the real values replace them in one place.
 */
export const SIMF_OPERATION_TYPE = { debito_inmediato: 'DEBITO', credito_inmediato: 'CREDITO' } as const;
