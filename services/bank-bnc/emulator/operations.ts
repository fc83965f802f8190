import { randomInt } from 'node:crypto';
import { hasAtMostDecimals } from '@switch/core/contracts/fields';
import { BNC_CODES } from '../src/codes';
import { daysBetween, fechaHaciaBnc, venezuelanDate } from '../src/requests';
import { type EmulatedMerchant, type Ledger, round2, sameId, type LedgerOrder, type OrderKind } from './ledger';

/** What the bank answers to one operation (before encryption). */
export interface Reply {
  httpStatus?: number;
  status: 'OK' | 'KO';
  message: string;
  value: unknown;
}

export interface OperationsOptions {
  /** The parent's RIF (the ClientGUID's own merchant). */
  clientId: string;
  /** Whether the ClientGUID may act for child merchants (`ChildClientID`); without it any child → EPIMC1. Default true. */
  childPermission?: boolean;
  otpTtlMs: number;
  /** null: SIMF orders settle only through the controls. */
  settleDelayMs: number | null;
  now: () => Date;
}

/** The BNC paths the emulator serves (besides Auth/LogOn), and whether they take money orders. */
export const MONEY_PATHS = new Set([
  'MobPayment/SendC2P',
  'MobPayment/ReverseC2P',
  'MobPayment/SendP2P',
  'SIMF/DebitTokenRequest',
  'SIMF/DebitBeginner',
  'SIMF/CreditBeginner',
]);
export const QUERY_PATHS = new Set(['SIMF/GetStatusTrans', 'Position/Current', 'Position/HistoryByDate']);
const SIMF_ORDER_PATHS = new Set(['SIMF/DebitBeginner', 'SIMF/CreditBeginner']);

/** `OperationType` values GetStatusTrans accepts [INV], as in the connector. */
export const OPERATION_TYPES: Readonly<Record<string, OrderKind>> = { DEBITO: 'debit', CREDITO: 'credit' };

/**
 * Magic cents (the last two decimals of `Amount`) → the answer, per family, so any process can pick
 * an outcome. `settle` codes apply to SIMF orders: accepted first, rejected at settlement.
 */
export const MAGIC_CENTS: Readonly<Record<string, { p2p?: string; c2p?: string; simf?: string; settle?: string }>> = {
  '51': { p2p: 'G51', c2p: 'G51', simf: 'AM04' },
  '52': { p2p: 'G52', c2p: 'G56', simf: 'AC01' },
  '55': { c2p: 'G55', simf: 'TKCM' },
  '61': { p2p: 'G61', c2p: 'G61', simf: 'AM02' },
  '62': { p2p: 'G62', c2p: 'G62', simf: 'AC06' },
  '65': { p2p: 'G65', c2p: 'G65' },
  '80': { p2p: 'G80', c2p: 'G80', simf: 'BE01' },
  '91': { p2p: 'G91', c2p: 'G91', simf: 'AB07' },
  '96': { p2p: 'G96', c2p: 'G96' },
  '97': { p2p: 'EPIE00', c2p: 'EPIE00', simf: 'EPIE00' },
  '77': { settle: 'AM04' },
  '78': { settle: 'AC01' },
  '79': { settle: 'CUST' },
};

const cents = (amount: number) => String(Math.round(amount * 100) % 100).padStart(2, '0');
const textOf = (code: string) => BNC_CODES[code]?.descripcion ?? 'Operación rechazada';
/** ISO 20022 reasons travel inside a SIMF answer's value; EPI/G/SMF codes in the message. */
const isIso = (code: string) => /^[A-Z]{2}[0-9]{2}$|^(RJCT|CUST|TKCM)$/.test(code);

export const ko = (code: string, text = textOf(code)): Reply => ({ status: 'KO', message: `${code}${text}`, value: null });

