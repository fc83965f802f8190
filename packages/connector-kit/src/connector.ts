/** What a bank folder implements with the kit: the connector (`defineConnector`), the outcome vocabulary its answers map to, and its account reads. */
import type {
  BancoId,
  Capability,
  Mode,
  Movimientos,
  MovimientosQuery,
  Saldo,
  SaldoQuery,
  CreditoRecibido,
  CreditosQuery,
  Movimiento,
  Pagador,
} from '@switch/core/contracts/bancos';
import type { BankOutcome } from '@switch/core/operation';
import type { BankConnector, ExecuteOrder, ReadContext, ReadOutcome, StatusQuery, Raw } from './bank-port';
import { type BankBreakers, GuardedSend, tracked, type KitDeps, type SendOptions } from './send';
import { FormatError } from './formats';
import type { MotivoRechazo } from '@switch/core/estados';

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A real bank's connector: guarded by its breakers, holding connections it must close. */
export interface GuardedConnector extends BankConnector {
  readonly breakers: BankBreakers;
  close(): Promise<void>;
}

/**
 * What a bank gives the kit: its own protocol, requests, responses and codes, wired in four
 * methods. Each receives the kit's guarded send; none needs to catch: the kit turns a throw into
 * the right outcome (see `BankConnectorKit`).
 */
export interface BankDefinition extends BankConnector {
  /** Releases what the bank's protocol holds besides the kit's HTTP pool (none by default). */
  close?(): Promise<void>;
}

/**
 * The connector every bank is: a `BankDefinition` behind the kit's rules. It never throws:
 * - an order that throws before any request left is refused here (a `FormatError` with its motivo,
 *   anything else RECHAZO_TECNICO): the bank never saw it;
 * - an order that throws after a request left is `unknown`: it may have moved money;
 * - a status query that throws is `unknown` (the state stays);
 * - a read that throws fails with the FormatError's motivo or RECHAZO_TECNICO.
 */
export class BankConnectorKit<B extends BankDefinition = BankDefinition> implements GuardedConnector {
  readonly banco: BancoId;
  readonly capabilities: readonly Capability[];
  readonly breakers: BankBreakers;

  constructor(
    /** The bank's own part, exposed for tests and operations (e.g. BNC's session). */
    readonly bank: B,
    readonly kit: GuardedSend,
  ) {
    this.banco = bank.banco;
    this.capabilities = bank.capabilities;
    this.breakers = kit.breakers;
  }

  async execute(order: ExecuteOrder): Promise<BankOutcome> {
    const run = await tracked(() => this.bank.execute(order));
    if ('value' in run) return run.value;
    if (run.sent) return unknownOutcome({ switch: `connector failure after sending: ${message(run.error)}` });
    if (run.error instanceof FormatError)
      return rejectedOutcome(run.error.motivo, { switch: true, codigo: 'FORMATO', descripcion: run.error.message });
    return rejectedOutcome('RECHAZO_TECNICO', {
      switch: true,
      codigo: 'NO_ENVIADA',
      descripcion: `order not built: ${message(run.error)}`,
    });
  }

  async status(query: StatusQuery): Promise<BankOutcome> {
    try {
      return await this.bank.status(query);
    } catch (error) {
      return unknownOutcome({ switch: `status not read: ${message(error)}` });
    }
  }

  /** `context` names the reader and its registered account: the bank is asked as the merchant that holds it. */
  saldo(mode: Mode, query: SaldoQuery, context?: ReadContext): Promise<ReadOutcome<Saldo>> {
    return read(() => this.bank.saldo(mode, query, context));
  }

  movimientos(mode: Mode, query: MovimientosQuery, context?: ReadContext): Promise<ReadOutcome<Movimientos>> {
    return read(() => this.bank.movimientos(mode, query, context));
  }

  creditos(mode: Mode, query: CreditosQuery, context?: ReadContext): Promise<ReadOutcome<CreditoRecibido[]>> {
    const bank = this.bank;
    if (!bank.creditos) return Promise.resolve(notSupported(`${this.banco} does not read incoming credits`));
    return read(() => bank.creditos!(mode, query, context));
  }

  async close(): Promise<void> {
    await this.bank.close?.();
    await this.kit.close();
  }
}

/** A read this bank cannot do: refused, nothing sent. */
export const notSupported = (descripcion: string): Extract<ReadOutcome<never>, { ok: false }> => ({
  ok: false,
  motivo: 'NO_SOPORTADO',
  raw: { switch: true, codigo: 'NO_SOPORTADO', descripcion },
});

