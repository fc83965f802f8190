import {
  statementPage,
  invalidCursor,
  cursorOffset,
  BankBreakers,
  BankHttpClient,
  CAPABILITIES,
  DEFAULT_BREAKER,
  type BankConnector,
  type BankHttpResult,
  type BankOutcome,
  type BreakerOptions,
  type ExecuteOrder,
  type Mode,
  type MotivoRechazo,
  type Movimientos,
  type MovimientosQuery,
  type ReadOutcome,
  type Saldo,
  type SaldoQuery,
  type StatusQuery,
} from '@switch/shared';
import { classify, type Classified } from './codes';
import { FormatError, referenciaFor, venezuelanDate } from './formats';
import { authHeaders, NonceCounter, parseBody, plazaJson, readResult, type PlazaResult } from './protocol';
import * as plaza from './transformers';
import type { Merchant, PlazaRequest } from './transformers';

export interface BancoPlazaOptions {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The merchant's RIF (`J123456789`) and 20-digit Banco Plaza account (PROTOCOLS §2.4 `{rif}`, cobrador/origen). */
  rif: string;
  account: string;
  /** The merchant's affiliated phone (11 digits), for P2P `telefonoAfiliado` and C2P `telefonoCobrador`. */
  phone?: string;
  clientIp?: string;
  timeoutMs: number;
  connectTimeoutMs?: number;
  breaker?: Partial<BreakerOptions>;
}

export interface BancoPlazaDeps {
  http?: BankHttpClient;
  now?: () => Date;
}

/** What one call came to: the bank's answer read, or why there is none. */
type Answer =
  | { kind: 'not_sent'; raw: Record<string, unknown> }
  | { kind: 'unknown'; raw: Record<string, unknown> }
  | { kind: 'response'; status: number; body: unknown; result: PlazaResult; raw: Record<string, unknown> };

/** How a successful order answer reads, per operation. */
type Success = (body: unknown) => { type: 'settled' | 'accepted'; pending: boolean; referencia: string | null; endtoend: string | null };

type Plan = { request: PlazaRequest; success: Success } | { outcome: BankOutcome };

const rejected = (motivo: MotivoRechazo, raw: Record<string, unknown>, referencia: string | null = null): BankOutcome => ({
  type: 'rejected',
  motivo,
  referencia,
  raw,
});
const unknown = (raw: Record<string, unknown>): BankOutcome => ({ type: 'unknown', raw });

/**
 * Banco Plaza (0138) for the switch: C2P and Débito Inmediato collections, pago móvil (P2P) and
 * Crédito Inmediato payouts, C2P reversal, status queries, balance and statement. Every call is
 * signed (protocol.ts), goes through a per-endpoint breaker, and comes back as a value.
 */
export class BancoPlazaConnector implements BankConnector {
  readonly banco = 'banco_plaza' as const;
  readonly capabilities = CAPABILITIES;
  readonly breakers: BankBreakers;
  private readonly http: BankHttpClient;
  private readonly ownsHttp: boolean;
  private readonly nonces: NonceCounter;
  private readonly now: () => Date;
  private readonly merchant: Merchant;
  private readonly baseUrl: string;

  constructor(
    private readonly config: BancoPlazaOptions,
    deps: BancoPlazaDeps = {},
  ) {
    this.now = deps.now ?? (() => new Date());
    this.http = deps.http ?? new BankHttpClient({ connectTimeoutMs: config.connectTimeoutMs ?? 3_000 });
    this.ownsHttp = deps.http === undefined;
    this.breakers = new BankBreakers('banco_plaza', { ...DEFAULT_BREAKER, ...config.breaker });
    this.nonces = new NonceCounter(() => this.now().getTime());
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.merchant = {
      rif: config.rif,
      account: config.account,
      clientIp: config.clientIp ?? '127.0.0.1',
      ...(config.phone ? { phone: config.phone } : {}),
    };
  }

  async execute(order: ExecuteOrder): Promise<BankOutcome> {
    let plan: Plan;
    try {
      plan = this.plan(order);
    } catch (error) {
      // Refused before sending: the bank never saw it.
      if (error instanceof FormatError) return rejected(error.motivo, { switch: error.message });
      return rejected('RECHAZO_TECNICO', { switch: `order not built: ${message(error)}` });
    }
    if ('outcome' in plan) return plan.outcome;
    try {
      return orderOutcome(await this.send(plan.request), plan.success);
    } catch (error) {
      // After a send anything may have happened at the bank.
      return unknown({ switch: `connector failure: ${message(error)}` });
    }
  }