type Check = (v: unknown) => boolean;
const is = {
  int: ((v) => Number.isInteger(v) && (v as number) > 0) as Check,
  amount: ((v) => typeof v === 'number' && v > 0 && hasAtMostDecimals(v, 2)) as Check,
  phone: ((v) => typeof v === 'string' && /^58[0-9]{10}$/.test(v)) as Check,
  id: ((v) => typeof v === 'string' && /^[VEJGP][0-9]{1,9}$/.test(v)) as Check,
  bank: ((v) => typeof v === 'string' && /^[0-9]{4}$/.test(v)) as Check,
  account: ((v) => typeof v === 'string' && /^[0-9]{20}$/.test(v)) as Check,
  instrument: ((v) => typeof v === 'string' && (/^[0-9]{20}$/.test(v) || /^58[0-9]{10}$/.test(v))) as Check,
  accType: ((v) => v === 'CNTA' || v === 'CELE') as Check,
  text:
    (max: number): Check =>
    (v) =>
      typeof v === 'string' && v.trim().length > 0 && Array.from(v).length <= max,
  optText:
    (max: number): Check =>
    (v) =>
      v === undefined || v === null || (typeof v === 'string' && Array.from(v).length <= max),
  date: ((v) => typeof v === 'string' && /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T00:00:00)?$/.test(v)) as Check,
  digits: ((v) => typeof v === 'string' && /^[0-9]{4,12}$/.test(v)) as Check,
  string: ((v) => typeof v === 'string' && v.trim() !== '') as Check,
};

/** The model each path binds (ASP.NET would refuse the rest with EPIIMS). */
const MODELS: Readonly<Record<string, Record<string, Check>>> = {
  'MobPayment/SendC2P': {
    DebtorBankCode: is.int,
    DebtorCellPhone: is.phone,
    DebtorID: is.id,
    Amount: is.amount,
    Token: is.digits,
    Terminal: is.string,
  },
  'MobPayment/ReverseC2P': { IdTransactionToReverse: is.int, Amount: is.amount, Terminal: is.string },
  'MobPayment/SendP2P': {
    Amount: is.amount,
    BeneficiaryBankCode: is.int,
    BeneficiaryCellPhone: is.phone,
    BeneficiaryID: is.id,
    BeneficiaryName: is.text(100),
    Description: is.text(100),
    OperationRef: is.optText(20),
  },
  'SIMF/DebitTokenRequest': {
    Amount: is.amount,
    DebtorAccount: is.instrument,
    DebtorAccountType: is.accType,
    DebtorBank: is.bank,
    DebtorID: is.id,
  },
  'SIMF/DebitBeginner': {
    Amount: is.amount,
    DebtorAccount: is.instrument,
    DebtorAccType: is.accType,
    DebtorBank: is.bank,
    DebtorID: is.id,
    DebtorName: is.text(80),
    Concept: is.text(100),
    AddtlInf: (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) < 1e8,
  },
  'SIMF/CreditBeginner': {
    Amount: is.amount,
    CreditorBank: is.bank,
    CreditorID: is.id,
    CreditorAccType: is.accType,
    CreditorAccount: is.instrument,
    CreditorName: is.text(80),
    Concept: is.text(100),
  },
  'SIMF/GetStatusTrans': { OperationType: (v) => typeof v === 'string' && v in OPERATION_TYPES, Reference: is.string },
  'Position/Current': { ClientID: is.id },
  'Position/HistoryByDate': { ClientID: is.id, AccountNumber: is.account, StartDate: is.date, EndDate: is.date },
};

function invalidFields(path: string, inner: Record<string, unknown>): string[] {
  const model = MODELS[path] ?? {};
  const bad = Object.entries(model)
    .filter(([name, check]) => !check(inner[name]))
    .map(([name]) => name);
  // The instrument type must agree with the instrument.
  for (const [acc, type] of [
    ['DebtorAccount', inner.DebtorAccountType ?? inner.DebtorAccType],
    ['CreditorAccount', inner.CreditorAccType],
  ] as const) {
    const v = inner[acc];
    if (typeof v === 'string' && ((type === 'CNTA' && v.length !== 20) || (type === 'CELE' && !v.startsWith('58')))) bad.push(acc);
  }
  return bad;
}

/**
 * The bank's operations on decrypted inner requests: executes against the ledger, issues OTPs,
 * keeps SIMF orders pending until they settle (timer or controls).
 */
export class BncOperations {
  readonly otps = new Map<string, { otp: string; expiresAt: number }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private referenceSeq = 12_282;
  private transactionSeq = 500_000;
  private e2eSeq = 0;

  constructor(
    readonly ledger: Ledger,
    private readonly options: OperationsOptions,
  ) {}

