/**
 * The emulated bank's books: accounts keyed by account number or `58…` phone, their statement
 * lines in BNC's movement shape, and the orders the bank took.
 */

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
  createdAt: string;
}

export interface LedgerOptions {
  merchantAccount: string;
  merchantBalance: number;
  defaultBalance: number;
}

/** Accounts whose number or phone ends in 0000 open empty: "insufficient funds" without magic amounts. */
export const EMPTY_ACCOUNT_SUFFIX = '0000';

export class Ledger {
  readonly accounts = new Map<string, LedgerAccount>();
  readonly orders = new Map<string, LedgerOrder>();
  private control = 700_000;

  constructor(readonly options: LedgerOptions) {
    this.accounts.set(options.merchantAccount, { id: options.merchantAccount, balance: options.merchantBalance, movements: [] });
  }

  get merchantAccount(): string {
    return this.options.merchantAccount;
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
