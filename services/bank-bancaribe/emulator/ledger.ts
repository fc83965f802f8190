/**
 * The emulated bank's books: balances in integer cents, statement lines per account, and every
 * order it booked with the answer it gave (a repeated reference gets that answer again).
 */

import { incomingReceipt, type IncomingPagoMovil, type IncomingPayments, type IncomingReceipt } from '@switch/connector-kit/emulator';

export type OrderType = 'C2P' | 'ANULACION' | 'B2P' | 'CI';
/** Bancaribe's words: APROBADA/RECHAZADA/ANULADA for C2P and payouts, ISO 20022 for crédito inmediato. */
export type Estatus = 'APROBADA' | 'RECHAZADA' | 'ANULADA' | 'AC00' | 'ACCP' | 'RJCT';
export type Settlement = { estatus: 'ACCP' } | { estatus: 'RJCT'; codigoRechazo: string };

export interface StatementLine {
  fecha: string;
  hora: string;
  referencia: string;
  descripcion: string;
  tipo: 'D' | 'C';
  cents: number;
  balanceCents: number;
  /** The payer of an incoming pago móvil, as the statement answers it [INV]. */
  origen?: { banco: string; telefono: string; cedula: string | null };
}

export interface Account {
  id: string;
  balanceCents: number;
  lines: StatementLine[];
}

export interface BookedOrder {
  /** The merchant's reference (numeroReferencia / factura): the bank-side duplicate guard. */
  reference: string;
  type: OrderType;
  secuencial: string;
  cents: number;
  estatus: Estatus;
  codigoError: string;
  descripcionError: string;
  codigoRechazo: string | null;
  endToEndId: string | null;
  /** How a pending crédito inmediato will settle. */
  plan: Settlement | null;
  from: string | null;
  to: string | null;
  /** For a void: the secuencial of the C2P it voided. */
  voids: string | null;
  /** The answer given, repeated verbatim to a duplicate. */
  answer: { status: number; body: unknown };
  createdMs: number;
}

/** `dd/MM/yyyy` and `HH:mm:ss` in Caracas (UTC-4, no daylight saving). */
export function caracas(ms: number): { fecha: string; hora: string } {
  const iso = new Date(ms - 4 * 3600_000).toISOString();
  return { fecha: `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`, hora: iso.slice(11, 19) };
}

export const centsToString = (cents: number): string =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** The phone's own ledger entry, apart from account numbers. */
export const phoneAccount = (telefono: string): string => `tel:${telefono}`;

/** Bancaribe books an incoming pago móvil under the payer bank's reference as a number: leading zeros dropped [INV]. */
export const bancaribeReference = (payer: string): string => payer.replace(/^0+(?=.)/, '');

export class Ledger implements IncomingPayments {
  private readonly accounts = new Map<string, Account>();
  private readonly byReference = new Map<string, BookedOrder>();
  private readonly bySecuencial = new Map<string, BookedOrder>();
  private nextSecuencial = 700_001;

  constructor(
    private readonly openingCents: number,
    private readonly now: () => number,
  ) {}

  /** A payer's pago móvil credited to `cuenta`, on the bank's booking day, with the payer's bank, phone and id. */
  receivePagoMovil(payment: IncomingPagoMovil): IncomingReceipt {
    const receipt = incomingReceipt(payment, bancaribeReference);
    const a = this.account(payment.cuenta);
    const cents = Math.round(payment.monto * 100);
    a.balanceCents += cents;
    const f = receipt.fechaBanco;
    a.lines.push({
      fecha: `${f.slice(8, 10)}/${f.slice(5, 7)}/${f.slice(0, 4)}`,
      hora: receipt.fechaBanco === receipt.fecha ? caracas(payment.at.getTime()).hora : '00:00:00',
      referencia: receipt.referenciaBanco,
      descripcion: payment.concepto ?? 'PAGO MOVIL RECIBIDO',
      tipo: 'C',
      cents,
      balanceCents: a.balanceCents,
      origen: { banco: payment.bancoPagador, telefono: payment.telefonoPagador, cedula: payment.identificacionPagador ?? null },
    });
    return receipt;
  }

  /** Unknown accounts (and phones) open with the default balance; ids ending in 0000 open empty. */
  account(id: string): Account {
    let a = this.accounts.get(id);
    if (!a) {
      a = { id, balanceCents: id.endsWith('0000') ? 0 : this.openingCents, lines: [] };
      this.accounts.set(id, a);
    }
    return a;
  }

  /** Balance in bolívares. */
  balance(id: string): number {
    return this.account(id).balanceCents / 100;
  }

  setBalance(id: string, amount: number): void {
    this.account(id).balanceCents = Math.round(amount * 100);
  }

  allAccounts(): Account[] {
    return [...this.accounts.values()];
  }

  transfer(from: string | null, to: string | null, cents: number, referencia: string, descripcion: string): void {
    const { fecha, hora } = caracas(this.now());
    if (from) {
      const a = this.account(from);
      a.balanceCents -= cents;
      a.lines.push({ fecha, hora, referencia, descripcion, tipo: 'D', cents, balanceCents: a.balanceCents });
    }
    if (to) {
      const a = this.account(to);
      a.balanceCents += cents;
      a.lines.push({ fecha, hora, referencia, descripcion, tipo: 'C', cents, balanceCents: a.balanceCents });
    }
  }

  newSecuencial(): string {
    return String(this.nextSecuencial++);
  }

  book(order: BookedOrder): BookedOrder {
    this.byReference.set(order.reference, order);
    this.bySecuencial.set(order.secuencial, order);
    return order;
  }

  order(reference: string): BookedOrder | undefined {
    return this.byReference.get(reference);
  }

  orderBySecuencial(secuencial: string): BookedOrder | undefined {
    return this.bySecuencial.get(secuencial);
  }

  orders(): BookedOrder[] {
    return [...this.byReference.values()];
  }
}
