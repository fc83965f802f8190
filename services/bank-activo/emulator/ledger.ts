import { incomingReceipt, type IncomingPagoMovil, type IncomingPayments, type IncomingReceipt } from '@switch/connector-kit/emulator';

/**
 * The emulated bank's books: balances in cents, statements, and every order it took, keyed by the
 * merchant's `locator` (its duplicate guard). An account or phone seen for the first time opens with
 * the default balance, unless it ends in 9999 (then it does not exist).
 */

export type Estatus = 'ACCP' | 'AC00' | 'RJCT';
export type OrderKind = 'otp' | 'debito' | 'c2p' | 'p2p' | 'credito';

export interface Movement {
  fecha: string; // dd/MM/yyyy
  hora: string; // HH:mm:ss
  referencia: string;
  concepto: string;
  montoCents: number;
  tipo: 'D' | 'C';
  saldoCents: number;
  /** The payer of an incoming pago móvil, as the statement answers it [INV]. */
  origen?: { banco: string; telefono: string; cedula: string | null };
}

export interface Account {
  /** 20-digit account number, or the phone in the bank's form (58 + 10 digits). */
  id: string;
  disponibleCents: number;
  contableCents: number;
  movements: Movement[];
}

export interface Order {
  locator: string;
  kind: OrderKind;
  nroReferencia: string;
  endtoend: string | null;
  estatus: Estatus;
  /** Rejection reason: the bank's code or an ISO 20022 reason. */
  motivo: string | null;
  montoCents: number;
  concepto: string;
  /** Where the money comes from and goes to (account ids); null when nothing moves (OTP request). */
  from: string | null;
  to: string | null;
  /** How a pending order will settle when its time comes (magic amounts, `settle`). */
  planned: { estatus: 'ACCP' | 'RJCT'; motivo: string | null };
  /** The answer first given, replayed byte for byte to a repeated locator. */
  answer: { status: number; body: Record<string, unknown> };
  /** Requests that carried this locator, the first included. */
  calls: number;
  createdAt: Date;
  settledAt: Date | null;
}

export interface OtpGrant {
  idSolicitud: string;
  otp: string;
  /** The payer's phone (bank form) or account. */
  instrumento: string;
  montoCents: number;
  expiresAt: number;
  used: boolean;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const caracas = (d: Date) => new Date(d.getTime() - 4 * 3600_000).toISOString();

/** Activo books an incoming pago móvil under the last 10 digits of the payer bank's reference [INV]. */
export const activoReference = (payer: string): string => payer.slice(-10);

export class Ledger implements IncomingPayments {
  readonly accounts = new Map<string, Account>();
  readonly orders = new Map<string, Order>();
  readonly otps = new Map<string, OtpGrant>();
  /** nroReferencia, endtoend or id_solicitud → locator. */
  private readonly refs = new Map<string, string>();
  private seq = 0;

  constructor(
    readonly merchantAccount: string,
    private readonly defaultBalanceCents: number,
    private readonly now: () => Date,
    seed: Record<string, number> = {},
  ) {
    for (const [id, balance] of Object.entries(seed)) this.open(id, Math.round(balance * 100));
    if (!this.accounts.has(merchantAccount)) this.open(merchantAccount, defaultBalanceCents);
  }

  exists(id: string): boolean {
    return this.accounts.has(id) || !id.endsWith('9999');
  }

  account(id: string): Account {
    return this.accounts.get(id) ?? this.open(id, this.defaultBalanceCents);
  }

  private open(id: string, cents: number): Account {
    const a: Account = { id, disponibleCents: cents, contableCents: cents, movements: [] };
    this.accounts.set(id, a);
    return a;
  }

  nextReferencia(): string {
    return pad(++this.seq, 10);
  }

  /** `<originator bank><yyyyMMddHHmmss><10-digit sequence>` (PROTOCOLS §5.3 [INV]). */
  nextEndtoend(): string {
    const t = caracas(this.now()).replace(/[-:T]/g, '').slice(0, 14);
    return `0171${t}${pad(++this.seq, 10)}`;
  }

