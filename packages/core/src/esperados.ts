import type { CreditoRecibido } from './contracts/bancos';

/**
 * Expected payments (`POST /cobros/esperados`): the one transition table of their states and the pure
 * rules the background matcher applies to each credit it reads. Nothing else decides a move.
 */
export const ESTADOS_ESPERADO = ['ESPERADO', 'RECIBIDO', 'PAGO_PARCIAL', 'SOBREPAGO', 'VENCIDO'] as const;
export type EstadoEsperado = (typeof ESTADOS_ESPERADO)[number];

/** States the matcher still watches: money may yet arrive for them. */
export const OPEN_STATES: ReadonlySet<EstadoEsperado> = new Set(['ESPERADO', 'PAGO_PARCIAL']);

export type MotivoCambioEsperado =
  | 'pago_exacto' // the credits received add up to the amount
  | 'pago_menor' // they add up to less: the payer owes the rest
  | 'pago_mayor' // they add up to more: the merchant owes the payer the difference
  | 'vencimiento'; // the expiry passed with nothing received

interface MoveEsperado {
  readonly from: readonly EstadoEsperado[];
  readonly to: EstadoEsperado;
  readonly motivo: MotivoCambioEsperado;
  readonly why: string;
}

/**
 * A partial payment stays open: the payer may send the rest (or too much) before or after the expiry,
 * and money already received is never called VENCIDO (docs/decisions/0198-expected-payment-states.md).
 */
export const TRANSITIONS_ESPERADO: readonly MoveEsperado[] = [
  { from: ['ESPERADO', 'PAGO_PARCIAL'], to: 'RECIBIDO', motivo: 'pago_exacto', why: 'the amount is received in full' },
  { from: ['ESPERADO', 'PAGO_PARCIAL'], to: 'PAGO_PARCIAL', motivo: 'pago_menor', why: 'part of the amount is received' },
  { from: ['ESPERADO', 'PAGO_PARCIAL'], to: 'SOBREPAGO', motivo: 'pago_mayor', why: 'more than the amount is received' },
  { from: ['ESPERADO'], to: 'VENCIDO', motivo: 'vencimiento', why: 'nothing received before the expiry' },
];

export function canMoveEsperado(from: EstadoEsperado, to: EstadoEsperado, motivo: MotivoCambioEsperado): boolean {
  return TRANSITIONS_ESPERADO.some((m) => m.from.includes(from) && m.to === to && m.motivo === motivo);
}

export interface CambioEsperado {
  from: EstadoEsperado;
  to: EstadoEsperado;
  motivo: MotivoCambioEsperado;
}

const cents = (n: number): number => Math.round(n * 100);

/** What an expected payment needs to be judged: its state, amount, what it has received, its expiry. */
export interface EsperadoJudged {
  estado: EstadoEsperado;
  monto: number;
  recibido: number;
  codigo: string;
  createdAt: string;
  venceEn: string;
}

/** The move a credit of `monto` makes on an open expected payment; null when it is closed. */
export function applyCredit(p: EsperadoJudged, monto: number): CambioEsperado | null {
  if (!OPEN_STATES.has(p.estado)) return null;
  const total = cents(p.recibido) + cents(monto);
  const expected = cents(p.monto);
  const change: CambioEsperado =
    total === expected
      ? { from: p.estado, to: 'RECIBIDO', motivo: 'pago_exacto' }
      : total < expected
        ? { from: p.estado, to: 'PAGO_PARCIAL', motivo: 'pago_menor' }
        : { from: p.estado, to: 'SOBREPAGO', motivo: 'pago_mayor' };
  return canMoveEsperado(change.from, change.to, change.motivo) ? change : null;
}

/** VENCIDO once the expiry is past and nothing was received. */
export function expiryOf(p: EsperadoJudged, now: Date): CambioEsperado | null {
  if (p.estado !== 'ESPERADO' || Date.parse(p.venceEn) > now.getTime()) return null;
  return { from: 'ESPERADO', to: 'VENCIDO', motivo: 'vencimiento' };
}

/** How far a bank's clock may run behind the switch's: a credit booked this much before a payment's creation still counts. */
export const CLOCK_SLACK_MS = 5 * 60_000;

/** When a credit was booked, as an instant: its Caracas day and time. */
function bookedAt(c: Pick<CreditoRecibido, 'fecha' | 'hora'>): number {
  return Date.parse(`${c.fecha}T${c.hora}-04:00`);
}

/** A credit's concept names an expected payment when it carries its code (case and spacing aside). */
const carriesCode = (concepto: string, codigo: string): boolean => concepto.toUpperCase().replace(/\s+/g, '').includes(codigo);

/**
 * Which open expected payment of one receiving account a credit pays, if any. A credit counts only
 * if booked between the payment's creation and its expiry (their days, when the bank gives no time). The payment whose code the credit's
 * concept carries wins, whatever the amount; without a code, only an exact amount names one (the
 * oldest waiting), because an amount alone cannot tell whose partial payment it is.
 */
export function paymentForCredit<T extends EsperadoJudged>(open: readonly T[], credit: CreditoRecibido): T | null {
  // A bank that books only the day (BNC's statement): a credit of the expiry's day is in time.
  const inTime = (p: T) => (credit.hora === null ? credit.fecha <= caracasDay(p.venceEn) : bookedAt(credit) <= Date.parse(p.venceEn));
  // Nor before the payment existed: a credit of that amount booked earlier that day is someone else's.
  const afterCreation = (p: T) =>
    credit.hora === null ? credit.fecha >= caracasDay(p.createdAt) : bookedAt(credit) >= Date.parse(p.createdAt) - CLOCK_SLACK_MS;
  const eligible = open.filter((p) => OPEN_STATES.has(p.estado) && afterCreation(p) && inTime(p));
  const byCode = eligible.find((p) => carriesCode(credit.concepto, p.codigo));
  if (byCode) return byCode;
  const exact = eligible
    .filter((p) => p.estado === 'ESPERADO' && cents(p.monto) === cents(credit.monto))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return exact[0] ?? null;
}

/** The Caracas calendar day (UTC-4) of an instant. */
export const caracasDay = (iso: string): string => new Date(Date.parse(iso) - 4 * 3600_000).toISOString().slice(0, 10);

/** The concept to show the payer: the code first (banks shorten concepts from the end), then the merchant's words. */
export function conceptoParaPagador(codigo: string, concepto: string): string {
  return `${codigo} ${concepto}`.slice(0, 30).trim();
}
