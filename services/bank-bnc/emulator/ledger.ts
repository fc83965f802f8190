/**
 * The emulated bank's books: accounts keyed by account number or `58…` phone, their statement
 * lines in BNC's movement shape, and the orders the bank took.
 */

import { incomingReceipt, type IncomingPagoMovil, type IncomingPayments, type IncomingReceipt } from '@switch/connector-kit/emulator';

export interface LedgerMovement {
  /** Venezuelan date `YYYY-MM-DD` (answered as `dd/MM/yyyy`). */
  date: string;
  controlNumber: string;
  amount: number;
  balanceDelta: 'Ingreso' | 'Egreso';
  concept: string;
  code: string;
  bankCode: number;
  debtorInstrument: string | null;
  /** The payer's identity (`V012345678`) on an incoming pago móvil [INV: History carries Validate's DebtorID]. */
  debtorId?: string | null;
  /** ReferenceA: BNC's reference of the operation. */
  referenceA: string;
  /** ReferenceB: the client's envelope `Reference` the bank marks movements with [INV: which field]. */
  referenceB: string;
  referenceC: string;
  referenceD: string;
  balanceAfter: number;
}

export interface LedgerAccount {
  id: string;
  balance: number;
  movements: LedgerMovement[];
}

export type OrderKind = 'c2p' | 'reverse_c2p' | 'p2p' | 'token' | 'debit' | 'credit';
export type OrderState = 'settled' | 'pending' | 'rejected';

export interface LedgerOrder {
  kind: OrderKind;
  /** BNC's reference (answered as `Reference`). */
  reference: string;
  /** The client's envelope `Reference`. */
  clientReference: string;
  amount: number;
  state: OrderState;
  /** ISO / G code of a rejection, or of the settlement (ACCP). */
  code: string | null;
  from: string | null;
  to: string | null;
  idTransaction?: number;
  authorizationCode?: string;
  operationRef?: string;
  endToEndId?: string;
  /** C2P: reversed by this reference. */
  reversedBy?: string;
  /** SIMF: the settlement chosen in advance (magic amount), if any. */
  settleAs?: string | null;
  /** The merchant (ClientID, the parent's or a child's) the order was taken for: only it can ask about it. */
  merchant: string;
  createdAt: string;
}

/** A merchant the ClientGUID acts for: the parent itself or a child (`ChildClientID`), with its own account. */
export interface EmulatedMerchant {
  /** RIF as BNC knows it (`J000121532`). */
  clientId: string;
  /** Its 20-digit account: its collections land in it, its payouts leave it. */
  account: string;
}

export interface LedgerOptions {
  merchantAccount: string;
  merchantBalance: number;
  defaultBalance: number;
}

/** Accounts whose number or phone ends in 0000 open empty: "insufficient funds" without magic amounts. */
export const EMPTY_ACCOUNT_SUFFIX = '0000';

/** `V012345678` and `V12345678` name the same person. */
export const sameId = (a: string, b: string): boolean => a[0] === b[0] && Number(a.slice(1)) === Number(b.slice(1));

/** BNC books an incoming pago móvil under the last 8 digits of the payer bank's reference [INV]. */
export const bncReference = (payer: string): string => payer.slice(-8);

export class Ledger implements IncomingPayments {
  readonly accounts = new Map<string, LedgerAccount>();
  readonly orders = new Map<string, LedgerOrder>();
  /** Child merchants (sub-merchants under the parent's ClientGUID), each with its own account and books. */
  readonly children: EmulatedMerchant[] = [];
  private control = 700_000;

  constructor(readonly options: LedgerOptions) {
    this.accounts.set(options.merchantAccount, { id: options.merchantAccount, balance: options.merchantBalance, movements: [] });
  }

  /** The parent's (the ClientGUID's own merchant) account. */
  get merchantAccount(): string {
    return this.options.merchantAccount;
  }

  /** Registers a child merchant; its account opens with `balance` (default: the merchant balance). */
  addChild(child: EmulatedMerchant, balance = this.options.merchantBalance): void {
    if (this.children.some((c) => sameId(c.clientId, child.clientId))) return;
    this.children.push({ ...child });
    if (!this.accounts.has(child.account)) this.accounts.set(child.account, { id: child.account, balance, movements: [] });
  }

  childOf(clientId: string): EmulatedMerchant | undefined {
    return this.children.find((c) => sameId(c.clientId, clientId));
  }

  /** An account, opened on first sight with the default balance (or empty, see EMPTY_ACCOUNT_SUFFIX). */
  account(id: string): LedgerAccount {
    let acc = this.accounts.get(id);
    if (!acc) {
      acc = { id, balance: id.endsWith(EMPTY_ACCOUNT_SUFFIX) ? 0 : this.options.defaultBalance, movements: [] };
      this.accounts.set(id, acc);
    }
    return acc;
  }

  balanceOf(id: string): number {
    return this.account(id).balance;
  }

  canPay(id: string, amount: number): boolean {
    return this.balanceOf(id) + 1e-9 >= amount;
  }

  /** Moves money and writes a statement line on both sides. */
  transfer(input: {
    from: string;
    to: string;
    amount: number;
    date: string;
    concept: string;
    code: string;
    bankCode: number;
    referenceA: string;
    referenceB: string;
    referenceC?: string;
    controlNumber?: string;
    debtorInstrument?: string | null;
  }): void {
    const control = input.controlNumber ?? String(++this.control);
    for (const [id, delta] of [
      [input.from, -input.amount],
      [input.to, input.amount],
    ] as const) {
      const acc = this.account(id);
      acc.balance = round2(acc.balance + delta);
      acc.movements.push({
        date: input.date,
        controlNumber: control,
        amount: input.amount,
        balanceDelta: delta < 0 ? 'Egreso' : 'Ingreso',
        concept: input.concept,
        code: input.code,
        bankCode: input.bankCode,
        debtorInstrument: input.debtorInstrument ?? null,
        referenceA: input.referenceA,
        referenceB: input.referenceB,
        referenceC: input.referenceC ?? '',
        referenceD: '',
        balanceAfter: acc.balance,
      });
    }
  }

  /** A payer's pago móvil credited to `cuenta`, booked on the bank's day with the payer's phone (`58…`), bank and id. */
  receivePagoMovil(payment: IncomingPagoMovil): IncomingReceipt {
    const receipt = incomingReceipt(payment, bncReference);
    const acc = this.account(payment.cuenta);
    acc.balance = round2(acc.balance + payment.monto);
    acc.movements.push({
      date: receipt.fechaBanco,
      controlNumber: String(++this.control),
      amount: payment.monto,
      balanceDelta: 'Ingreso',
      concept: payment.concepto ?? 'PAGO MOVIL RECIBIDO',
      code: 'P2P',
      bankCode: Number(payment.bancoPagador),
      debtorInstrument: `58${payment.telefonoPagador.slice(1)}`,
      debtorId: payment.identificacionPagador ?? null,
      referenceA: receipt.referenciaBanco,
      referenceB: '',
      referenceC: '',
      referenceD: '',
      balanceAfter: acc.balance,
    });
    return receipt;
  }

  addOrder(order: LedgerOrder): LedgerOrder {
    this.orders.set(order.reference, order);
    return order;
  }

  /** By BNC's reference or by the client's envelope reference. */
  findOrder(reference: string): LedgerOrder | undefined {
    const direct = this.orders.get(reference);
    if (direct) return direct;
    for (const o of this.orders.values()) if (o.clientReference === reference) return o;
    return undefined;
  }
}

export const round2 = (n: number) => Math.round(n * 100) / 100;
