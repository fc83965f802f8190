import { randomInt } from 'node:crypto';
import {
  caracasDay,
  incomingReceipt,
  type IncomingPagoMovil,
  type IncomingPayments,
  type IncomingReceipt,
} from '@switch/connector-kit/emulator';

/**
 * The emulated bank's books: accounts (keyed by 20-digit account number or 11-digit phone),
 * their statements, the orders it took and the OTPs it "sent". Plain data with a few rules; the
 * HTTP face lives in server.ts.
 */

export interface Movement {
  /** `YYYYMMDD` and `HHMMSS`, Venezuelan time, as the bank writes them. */
  fecha: string;
  hora: string;
  referencia: string;
  concepto: string;
  naturaleza: 'C' | 'D';
  monto: number;
  saldo: number;
  /** The payer of an incoming pago móvil, as the operations search answers it [INV]. */
  pagador?: { banco: string; telefono: string; cedula: string | null };
}

export interface Account {
  numero: string;
  balance: number;
  opened: Date;
  movimientos: Movement[];
}

export type OrderKind = 'c2p' | 'cobroDI' | 'pagoO' | 'p2p';
export type OrderState = 'pending' | 'settled' | 'rejected' | 'reversed';

/** One answer as the bank gave it, kept to repeat it verbatim to a duplicate. */
export interface StoredAnswer {
  status: number;
  codigo: string;
  descripcionCliente: string;
  descripcionSistema: string;
  body: Record<string, unknown> | null;
}

export interface Order {
  /** The bank's own reference (C2P `referencia`, `numeroReferencia`). */
  referencia: string;
  /** The merchant's reference of the order (`referencia_c`, CCE `referencia`, P2P `idExterno`). */
  merchantRef: string | null;
  kind: OrderKind;
  state: OrderState;
  /** ISO 20022 reason when the interbank settlement refused it. */
  reason: string | null;
  monto: number;
  /** Ledger keys debited and credited when the order settles. */
  from: string;
  to: string;
  concepto: string;
  endtoend: string | null;
  /** What settlement will do: `ACCP` or an ISO reason (decided at acceptance from magic values). */
  planned: string;
  createdAt: Date;
  settledAt: Date | null;
  answer: StoredAnswer;
  reverso: { answer: StoredAnswer; at: Date } | null;
}

/** Keys (accounts or phones) ending in 99999 do not exist at any bank. */
export const MISSING_SUFFIX = '99999';

export interface OtpRecord {
  otp: string;
  expiresAt: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const caracas = (d: Date) => new Date(d.getTime() - 4 * 3600_000).toISOString();
export const plazaFecha = (d: Date) => caracas(d).slice(0, 10).replace(/-/g, '');
export const plazaHora = (d: Date) => caracas(d).slice(11, 19).replace(/:/g, '');

export class Ledger implements IncomingPayments {
  readonly accounts = new Map<string, Account>();
  /** Orders by the bank's reference. */
  readonly orders = new Map<string, Order>();
  /** Orders by merchant reference and end-to-end id. */
  private readonly index = new Map<string, Order>();
  /** Answers to refused orders, by their dedupe key, so a repeat gets the same refusal. */
  readonly refusals = new Map<string, StoredAnswer>();
  readonly otps = new Map<string, OtpRecord>();
  private seq = 0;

  constructor(
    private readonly defaultBalance: number,
    private readonly now: () => Date,
    seed: Record<string, number> = {},
  ) {
    for (const [numero, balance] of Object.entries(seed)) this.open(numero, balance);
  }

  exists(key: string): boolean {
    return !key.endsWith(MISSING_SUFFIX);
  }

  /** The account (or phone wallet) behind a key, opened with the default balance on first sight. */
  account(key: string): Account {
    return this.accounts.get(key) ?? this.open(key, this.defaultBalance);
  }