  record(order: Order): void {
    this.orders.set(order.locator, order);
    this.refs.set(order.nroReferencia, order.locator);
    if (order.endtoend) this.refs.set(order.endtoend, order.locator);
  }

  find(key: { locator?: string; nroReferencia?: string; endtoend?: string }): Order | undefined {
    const locator = key.locator ?? this.refs.get(key.nroReferencia ?? '') ?? this.refs.get(key.endtoend ?? '');
    return locator === undefined ? undefined : this.orders.get(locator);
  }

  /** Reserve funds for a pending debit: false when the available balance does not cover it. */
  hold(id: string, cents: number): boolean {
    const a = this.account(id);
    if (a.disponibleCents < cents) return false;
    a.disponibleCents -= cents;
    return true;
  }

  release(id: string, cents: number): void {
    this.account(id).disponibleCents += cents;
  }

  /** Book a movement; a debit of held funds only lowers the ledger balance (available already is). */
  post(id: string, tipo: 'D' | 'C', cents: number, referencia: string, concepto: string, held = false): void {
    const a = this.account(id);
    const delta = tipo === 'C' ? cents : -cents;
    a.contableCents += delta;
    if (!held) a.disponibleCents += delta;
    const at = caracas(this.now());
    a.movements.push({
      fecha: `${at.slice(8, 10)}/${at.slice(5, 7)}/${at.slice(0, 4)}`,
      hora: at.slice(11, 19),
      referencia,
      concepto,
      montoCents: cents,
      tipo,
      saldoCents: a.contableCents,
    });
  }

  /** A payer's pago móvil credited to `cuenta`, on the bank's booking day, with the payer's bank, phone and id. */
  receivePagoMovil(payment: IncomingPagoMovil): IncomingReceipt {
    const receipt = incomingReceipt(payment, activoReference);
    const a = this.account(payment.cuenta);
    const cents = Math.round(payment.monto * 100);
    a.contableCents += cents;
    a.disponibleCents += cents;
    const f = receipt.fechaBanco;
    a.movements.push({
      fecha: `${f.slice(8, 10)}/${f.slice(5, 7)}/${f.slice(0, 4)}`,
      hora: receipt.fechaBanco === receipt.fecha ? caracas(payment.at).slice(11, 19) : '00:00:00',
      referencia: receipt.referenciaBanco,
      concepto: payment.concepto ?? 'PAGO MOVIL RECIBIDO',
      montoCents: cents,
      tipo: 'C',
      saldoCents: a.contableCents,
      origen: { banco: payment.bancoPagador, telefono: payment.telefonoPagador, cedula: payment.identificacionPagador ?? null },
    });
    return receipt;
  }

  /** Moves a pending order to its final state, once. */
  settle(order: Order, estatus: 'ACCP' | 'RJCT', motivo: string | null): boolean {
    if (order.estatus !== 'AC00') return false;
    order.estatus = estatus;
    order.motivo = estatus === 'RJCT' ? (motivo ?? 'RJCT') : null;
    order.settledAt = this.now();
    if (order.from && order.to) {
      if (estatus === 'ACCP') {
        this.post(order.from, 'D', order.montoCents, order.nroReferencia, order.concepto, true);
        this.post(order.to, 'C', order.montoCents, order.nroReferencia, order.concepto);
      } else {
        this.release(order.from, order.montoCents);
      }
    }
    return true;
  }

  grantOtp(grant: OtpGrant): void {
    this.otps.set(grant.idSolicitud, grant);
  }

  /** Latest OTP sent to a phone or account, or the one of an id_solicitud. */
  otpFor(q: { telefono?: string; cuenta?: string; id_solicitud?: string }): OtpGrant | undefined {
    if (q.id_solicitud) return this.otps.get(q.id_solicitud);
    const target = q.cuenta ?? (q.telefono ? (q.telefono.startsWith('0') ? `58${q.telefono.slice(1)}` : q.telefono) : undefined);
    return [...this.otps.values()].reverse().find((g) => g.instrumento === target);
  }
}