  async status(query: StatusQuery): Promise<BankOutcome> {
    try {
      const m = this.merchant;
      switch (query.rail) {
        case 'debito_inmediato':
          if (query.kind === 'token') return unknown({ switch: 'an OTP request has no status at the bank' });
          return statusOutcome(await this.send(plaza.consultarDI(query, m)), query, 'cce');
        case 'credito_inmediato':
          return statusOutcome(await this.send(plaza.consultaLiq(query, m)), query, 'cce');
        case 'pago_movil':
          return statusOutcome(await this.send(plaza.consultaP2P(query.orderRef, m)), query, 'p2p');
        case 'c2p':
        case 'reverso':
          // A C2P carries no merchant reference: without the bank's, there is nothing to ask by.
          if (!query.referencia) return unknown({ switch: 'no bank reference to query by; reconcile with the statement (movimientos)' });
          return statusOutcome(await this.send(plaza.consultaC2P(query.referencia, m)), query, query.rail);
      }
    } catch (error) {
      return unknown({ switch: `status not read: ${message(error)}` });
    }
  }

  async saldo(_mode: Mode, query: SaldoQuery): Promise<ReadOutcome<Saldo>> {
    try {
      const today = venezuelanDate(this.now());
      const answer = await this.send(plaza.movimientos(query.cuenta, today, today));
      const failure = readFailure(answer);
      if (failure || answer.kind !== 'response') return failure ?? { ok: false, motivo: 'DESCONOCIDO', raw: {} };
      const statement = plaza.readStatement(answer.body);
      const raw = { ...answer.raw, body: accountData(answer.body) };
      if (statement.saldoDisponible === null) return { ok: false, motivo: 'DESCONOCIDO', raw: { ...raw, switch: 'no saldoDisponible in the answer' } };
      return {
        ok: true,
        value: {
          cuenta: query.cuenta,
          banco: 'banco_plaza',
          moneda: 'VES',
          disponible: statement.saldoDisponible,
          // The bank gives only the available balance; the others default to it when absent.
          contable: statement.saldoContable ?? statement.saldoDisponible,
          bloqueado: statement.saldoBloqueado ?? 0,
          consultado_en: this.now().toISOString(),
          raw,
        },
      };
    } catch (error) {
      return readError(error);
    }
  }

  /** The bank answers a whole date range at once; pages are cut here (`cursor` = offset). */
  async movimientos(_mode: Mode, query: MovimientosQuery): Promise<ReadOutcome<Movimientos>> {
    try {
      const hasta = query.hasta ?? venezuelanDate(this.now());
      const offset = cursorOffset(query.cursor);
      if (offset === null) return invalidCursor();
      const answer = await this.send(plaza.movimientos(query.cuenta, query.desde, hasta));
      const failure = readFailure(answer);
      if (failure || answer.kind !== 'response') return failure ?? { ok: false, motivo: 'DESCONOCIDO', raw: {} };
      return { ok: true, value: statementPage('banco_plaza', query, hasta, offset, plaza.readStatement(answer.body).movimientos) };
    } catch (error) {
      return readError(error);
    }
  }

  /** Releases the HTTP pool (when owned) and the breakers' timers. */
  async close(): Promise<void> {
    this.breakers.shutdown();
    if (this.ownsHttp) await this.http.close();
  }