  /** A payer's pago móvil credited to `cuenta`, booked under the payer bank's full reference. */
  receivePagoMovil(payment: IncomingPagoMovil): IncomingReceipt {
    const receipt = incomingReceipt(payment, (payer) => payer);
    const account = this.account(payment.cuenta);
    account.balance = round2(account.balance + payment.monto);
    const booked = receipt.fechaBanco === caracasDay(payment.at) ? payment.at : new Date(`${receipt.fechaBanco}T04:00:00Z`);
    account.movimientos.push({
      fecha: receipt.fechaBanco.replace(/-/g, ''),
      hora: plazaHora(booked),
      referencia: receipt.referenciaBanco,
      concepto: payment.concepto ?? 'PAGO MOVIL RECIBIDO',
      naturaleza: 'C',
      monto: payment.monto,
      saldo: account.balance,
      pagador: { banco: payment.bancoPagador, telefono: payment.telefonoPagador, cedula: payment.identificacionPagador ?? null },
    });
    return receipt;
  }

  balance(key: string): number {
    return this.account(key).balance;
  }

  /** Moves money when `from` can pay; false (and nothing moved) otherwise. */
  transfer(from: string, to: string, monto: number, referencia: string, concepto: string): boolean {
    const source = this.account(from);
    if (source.balance < monto) return false;
    this.post(source, 'D', monto, referencia, concepto);
    this.post(this.account(to), 'C', monto, referencia, concepto);
    return true;
  }

  add(order: Order): Order {
    this.orders.set(order.referencia, order);
    if (order.merchantRef) this.index.set(`${order.kind}:${order.merchantRef}`, order);
    if (order.endtoend) this.index.set(`e2e:${order.endtoend}`, order);
    return order;
  }

  byMerchantRef(kind: OrderKind, ref: string): Order | undefined {
    return this.index.get(`${kind}:${ref}`);
  }

  byEndToEnd(endtoend: string): Order | undefined {
    return this.index.get(`e2e:${endtoend}`);
  }

  /** Settles a pending order: `ACCP` moves the money (or fails AM04 without funds), anything else rejects. */
  settle(order: Order, outcome: string = order.planned): boolean {
    if (order.state !== 'pending') return false;
    if (outcome === 'ACCP') {
      if (this.transfer(order.from, order.to, order.monto, order.referencia, order.concepto)) order.state = 'settled';
      else Object.assign(order, { state: 'rejected', reason: 'AM04' });
    } else {
      Object.assign(order, { state: 'rejected', reason: outcome });
    }
    order.settledAt = this.now();
    return true;
  }

  pending(): Order[] {
    return [...this.orders.values()].filter((o) => o.state === 'pending');
  }

  /** A fresh 12-digit bank reference. */
  nextReferencia(): string {
    this.seq += 1;
    return String(100_000_000_000 + this.seq);
  }

  /** [INV] end-to-end id: originator bank, timestamp, 10-digit sequence (28 characters). */
  nextEndToEnd(): string {
    const stamp = caracas(this.now()).slice(0, 19).replace(/[-T:]/g, '');
    return `0138${stamp}${String(this.seq).padStart(10, '0')}`;
  }

  issueOtp(payer: string, ttlMs: number): string {
    const otp = String(randomInt(10_000_000, 100_000_000));
    this.otps.set(payer, { otp, expiresAt: this.now().getTime() + ttlMs });
    return otp;
  }

  /** True once per issued OTP: a matching, unexpired one is consumed. */
  consumeOtp(payer: string, otp: string): boolean {
    const record = this.otps.get(payer);
    if (!record || record.otp !== otp || record.expiresAt < this.now().getTime()) return false;
    this.otps.delete(payer);
    return true;
  }

  private open(numero: string, balance: number): Account {
    const account: Account = { numero, balance: round2(balance), opened: this.now(), movimientos: [] };
    this.accounts.set(numero, account);
    return account;
  }

  private post(account: Account, naturaleza: 'C' | 'D', monto: number, referencia: string, concepto: string): void {
    const at = this.now();
    account.balance = round2(account.balance + (naturaleza === 'C' ? monto : -monto));
    account.movimientos.push({
      fecha: plazaFecha(at),
      hora: plazaHora(at),
      referencia,
      concepto,
      naturaleza,
      monto,
      saldo: account.balance,
    });
  }
}