  /**
   * The merchant a request acts for: the parent (no `ChildClientID`, or the parent's own RIF), or a
   * child merchant the bank knows under this ClientGUID (PROTOCOLS §1.4). A child the ClientGUID may
   * not act for → EPIMC1; one the bank does not know → EPIMC2 (both refused at the door, §1.5).
   */
  merchantOf(inner: Record<string, unknown>): { ok: true; merchant: EmulatedMerchant } | { ok: false; reply: Reply } {
    const parent = { clientId: this.options.clientId, account: this.ledger.merchantAccount };
    const child = inner.ChildClientID;
    if (child === undefined || child === null || child === '') return { ok: true, merchant: parent };
    if (!is.id(child)) return { ok: false, reply: ko('EPIIMS', 'El modelo recibido no cumple con las validaciones: ChildClientID') };
    if (sameId(child as string, this.options.clientId)) return { ok: true, merchant: parent };
    if (this.options.childPermission === false) return { ok: false, reply: ko('EPIMC1') };
    const known = this.ledger.childOf(child as string);
    return known ? { ok: true, merchant: known } : { ok: false, reply: ko('EPIMC2') };
  }

  handle(path: string, inner: Record<string, unknown>, clientReference: string): Reply {
    const bad = invalidFields(path, inner);
    if (bad.length) return ko('EPIIMS', `El modelo recibido no cumple con las validaciones: ${bad.join(', ')}`);
    const acting = this.merchantOf(inner);
    if (!acting.ok) return acting.reply;
    const m = acting.merchant;
    switch (path) {
      case 'MobPayment/SendC2P':
        return this.sendC2P(m, inner, clientReference);
      case 'MobPayment/ReverseC2P':
        return this.reverseC2P(m, inner, clientReference);
      case 'MobPayment/SendP2P':
        return this.sendP2P(m, inner, clientReference);
      case 'SIMF/DebitTokenRequest':
        return this.debitToken(m, inner, clientReference);
      case 'SIMF/DebitBeginner':
        return this.debit(m, inner, clientReference);
      case 'SIMF/CreditBeginner':
        return this.credit(m, inner, clientReference);
      case 'SIMF/GetStatusTrans':
        return this.status(m, inner);
      case 'Position/Current':
        return this.current(m, inner);
      case 'Position/HistoryByDate':
        return this.history(m, inner);
      default:
        return ko('EPIIMS', 'Operación desconocida');
    }
  }

  /** The answer to a rejection forced by `rejectNext` (ISO reasons inside a SIMF order's value). */
  forcedRejection(path: string, code: string, inner: Record<string, unknown>, clientReference: string): Reply {
    if (SIMF_ORDER_PATHS.has(path) && isIso(code)) {
      const kind = path === 'SIMF/DebitBeginner' ? 'debit' : 'credit';
      const acting = this.merchantOf(inner);
      const merchant = acting.ok ? acting.merchant.clientId : this.options.clientId;
      return this.simfRejected(merchant, kind, Number(inner.Amount) || 0, clientReference, code);
    }
    return ko(code);
  }

  private get today(): string {
    return venezuelanDate(this.options.now());
  }

  private nextReference(): string {
    return String(++this.referenceSeq);
  }

  private endToEnd(): string {
    const stamp = new Date(this.options.now().getTime() - 4 * 3600_000)
      .toISOString()
      .replace(/[^0-9]/g, '')
      .slice(0, 14);
    return `0191${stamp}${String(++this.e2eSeq).padStart(10, '0')}`;
  }

  private newOrder(fields: Omit<LedgerOrder, 'createdAt'>): LedgerOrder {
    return this.ledger.addOrder({ ...fields, createdAt: this.options.now().toISOString() });
  }