async function read<T>(work: () => Promise<ReadOutcome<T>>): Promise<ReadOutcome<T>> {
  try {
    return await work();
  } catch (error) {
    return { ok: false, motivo: error instanceof FormatError ? error.motivo : 'RECHAZO_TECNICO', raw: { switch: message(error) } };
  }
}

/**
 * Defines a bank's connector class from its definition: `new Connector(config, deps)` builds the
 * kit's guarded send for the bank and the bank's part over it.
 */
export function defineConnector<C extends SendOptions, D extends KitDeps, B extends BankDefinition>(
  banco: BancoId,
  build: (config: C, kit: GuardedSend, deps: D) => B,
): new (
  config: C,
  deps?: D,
) => BankConnectorKit<B> {
  return class extends BankConnectorKit<B> {
    constructor(config: C, deps: D = {} as D) {
      const kit = new GuardedSend(banco, config, deps);
      super(build(config, kit, deps), kit);
    }
  };
}

/** A bank's balance figures: `contable` defaults to `disponible` and `bloqueado` to 0 when the bank gives only the available balance. */
export interface SaldoFigures {
  disponible: number;
  contable?: number | null;
  bloqueado?: number | null;
}

/** A balance read as the switch reports it (`GET /saldo`), from a bank's figures at `at`. */
export function saldoRead(
  banco: BancoId,
  cuenta: string,
  figures: SaldoFigures,
  at: Date,
  raw: Record<string, unknown>,
): ReadOutcome<Saldo> {
  const { disponible } = figures;
  return {
    ok: true,
    value: {
      cuenta,
      banco,
      moneda: 'VES',
      disponible,
      contable: figures.contable ?? disponible,
      bloqueado: figures.bloqueado ?? 0,
      consultado_en: at.toISOString(),
      raw,
    },
  };
}

/**
 * The one vocabulary for what a bank's answer means (STYLE "The seams that keep money safe"), and
 * the one shape of a bank's code table. Every connector maps its codes onto `Meaning`; the kit turns
 * a meaning into the switch's `BankOutcome` (domain/operation.ts) with the money rules applied once:
 *
 * - only an answer *known* to mean "not executed" is a rejection (`rejected`) or `not_processed`;
 * - a code a table does not list, a bare HTTP error, a cut or unreadable answer is `unknown`: the
 *   order becomes DESCONOCIDA and a status query settles it (DESIGN rule 3);
 * - in a status query a refusal of the *query* (auth, throttling, a failure of the bank) says
 *   nothing about the order: `unknown`, never a rejection of an order that may have moved money.
 */
export type Meaning =
  /** The money moved (ISO ACCP, a synchronous pago móvil/C2P success). */
  | 'settled'
  /** Taken by the bank, its final state comes later (an OTP sent, an order sent to the CCE). */
  | 'accepted'
  /** Waiting for the receiving bank (ISO AC00). */
  | 'pending'
  /** The bank refused the order: it did not run. Final, with `motivo`. */
  | 'rejected'
  /** The bank says explicitly it did not take the order: a payout may go to another bank. In a status answer: the bank has no such order. */
  | 'not_processed'
  /** The bank itself cannot say whether it ran. */
  | 'unknown';

/** Where a table entry comes from: a published bank document, public integrations, or our assumption. */
export type CodeSource = 'published' | 'observed' | 'assumed';

export interface CodeEntry {
  meaning: Meaning;
  /** `motivo_rechazo` when the meaning is `rejected` (else what a read reports). */
  motivo: MotivoRechazo | null;
  descripcion: string;
  source: CodeSource;
  /** What the code means in a status answer when it differs from an order's (e.g. "no such order"). */
  inStatus?: Meaning;
}

/** One bank's codes: code → meaning → motivo, with its source. Data only. */
export type CodeTable = Readonly<Record<string, CodeEntry>>;

export function code(
  meaning: Meaning,
  motivo: MotivoRechazo | null,
  descripcion: string,
  source: CodeSource,
  inStatus?: Meaning,
): CodeEntry {
  return inStatus ? { meaning, motivo, descripcion, source, inStatus } : { meaning, motivo, descripcion, source };
}
export const rejects = (motivo: MotivoRechazo, descripcion: string, source: CodeSource): CodeEntry =>
  code('rejected', motivo, descripcion, source);
/** Credentials, signature or nonce refused: FIRMA_AUTH, never rerouted; in a status answer it says nothing of the order. */
export const authRefusal = (descripcion: string, source: CodeSource): CodeEntry =>
  code('rejected', 'FIRMA_AUTH', descripcion, source, 'unknown');
