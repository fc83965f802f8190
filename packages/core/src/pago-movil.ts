import { createHash } from 'node:crypto';
import type { BancoId, CreditoRecibido } from './contracts/bancos';

/**
 * Verifying a pago móvil a payer says they sent: which of the receiving bank's credits are that
 * payment. Pure: the caller reads the credits (one bank read per day of the window) and claims the
 * movement it settles on. The rules per bank are written down in docs/pago-movil.md.
 */

/** How one receiving bank reports an incoming pago móvil, as far as matching needs it. */
export interface BankMatchingRule {
  /** The fewest trailing digits of a reference that identify a payment at this bank. */
  minDigits: number;
  /** Days after the day the payer saw that the bank may book the payment on (late-night payments). */
  daysAfter: number;
  /** How the bank writes the payer bank's reference (for docs and the sandbox). */
  reference: string;
}

export const MATCHING_RULES: Readonly<Record<BancoId, BankMatchingRule>> = {
  // Position/Validate matches a received movement on the last 4 digits of its reference (BNC's doc).
  bnc: { minDigits: 4, daysAfter: 1, reference: 'the last 8 digits of the payer bank reference' },
  banco_plaza: { minDigits: 6, daysAfter: 1, reference: 'the payer bank reference in full (12 digits)' },
  bancaribe: { minDigits: 6, daysAfter: 1, reference: 'the payer bank reference as a number (leading zeros dropped)' },
  banco_activo: { minDigits: 6, daysAfter: 1, reference: 'the last 10 digits of the payer bank reference' },
};

/** A reference's significant digits: separators and leading zeros dropped. */
export const significantDigits = (reference: string): string => reference.replace(/\D/g, '').replace(/^0+/, '');

/**
 * Whether the reference the payer gives and the one the bank booked name one payment: one ends in
 * the other (payers and banks both shorten to the last digits), over at least the bank's minimum of
 * digits, as written or with leading zeros dropped (a bank that books the reference as a number).
 */
export function referencesMatch(banco: BancoId, payer: string, booked: string): boolean {
  const min = MATCHING_RULES[banco].minDigits;
  const suffix = (a: string, b: string) => Math.min(a.length, b.length) >= min && (a.endsWith(b) || b.endsWith(a));
  const [a, b] = [payer.replace(/\D/g, ''), booked.replace(/\D/g, '')];
  return suffix(a, b) || suffix(significantDigits(a), significantDigits(b));
}

const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The bank days to read for a payment the payer saw on `fecha`: that day and the bank's late days, none after `today`. */
export function daysToRead(banco: BancoId, fecha: string, today: string): string[] {
  const days: string[] = [];
  for (let i = 0; i <= MATCHING_RULES[banco].daysAfter; i++) {
    const day = addDays(fecha, i);
    if (day <= today) days.push(day);
  }
  return days;
}

/** What the payer says they sent. */
export interface PagoDeclarado {
  monto: number;
  banco_pagador: string;
  telefono_pagador?: string;
  identificacion_pagador?: string;
  referencia: string;
  fecha: string;
}

export type Coincidencia =
  /** Credits that are the payment, amount included, the likeliest first: claim the first one free. */
  | { kind: 'found'; credits: CreditoRecibido[] }
  /** A credit with that reference and payer, of another amount. */
  | { kind: 'other_amount'; credit: CreditoRecibido }
  | { kind: 'not_found' };

const cents = (n: number) => Math.round(n * 100);

/** A field the bank gives that contradicts the payer's: then it is someone else's payment. */
function payerContradicts(p: PagoDeclarado, c: CreditoRecibido): boolean {
  if (c.pagador.banco && c.pagador.banco !== p.banco_pagador) return true;
  if (p.telefono_pagador && c.pagador.telefono && c.pagador.telefono !== p.telefono_pagador) return true;
  if (p.identificacion_pagador && c.pagador.identificacion && c.pagador.identificacion !== p.identificacion_pagador) return true;
  return false;
}

/**
 * The credits among `credits` (the window's, as read) that are the declared payment: same reference
 * (by the bank's rule), booked on the day the payer saw or the bank's late days, no payer detail
 * contradicting the payer's; then the amount decides between found and another amount.
 */
export function matchPayment(banco: BancoId, pago: PagoDeclarado, credits: readonly CreditoRecibido[]): Coincidencia {
  const last = addDays(pago.fecha, MATCHING_RULES[banco].daysAfter);
  const candidates = credits.filter(
    (c) => c.fecha >= pago.fecha && c.fecha <= last && referencesMatch(banco, pago.referencia, c.referencia) && !payerContradicts(pago, c),
  );
  // The day the payer saw first, then the longest reference overlap.
  const rank = (c: CreditoRecibido) => [c.fecha === pago.fecha ? 0 : 1, -significantDigits(c.referencia).length] as const;
  candidates.sort((x, y) => {
    const [a, b] = [rank(x), rank(y)];
    return a[0] - b[0] || a[1] - b[1];
  });
  const exact = candidates.filter((c) => cents(c.monto) === cents(pago.monto));
  if (exact.length) return { kind: 'found', credits: exact };
  if (candidates.length) return { kind: 'other_amount', credit: candidates[0]! };
  return { kind: 'not_found' };
}

/** How long to wait before asking again about a payment not in the statement yet. */
export const RETRY_AFTER_SECONDS = 120;

/**
 * When to ask again after NOT found: soon while the bank may still book it (the payer's day or the
 * late days are today or later), never once every day of the window is past.
 */
export function retryAfter(banco: BancoId, fecha: string, today: string, now: Date): string | null {
  const last = addDays(fecha, MATCHING_RULES[banco].daysAfter);
  if (last < today) return null;
  return new Date(now.getTime() + RETRY_AFTER_SECONDS * 1000).toISOString();
}

/**
 * The concept the sandbox books a test pago móvil under: test accounts at the emulated banks are
 * shared by every merchant, so a merchant's verifications look only at the payments it made arrive.
 */
export function sandboxConcept(merchantId: string): string {
  return `PAGO MOVIL SBX${createHash('sha256').update(merchantId).digest('hex').slice(0, 10).toUpperCase()}`;
}