  private sendC2P(m: EmulatedMerchant, inner: Record<string, unknown>, clientReference: string): Reply {
    const amount = inner.Amount as number;
    const phone = inner.DebtorCellPhone as string;
    const magic = MAGIC_CENTS[cents(amount)]?.c2p;
    if (magic) return ko(magic);
    // The payer's key comes from his own bank; an all-zero key stands for a wrong one.
    if (/^0+$/.test(inner.Token as string)) return ko('G55');
    if (!this.ledger.canPay(phone, amount)) return ko('G51');
    const reference = this.nextReference();
    const idTransaction = ++this.transactionSeq;
    this.ledger.transfer({
      from: phone,
      to: m.account,
      amount,
      date: this.today,
      concept: `COBRO C2P ${phone}`,
      code: '388',
      bankCode: inner.DebtorBankCode as number,
      referenceA: reference,
      referenceB: clientReference,
      controlNumber: String(idTransaction),
      debtorInstrument: phone,
    });
    this.newOrder({
      kind: 'c2p',
      merchant: m.clientId,
      reference,
      clientReference,
      amount,
      state: 'settled',
      code: null,
      from: phone,
      to: m.account,
      idTransaction,
    });
    return {
      status: 'OK',
      message: `000000Cobro C2P procesado por un monto de ${amount.toFixed(2)}, Nro de Referencia: ${reference}`,
      value: { IdTransaction: idTransaction, Reference: reference },
    };
  }

  private reverseC2P(m: EmulatedMerchant, inner: Record<string, unknown>, clientReference: string): Reply {
    const id = inner.IdTransactionToReverse as number;
    // Only the merchant's own collections: another merchant's transaction is not found.
    const original = [...this.ledger.orders.values()].find((o) => o.kind === 'c2p' && o.idTransaction === id && o.merchant === m.clientId);
    if (original?.state !== 'settled') return ko('G06', 'Transacción a reversar no encontrada');
    if (original.reversedBy) return ko('G94');
    if (round2(inner.Amount as number) !== original.amount) return ko('G13', 'Monto no coincide con la transacción original');
    if (!this.ledger.canPay(m.account, original.amount)) return ko('G51');
    const reference = this.nextReference();
    this.ledger.transfer({
      from: m.account,
      to: original.from!,
      amount: original.amount,
      date: this.today,
      concept: `REVERSO C2P ${original.reference}`,
      code: '389',
      bankCode: 191,
      referenceA: reference,
      referenceB: clientReference,
      referenceC: original.reference,
    });
    original.reversedBy = reference;
    this.newOrder({
      kind: 'reverse_c2p',
      merchant: m.clientId,
      reference,
      clientReference,
      amount: original.amount,
      state: 'settled',
      code: null,
      from: m.account,
      to: original.from,
    });
    return { status: 'OK', message: `000000Reverso procesado, Nro de Referencia: ${reference}`, value: { Reference: reference } };
  }

  private sendP2P(m: EmulatedMerchant, inner: Record<string, unknown>, clientReference: string): Reply {
    const amount = inner.Amount as number;
    const phone = inner.BeneficiaryCellPhone as string;
    const operationRef = typeof inner.OperationRef === 'string' && inner.OperationRef !== '' ? inner.OperationRef : undefined;
    if (operationRef) {
      const paid = [...this.ledger.orders.values()].find(
        (o) => o.kind === 'p2p' && o.operationRef === operationRef && o.state === 'settled' && o.merchant === m.clientId,
      );
      if (paid) {
        return {
          status: 'OK',
          message: `000000Pago Móvil procesado anteriormente, Código de Autorización: ${paid.authorizationCode}, Nro de Referencia: ${paid.reference}`,
          value: { Reference: paid.reference, AuthorizationCode: paid.authorizationCode, SwAlreadySent: true },
        };
      }
    }
    const magic = MAGIC_CENTS[cents(amount)]?.p2p;
    if (magic) return ko(magic);
    if (!this.ledger.canPay(m.account, amount)) return ko('G51');
    const reference = this.nextReference();
    const authorizationCode = String(randomInt(100_000, 1_000_000));
    this.ledger.transfer({
      from: m.account,
      to: phone,
      amount,
      date: this.today,
      concept: String(inner.Description),
      code: '488',
      bankCode: inner.BeneficiaryBankCode as number,
      referenceA: reference,
      referenceB: clientReference,
      referenceC: operationRef,
      debtorInstrument: phone,
    });
    this.newOrder({
      kind: 'p2p',
      merchant: m.clientId,
      reference,
      clientReference,
      amount,
      state: 'settled',
      code: null,
      from: m.account,
      to: phone,
      authorizationCode,
      operationRef,
    });
    return {
      status: 'OK',
      message: `000000Pago Móvil procesado por un monto de ${amount.toFixed(2)}, Código de Autorización: ${authorizationCode}, Nro de Referencia: ${reference}`,
      value: { Reference: reference, AuthorizationCode: authorizationCode, SwAlreadySent: false },
    };
  }