  private plan(order: ExecuteOrder): Plan {
    const m = this.merchant;
    const unsupported = (why: string): Plan => ({ outcome: rejected('NO_SOPORTADO', { switch: why }) });
    const { request, rail } = order;
    switch (request.kind) {
      case 'token':
        if (rail !== 'debito_inmediato') return unsupported(`no OTP request on rail ${rail}`);
        return { request: plaza.tokenDI(request.body, m), success: () => ({ type: 'accepted', pending: false, referencia: null, endtoend: null }) };
      case 'cobrar':
        if (rail === 'debito_inmediato') {
          const own = referenciaFor(order.orderRef);
          return {
            request: plaza.cobroDI(order, request.body, m),
            success: (body) => ({
              type: 'accepted',
              pending: true,
              referencia: plaza.field(body, 'referencia_c', 'referencia') ?? own,
              endtoend: plaza.field(body, 'endtoend'),
            }),
          };
        }
        if (rail === 'c2p') {
          return {
            request: plaza.c2p(request.body, m),
            success: (body) => ({ type: 'settled', pending: false, referencia: plaza.field(body, 'referencia'), endtoend: null }),
          };
        }
        return unsupported(`no collection on rail ${rail}`);
      case 'pagar':
        if (rail === 'pago_movil') {
          return {
            request: plaza.p2p(order, request.body, m),
            success: (body) => ({ type: 'settled', pending: false, referencia: plaza.field(body, 'numeroReferencia', 'referencia'), endtoend: null }),
          };
        }
        if (rail === 'credito_inmediato') {
          return {
            request: plaza.pagoO(order, request.body, m),
            success: (body) => ({
              type: 'accepted',
              pending: true,
              referencia: plaza.field(body, 'numeroReferencia', 'referencia'),
              endtoend: plaza.field(body, 'endtoend'),
            }),
          };
        }
        return unsupported(`no payout on rail ${rail}`);
      case 'reverso': {
        const related = order.related;
        if (!related || related.rail !== 'c2p') return unsupported(`Banco Plaza reverses only C2P collections, not ${related?.rail ?? 'an unknown operation'}`);
        if (!related.referencia) return unsupported('the C2P to reverse has no bank reference');
        const referencia = related.referencia;
        return { request: plaza.reversoC2P(referencia), success: () => ({ type: 'settled', pending: false, referencia, endtoend: null }) };
      }
    }
  }

  /**
   * One signed call through its breaker. A nonce the bank refuses as not increasing (concurrent
   * calls may reach it out of order) is sent once more with a fresh nonce: the bank refused it
   * before looking at the order, so nothing was executed.
   */
  private async send(req: PlazaRequest): Promise<Answer> {
    const body = req.body ? plazaJson(req.body) : '';
    const query = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
    const url = `${this.baseUrl}${req.path}${query}`;
    for (let attempt = 1; ; attempt++) {
      const nonce = this.nonces.next();
      const headers: Record<string, string> = {
        ...authHeaders(this.config, req.signPath, nonce, body),
        accept: 'application/json',
        ...(req.body ? { 'content-type': 'application/json' } : {}),
      };
      const result = await this.breakers.call(req.operation, () =>
        this.http.send({ url, method: req.method, headers, ...(req.body ? { body } : {}), timeoutMs: this.config.timeoutMs }),
      );
      const answer = read(result);
      if (attempt === 1 && answer.kind === 'response' && answer.result.codigo === '0402') continue;
      return answer;
    }
  }
}

function read(result: BankHttpResult): Answer {
  if (result.kind !== 'response') return { kind: result.kind, raw: { reason: result.reason } };
  const body = parseBody(result.body);
  const r = readResult(result.headers, body);
  return {
    kind: 'response',
    status: result.status,
    body,
    result: r,
    raw: {
      status: result.status,
      codigo: r.codigo,
      descripcion: r.descripcionCliente ?? r.descripcionSistema,
      descripcionCliente: r.descripcionCliente,
      descripcionSistema: r.descripcionSistema,
      fechaHora: r.fechaHora,
      body,
    },
  };
}

/** What the bank's answer to an order means. A server error that does not say "not processed" may have executed. */
function orderOutcome(answer: Answer, success: Success): BankOutcome {
  if (answer.kind === 'not_sent') return { type: 'not_processed', raw: answer.raw };
  if (answer.kind === 'unknown') return unknown(answer.raw);
  const { status, raw, body } = answer;
  const c = classified(answer);
  if (!c) {
    if (status === 401 || status === 403) return rejected('FIRMA_AUTH', raw);
    if (status >= 400 && status < 500) return rejected('DESCONOCIDO', raw);
    return unknown(raw);
  }
  if (!c.known && status >= 500) return unknown(raw);
  const bankRef = plaza.field(body, 'numeroReferencia', 'referencia', 'referencia_c');
  switch (c.entry.effect) {
    case 'ok':
    case 'settled':
    case 'pending': {
      if (status >= 300) return unknown(raw);
      // An interbank status in the answer (ACCP, AC00) overrides the operation's usual success.
      const s = success(body);
      const type = c.entry.effect === 'settled' ? 'settled' : c.entry.effect === 'pending' ? 'accepted' : s.type;
      if (type === 'settled') return { type, referencia: s.referencia, endtoend: s.endtoend, raw };
      return { type, pending: c.entry.effect === 'pending' || s.pending, referencia: s.referencia, endtoend: s.endtoend, raw };
    }
    case 'rejected':
      return rejected(c.entry.motivo ?? 'DESCONOCIDO', raw, bankRef);
    case 'auth':
      return rejected('FIRMA_AUTH', raw);
    case 'not_processed':
      return { type: 'not_processed', raw };
    case 'not_found':
      return rejected('DESCONOCIDO', raw);
    case 'unknown':
      return unknown(raw);
  }
}