export const notProcessed = (descripcion: string, source: CodeSource, inStatus: Meaning = 'unknown'): CodeEntry =>
  code('not_processed', 'BANCO_NO_DISPONIBLE', descripcion, source, inStatus);
export const undetermined = (descripcion: string, source: CodeSource): CodeEntry => code('unknown', null, descripcion, source);
/** "No such order": in a status answer the order never ran; on an order it proves nothing. */
export const notFound = (descripcion: string, source: CodeSource): CodeEntry =>
  code('unknown', 'DESCONOCIDO', descripcion, source, 'not_processed');

/** Looks a code up; `undefined` when the table does not list it (an unknown code is never a rejection). */
export function lookup(table: CodeTable, codigo: string | number | null | undefined): CodeEntry | undefined {
  if (codigo === null || codigo === undefined) return undefined;
  const key = String(codigo).trim();
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * ISO 20022 statuses and reasons of the Venezuelan CCE (PROTOCOLS §5.2: BNC's published list,
 * identical for Débito and Crédito Inmediato). Shared by every bank that passes them through.
 */
export const ISO20022_CODES: CodeTable = {
  ACCP: code('settled', null, 'Aceptada y liquidada', 'published'),
  AC00: code('pending', null, 'En espera del receptor', 'published'),
  AB01: undetermined('Tiempo de espera agotado (120 s)', 'published'),
  AB07: rejects('BANCO_NO_DISPONIBLE', 'Agente fuera de linea', 'published'),
  AC01: rejects('CUENTA_NO_EXISTE', 'Numero de cuenta incorrecto', 'published'),
  AC04: rejects('CUENTA_NO_EXISTE', 'Cuenta cancelada', 'published'),
  AC06: rejects('CUENTA_BLOQUEADA', 'Cuenta bloqueada', 'published'),
  AC09: rejects('MONTO_INVALIDO', 'Moneda invalida', 'published'),
  AG09: rejects('RECHAZO_TECNICO', 'Pago no recibido', 'published'),
  AG10: rejects('BANCO_NO_DISPONIBLE', 'Agente suspendido o excluido', 'published'),
  AM02: rejects('EXCEDE_LIMITE', 'Monto no permitido por el acuerdo', 'published'),
  AM03: rejects('MONTO_INVALIDO', 'Moneda no permitida', 'published'),
  AM04: rejects('SALDO_INSUFICIENTE', 'Fondos insuficientes', 'published'),
  AM05: rejects('DUPLICADA', 'Operacion duplicada', 'published'),
  BE01: rejects('BENEFICIARIO_NO_COINCIDE', 'Datos del cliente no corresponden a la cuenta', 'published'),
  BE20: rejects('RECHAZO_TECNICO', 'Nombre demasiado largo', 'published'),
  CUST: rejects('CANCELADA_POR_PAGADOR', 'Cancelada por el deudor', 'published'),
  CH20: rejects('MONTO_INVALIDO', 'Demasiados decimales', 'published'),
  DT03: rejects('FUERA_DE_HORARIO', 'Fecha de procesamiento no bancaria', 'published'),
  DU01: rejects('DUPLICADA', 'Identificador de mensaje duplicado', 'published'),
  FF05: rejects('RECHAZO_TECNICO', 'Codigo de producto incorrecto', 'published'),
  FF07: rejects('RECHAZO_TECNICO', 'Codigo de subproducto incorrecto', 'published'),
  RC08: rejects('CUENTA_NO_EXISTE', 'Banco no pertenece al sistema de compensacion', 'published'),
  RJCT: rejects('DESCONOCIDO', 'Rechazada (generico)', 'published'),
  TKCM: rejects('OTP_INVALIDO', 'Token de aceptacion de debito incorrecto', 'published'),
  VE01: rejects('RECHAZO_TECNICO', 'Rechazo tecnico CCE/SIMF', 'published'),
  VE02: rejects('RECHAZO_TECNICO', 'Error de persistencia', 'published'),
  MD15: rejects('DESCONOCIDO', 'Rechazo definitivo (sin descripcion publica)', 'observed'),
};

/** The references an outcome carries when the bank gave them. */
export interface Refs {
  referencia?: string | null;
  endtoend?: string | null;
}

export const unknownOutcome = (raw: Raw): BankOutcome => ({ type: 'unknown', raw });
export const rejectedOutcome = (motivo: MotivoRechazo, raw: Raw, referencia: string | null = null): BankOutcome => ({
  type: 'rejected',
  motivo,
  referencia,
  raw,
});
/** Refused here, before anything was sent (a capability the bank lacks). */
export const unsupported = (descripcion: string): BankOutcome =>
  rejectedOutcome('NO_SOPORTADO', { switch: true, codigo: 'NO_SOPORTADO', descripcion });

/** A meaning as the switch's outcome. `pending` is an accepted order waiting for the receiver. */
export function outcomeOf(meaning: Meaning, motivo: MotivoRechazo | null, raw: Raw, refs: Refs = {}): BankOutcome {
  const referencia = refs.referencia ?? null;
  const endtoend = refs.endtoend ?? null;
  switch (meaning) {
    case 'settled':
      return { type: 'settled', referencia, endtoend, raw };
    case 'accepted':
      return { type: 'accepted', pending: false, referencia, endtoend, raw };
    case 'pending':
      return { type: 'accepted', pending: true, referencia, endtoend, raw };
    case 'rejected':
      return { type: 'rejected', motivo: motivo ?? 'DESCONOCIDO', referencia, raw };
    case 'not_processed':
      return { type: 'not_processed', raw };
    case 'unknown':
      return { type: 'unknown', raw };
  }
}

/**
 * The one rule for answers to orders (money first): only an answer *known* to mean "not executed"
 * ends an order (`rejected`, or `not_processed` for a reroute). What the kit reads as not known:
 * - a code the table does not list;
 * - a "no such record" code: one whose meaning in a status answer is "the bank has no such order"
 *   (`inStatus: 'not_processed'`, the kit's `notFound`). Said of a status query it settles the
 *   order; said of an order (a reversal whose original the bank does not find, a debit answered
 *   "registro no encontrado") it does not say the order did not run, so it is `unknown`: DESCONOCIDA,
 *   then a status query, never a final RECHAZADA and never a reroute.
 * Every bank's order answers go through here, so a table entry cannot bend the rule.
 */
export function orderMeaning(entry: CodeEntry | undefined): Meaning {
  if (!entry) return 'unknown';
  if (entry.inStatus === 'not_processed' && entry.meaning !== 'settled' && entry.meaning !== 'accepted' && entry.meaning !== 'pending')
    return 'unknown';
  return entry.meaning;
}

/**
 * Entries of a table that contradict the rule above (a "no such record" code claiming on an order
 * that it did not run): none in a consistent table; each bank's codes test asserts it.
 */
export function orderRuleConflicts(table: CodeTable): string[] {
  return Object.entries(table)
    .filter(([, entry]) => entry.inStatus === 'not_processed' && (entry.meaning === 'rejected' || entry.meaning === 'not_processed'))
    .map(([codigo]) => codigo);
}

/**
 * What an order learns from a coded answer (`orderMeaning`). An unlisted code is unknown; a server
 * error proves something only through a code the table knows.
 */
export function orderOutcome(entry: CodeEntry | undefined, raw: Raw, refs: Refs = {}): BankOutcome {
  return outcomeOf(orderMeaning(entry), entry?.motivo ?? null, raw, refs);
}

/**
 * What a status query learns from a coded answer: unlisted → unknown; the query's own refusal
 * (auth, "not processed") → unknown unless the table says otherwise (`inStatus`).
 */
export function statusOutcome(entry: CodeEntry | undefined, raw: Raw, refs: Refs = {}): BankOutcome {
  if (!entry) return unknownOutcome(raw);
  const meaning = entry.inStatus ?? (entry.meaning === 'not_processed' ? 'unknown' : entry.meaning);
  if (meaning === 'rejected' && entry.motivo === 'FIRMA_AUTH') return unknownOutcome(raw);
  return outcomeOf(meaning, entry.motivo, raw, refs);
}

/**
 * An HTTP answer that carries no code the bank's table knows. Only a refusal of our credentials
 * proves the order did not run (FIRMA_AUTH, never rerouted); any other status — 400, 404, 408, 429,
 * 5xx, or a 2xx we cannot read — may have reached the bank: unknown.
 */
export function bareHttpOrderOutcome(status: number, raw: Raw): BankOutcome {
  if (status === 401 || status === 403) return rejectedOutcome('FIRMA_AUTH', { ...raw, codigo: raw.codigo ?? `HTTP${status}` });
  return unknownOutcome(raw);
}

/** A read (saldo, movimientos) that did not give figures: the reason the caller sees. */
export type ReadFailure = { ok: false; motivo: MotivoRechazo; raw: Raw };

/** What a failed read reports, from the meaning of its answer (reads move no money: no unknown state). */
export function readFailure(entry: CodeEntry | undefined, raw: Raw, httpStatus = 200): ReadFailure {
  if (!entry) {
    if (httpStatus === 401 || httpStatus === 403) return { ok: false, motivo: 'FIRMA_AUTH', raw };
    return { ok: false, motivo: httpStatus >= 500 ? 'BANCO_NO_DISPONIBLE' : 'DESCONOCIDO', raw };
  }
  if (entry.meaning === 'not_processed') return { ok: false, motivo: 'BANCO_NO_DISPONIBLE', raw };
  if (entry.inStatus === 'not_processed') return { ok: false, motivo: 'CUENTA_NO_EXISTE', raw };
  if (entry.meaning === 'rejected') return { ok: false, motivo: entry.motivo ?? 'DESCONOCIDO', raw };
  return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
}

/**
 * Statements are paged by the switch: the banks answer a whole date range at once. A cursor is an
 * opaque offset into the filtered, ordered statement of the same query.
 */
export function cursorOffset(cursor: string | undefined): number | null {
  if (cursor === undefined || cursor === '') return 0;
  const m = /^o:([0-9]{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return m ? Number(m[1]) : null;
}

const cursorAt = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');

/** The answer for a cursor the switch never gave: the gateway turns `raw.field` into a 400 naming it. */
export function invalidCursor(): Extract<ReadOutcome<never>, { ok: false }> {
  return { ok: false, motivo: 'DESCONOCIDO', raw: { field: 'cursor', descripcion: 'is not a cursor this statement gave' } };
}

/** One page of the movements between `desde` and `hasta`, with the cursor of the next page. */
export function statementPage(
  banco: BancoId,
  query: MovimientosQuery,
  hasta: string,
  offset: number,
  movements: readonly Movimiento[],
): Movimientos {
  const all = movements.filter((m) => m.fecha >= query.desde && m.fecha <= hasta);
  const limite = query.limite ?? 100;
  return {
    cuenta: query.cuenta,
    banco,
    moneda: 'VES',
    desde: query.desde,
    hasta,
    movimientos: all.slice(offset, offset + limite),
    siguiente: offset + limite < all.length ? cursorAt(offset + limite) : null,
  };
}

/**
 * The incoming side of a statement: every bank's connector reads the credits of one account on one
 * day (Caracas time) with its own statement call and normalises the payer's details with these.
 */

/** A payer's phone in the switch's form (`04121234567`) from `58412…`, `412…` or `0412…`; null when it is none of them. */
export function phoneOf(raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const digits = String(raw).replace(/\D/g, '');
  if (/^58[0-9]{10}$/.test(digits)) return `0${digits.slice(2)}`;
  if (/^[0-9]{10}$/.test(digits) && digits[0] !== '0') return `0${digits}`;
  if (/^0[0-9]{10}$/.test(digits)) return digits;
  return null;
}

/** An identity document in the switch's form (`V12345678`): padding zeros and separators dropped. */
export function identificacionOf(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const m = /^([VEJGP])[-\s]?0*([0-9]{1,9})[-\s]?([0-9])?$/i.exec(raw.trim());
  if (!m) return null;
  // A RIF's check digit (`J-08006622-7`) belongs to the number the person gives.
  const number = m[3] ? `${m[2]}${m[3]}` : m[2]!;
  return number.length <= 9 ? `${m[1]!.toUpperCase()}${number}` : null;
}

/** A bank's 4-digit code from `102`, `0102` or `"0102"`. */
export function bankCodeOf(raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const digits = String(raw).replace(/\D/g, '');
  return digits.length >= 1 && digits.length <= 4 ? digits.padStart(4, '0') : null;
}

export const noPayer: Pagador = { telefono: null, identificacion: null, banco: null };

/** The credits of `fecha` among a bank's normalised lines, oldest first (stable for equal times). */
export function creditsOfDay(fecha: string, lines: readonly CreditoRecibido[]): CreditoRecibido[] {
  return lines
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => line.fecha === fecha && line.monto > 0)
    .sort((a, b) => (a.line.hora ?? '').localeCompare(b.line.hora ?? '') || a.i - b.i)
    .map(({ line }) => line);
}

/** A credit line in the switch's shape. */
export function credito(
  banco: BancoId,
  cuenta: string,
  line: { referencia: string; fecha: string; hora: string | null; monto: number; concepto?: string | null },
  pagador: Partial<Pagador> = {},
): CreditoRecibido {
  return {
    banco,
    cuenta,
    referencia: line.referencia,
    fecha: line.fecha,
    hora: line.hora,
    monto: Math.round(Math.abs(line.monto) * 100) / 100,
    concepto: line.concepto ?? '',
    pagador: { ...noPayer, ...pagador },
  };
}