  private debitToken(m: EmulatedMerchant, inner: Record<string, unknown>, clientReference: string): Reply {
    const amount = inner.Amount as number;
    const magic = MAGIC_CENTS[cents(amount)]?.simf;
    if (magic && !isIso(magic)) return ko(magic);
    const debtor = inner.DebtorAccount as string;
    // A leading zero would not survive AddtlInf being an int.
    const otp = String(randomInt(10_000_000, 100_000_000));
    this.otps.set(debtor, { otp, expiresAt: this.options.now().getTime() + this.options.otpTtlMs });
    const reference = this.nextReference();
    this.newOrder({
      kind: 'token',
      reference,
      clientReference,
      amount,
      state: 'settled',
      code: null,
      from: debtor,
      to: null,
      merchant: m.clientId,
    });
    return { status: 'OK', message: '000000Se ha enviado el código de autorización al cliente', value: { Reference: reference } };
  }

  private debit(m: EmulatedMerchant, inner: Record<string, unknown>, clientReference: string): Reply {
    const amount = inner.Amount as number;
    const debtor = inner.DebtorAccount as string;
    const magic = MAGIC_CENTS[cents(amount)];
    if (magic?.simf)
      return isIso(magic.simf) ? this.simfRejected(m.clientId, 'debit', amount, clientReference, magic.simf) : ko(magic.simf);
    const issued = this.otps.get(debtor);
    if (!issued || issued.expiresAt <= this.options.now().getTime() || Number(issued.otp) !== inner.AddtlInf) {
      return this.simfRejected(m.clientId, 'debit', amount, clientReference, 'TKCM');
    }
    this.otps.delete(debtor);
    return this.simfAccepted(m.clientId, 'debit', amount, clientReference, debtor, m.account, magic?.settle ?? null);
  }

  private credit(m: EmulatedMerchant, inner: Record<string, unknown>, clientReference: string): Reply {
    const amount = inner.Amount as number;
    const magic = MAGIC_CENTS[cents(amount)];
    if (magic?.simf)
      return isIso(magic.simf) ? this.simfRejected(m.clientId, 'credit', amount, clientReference, magic.simf) : ko(magic.simf);
    if (!this.ledger.canPay(m.account, amount)) return this.simfRejected(m.clientId, 'credit', amount, clientReference, 'AM04');
    return this.simfAccepted(
      m.clientId,
      'credit',
      amount,
      clientReference,
      m.account,
      inner.CreditorAccount as string,
      magic?.settle ?? null,
    );
  }