/**
 * What a status answer says about the order. Only the bank's explicit "no such order" is
 * not_processed; a query that could not be asked or answered is unknown (the state stays).
 */
function statusOutcome(answer: Answer, query: StatusQuery, kind: 'cce' | 'p2p' | 'c2p' | 'reverso'): BankOutcome {
  if (answer.kind !== 'response') return unknown(answer.raw);
  const { status, raw, body } = answer;
  if (status === 404) return { type: 'not_processed', raw };
  const c = classified(answer);
  if (!c || (!c.known && status >= 500)) return unknown(raw);
  const referencia = plaza.field(body, 'numeroReferencia', 'referencia', 'referencia_c') ?? query.referencia;
  const endtoend = plaza.field(body, 'endtoend') ?? query.endtoend;
  switch (c.entry.effect) {
    case 'ok':
      if (status >= 300) return unknown(raw);
      if (kind === 'reverso') {
        // The reversal is read off the C2P it reversed.
        return plaza.field(body, 'estado') === 'REVERSADA' ? { type: 'settled', referencia: query.referencia, endtoend: null, raw } : { type: 'not_processed', raw };
      }
      return { type: 'settled', referencia, endtoend, raw };
    case 'settled':
      return { type: 'settled', referencia, endtoend, raw };
    case 'pending':
      return { type: 'accepted', pending: true, referencia, endtoend, raw };
    case 'rejected':
      return rejected(c.entry.motivo ?? 'DESCONOCIDO', raw, referencia);
    case 'not_found':
      return { type: 'not_processed', raw };
    case 'auth':
    case 'not_processed':
    case 'unknown':
      return unknown(raw);
  }
}

function classified(answer: Extract<Answer, { kind: 'response' }>): Classified | null {
  return answer.result.codigo ? classify(answer.result.codigo, answer.result.descripcionSistema) : null;
}

/** A read that did not give figures, as the reason the caller sees; null when the answer is a success. */
function readFailure(answer: Answer): { ok: false; motivo: MotivoRechazo; raw: Record<string, unknown> } | null {
  if (answer.kind === 'not_sent') return { ok: false, motivo: 'BANCO_NO_DISPONIBLE', raw: answer.raw };
  if (answer.kind === 'unknown') return { ok: false, motivo: 'RECHAZO_TECNICO', raw: answer.raw };
  const c = classified(answer);
  if (!c) {
    if (answer.status < 300) return { ok: false, motivo: 'DESCONOCIDO', raw: answer.raw };
    if (answer.status === 401 || answer.status === 403) return { ok: false, motivo: 'FIRMA_AUTH', raw: answer.raw };
    if (answer.status === 404) return { ok: false, motivo: 'CUENTA_NO_EXISTE', raw: answer.raw };
    return { ok: false, motivo: answer.status >= 500 ? 'RECHAZO_TECNICO' : 'DESCONOCIDO', raw: answer.raw };
  }
  if (c.entry.effect === 'ok' && answer.status < 300) return null;
  if (c.entry.effect === 'not_found') return { ok: false, motivo: 'CUENTA_NO_EXISTE', raw: answer.raw };
  return { ok: false, motivo: c.entry.motivo ?? 'DESCONOCIDO', raw: answer.raw };
}

function readError(error: unknown): { ok: false; motivo: MotivoRechazo; raw: Record<string, unknown> } {
  return { ok: false, motivo: error instanceof FormatError ? error.motivo : 'DESCONOCIDO', raw: { switch: message(error) } };
}

/** The account's descriptive fields of a statement answer, without its (possibly long) movement list. */
function accountData(body: unknown): Record<string, unknown> | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const { movimientos: _omitted, ...rest } = body as Record<string, unknown>;
  return rest;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