  private simfAccepted(
    merchant: string,
    kind: 'debit' | 'credit',
    amount: number,
    clientReference: string,
    from: string,
    to: string,
    settleAs: string | null,
  ): Reply {
    const order = this.newOrder({
      kind,
      reference: this.nextReference(),
      clientReference,
      amount,
      state: 'pending',
      code: 'AC00',
      from,
      to,
      endToEndId: this.endToEnd(),
      settleAs,
      merchant,
    });
    if (this.options.settleDelayMs !== null) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.settle(order.reference);
      }, this.options.settleDelayMs);
      timer.unref();
      this.timers.add(timer);
    }
    return {
      httpStatus: 202,
      status: 'OK',
      message: '000000Operación recibida, en espera de respuesta del receptor',
      value: simfValue(order),
    };
  }

  private simfRejected(merchant: string, kind: 'debit' | 'credit', amount: number, clientReference: string, code: string): Reply {
    const order = this.newOrder({
      kind,
      reference: this.nextReference(),
      clientReference,
      amount,
      state: 'rejected',
      code,
      from: null,
      to: null,
      endToEndId: this.endToEnd(),
      merchant,
    });
    return { status: 'OK', message: '000000Operación rechazada', value: simfValue(order) };
  }

  /**
   * Settles a pending SIMF order: `outcome` ACCP or an ISO reason; by default the magic amount's
   * reason or, when the payer cannot pay, AM04.
   */
  settle(reference: string, outcome?: string): LedgerOrder | undefined {
    const order = this.ledger.findOrder(reference);
    if (order?.state !== 'pending') return order;
    let code = outcome ?? order.settleAs ?? 'ACCP';
    if (code === 'ACCP' && !this.ledger.canPay(order.from!, order.amount)) code = 'AM04';
    if (code !== 'ACCP') {
      order.state = 'rejected';
      order.code = code;
      return order;
    }
    this.ledger.transfer({
      from: order.from!,
      to: order.to!,
      amount: order.amount,
      date: this.today,
      concept: order.kind === 'debit' ? `DEBITO INMEDIATO ${order.from}` : `CREDITO INMEDIATO ${order.to}`,
      code: order.kind === 'debit' ? '050' : '051',
      bankCode: 191,
      referenceA: order.reference,
      referenceB: order.clientReference,
      referenceC: order.endToEndId,
      debtorInstrument: order.from,
    });
    order.state = 'settled';
    order.code = 'ACCP';
    return order;
  }

  settleAll(): LedgerOrder[] {
    return [...this.ledger.orders.values()].filter((o) => o.state === 'pending').map((o) => this.settle(o.reference)!);
  }

  private status(m: EmulatedMerchant, inner: Record<string, unknown>): Reply {
    const kind = OPERATION_TYPES[inner.OperationType as string];
    const order = this.ledger.findOrder(inner.Reference as string);
    // Another merchant's operation is not found for this one (its ChildClientID scopes the query).
    if (!order || order.kind !== kind || order.merchant !== m.clientId) return ko('SMF001');
    const txSts = order.state === 'settled' ? 'ACCP' : order.state === 'pending' ? 'AC00' : 'RJCT';
    const rsn = order.state === 'rejected' ? `${order.code}${textOf(order.code!)}` : textOf(txSts);
    return {
      status: 'OK',
      message: '000000Consulta exitosa',
      value: { Reference: order.reference, TxSts: txSts, RsnDescription: rsn, EndToEndId: order.endToEndId ?? null },
    };
  }

  private current(m: EmulatedMerchant, inner: Record<string, unknown>): Reply {
    if (!sameId(inner.ClientID as string, m.clientId)) return ko('EPIANF');
    const account = m.account;
    return {
      status: 'OK',
      message: '000000Consulta exitosa',
      value: { [account]: { CurrencyCode: 'VES', Balance: this.ledger.balanceOf(account) } },
    };
  }

  private history(m: EmulatedMerchant, inner: Record<string, unknown>): Reply {
    if (!sameId(inner.ClientID as string, m.clientId)) return ko('EPIANF');
    const start = (inner.StartDate as string).slice(0, 10);
    const end = (inner.EndDate as string).slice(0, 10);
    if (daysBetween(start, end) < 0 || daysBetween(start, end) > 30) return ko('EPIIMS', 'El rango de fechas no puede superar 31 días');
    const account = inner.AccountNumber as string;
    // Another client's account is simply not among this client's accounts.
    if (account !== m.account) return { status: 'OK', message: '000000Consulta exitosa', value: {} };
    const lines = this.ledger
      .account(account)
      .movements.filter((m) => m.date >= start && m.date <= end)
      .map((m) => ({
        Date: fechaHaciaBnc(m.date),
        ControlNumber: m.controlNumber,
        Amount: m.amount,
        Code: m.code,
        BankCode: m.bankCode,
        DebtorInstrument: m.debtorInstrument,
        DebtorID: m.debtorId ?? null,
        Concept: m.concept,
        Type: m.balanceDelta === 'Ingreso' ? 'NC' : 'ND',
        BalanceDelta: m.balanceDelta,
        ReferenceA: m.referenceA,
        ReferenceB: m.referenceB,
        ReferenceC: m.referenceC,
        ReferenceD: m.referenceD,
      }));
    return { status: 'OK', message: '000000Consulta exitosa', value: { [account]: lines } };
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

function simfValue(order: LedgerOrder): Record<string, unknown> {
  const rejected = order.state === 'rejected';
  return {
    Reference: order.reference,
    OperationType: order.kind === 'debit' ? 'DEBITO' : 'CREDITO',
    SubOperationType: order.kind === 'debit' ? 'DI' : 'CI',
    Status: rejected ? 'RJCT' : order.state === 'settled' ? 'ACCP' : 'AC00',
    Code: order.code,
    RejectDescription: rejected ? textOf(order.code!) : '',
    EndToEndId: order.endToEndId ?? null,
  };
}
