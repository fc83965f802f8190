import {
  statementPage,
  invalidCursor,
  cursorOffset,
  BankBreakers,
  BankHttpClient,
  DEFAULT_BREAKER,
  type BankConnector,
  type BankOutcome,
  type BreakerOptions,
  type Capability,
  type ExecuteOrder,
  type Mode,
  type Movimientos,
  type MovimientosQuery,
  type ReadOutcome,
  type Saldo,
  type SaldoQuery,
  type StatusQuery,
} from '@switch/shared';
import { caracasDate, fechaBanco, FormatError } from './formats';
import { basicAuthorization, bearer, isTokenRefusal, oauthError, parseJson, parseTokenResponse, RUTAS, TOKEN_REQUEST, TokenCache } from './protocol';
import {
  anulacionRequest,
  c2pRequest,
  consultaCreditoRequest,
  consultaPagoRequest,
  creditoRequest,
  interpretConsultaCredito,
  interpretConsultaPago,
  interpretMovimientos,
  interpretOrder,
  interpretSaldo,
  movimientosRequest,
  pagoB2pRequest,
  saldoRequest,
  type Answer,
  type Comercio,
  type OrderKind,
  type TipoTrx,
} from './transformers';

export interface BancaribeConnectorConfig {
  /** The API gateway, e.g. `https://host:8243`. */
  baseUrl: string;
  /** The token endpoint; defaults to `<baseUrl>/oauth2/token` (the real gateway serves it on 9443). */
  tokenUrl?: string;
  consumerKey: string;
  consumerSecret: string;
  comercio: Comercio;
  /** Time allowed for each answer once a request is sent. */
  timeoutMs: number;
  breaker?: Partial<BreakerOptions>;
  /** Fraction of the token's lifetime after which it is renewed before use (default 0.9). */
  tokenRefreshRatio?: number;
}

export interface BancaribeConnectorDeps {
  http?: BankHttpClient;
  now?: () => Date;
}

type Raw = Record<string, unknown>;

/** How one call to the gateway went, before the operation reads it. */
type Sent =
  | { kind: 'answer'; answer: Answer }
  /** The call never reached the bank (refused, breaker open, or no token to send it with). */
  | { kind: 'not_sent'; reason: string }
  /** It may have reached the bank; no complete answer came. */
  | { kind: 'unknown'; reason: string }
  /** The gateway refused our credentials before anything was processed. */
  | { kind: 'auth'; raw: Raw };

type TokenOutcome = { kind: 'token'; token: string } | Extract<Sent, { kind: 'not_sent' | 'auth' }>;

const CAPABILITIES: readonly Capability[] = ['cobrar', 'pagar', 'consultar', 'saldo', 'movimientos'];

const noSoportado = (descripcion: string): BankOutcome => ({
  type: 'rejected',
  motivo: 'NO_SOPORTADO',
  referencia: null,
  raw: { codigo: 'NO_SOPORTADO', descripcion },
});

/**
 * Bancaribe through its WSO2 gateway. Collections by C2P (the payer brings the key from his own
 * bank), payouts by pago móvil (B2P) or crédito inmediato, voiding of a C2P, status, balance and
 * statement. Every call carries a cached OAuth2 token, renewed before it expires and once more when
 * the gateway refuses it (a refusal the gateway gives before any backend sees the call).
 */
export class BancaribeConnector implements BankConnector {
  readonly banco = 'bancaribe' as const;
  readonly capabilities = CAPABILITIES;
  readonly breakers: BankBreakers;
  private readonly http: BankHttpClient;
  private readonly ownsHttp: boolean;
  private readonly now: () => Date;
  private readonly tokens: TokenCache;
  private tokenInFlight: Promise<TokenOutcome> | null = null;
  private readonly baseUrl: string;
  private readonly tokenUrl: string;

  constructor(
    private readonly config: BancaribeConnectorConfig,
    deps: BancaribeConnectorDeps = {},
  ) {
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.tokenUrl = config.tokenUrl ?? `${this.baseUrl}${RUTAS.token}`;
    this.ownsHttp = deps.http === undefined;
    this.http = deps.http ?? new BankHttpClient();
    this.now = deps.now ?? (() => new Date());
    this.tokens = new TokenCache(this.now, config.tokenRefreshRatio ?? 0.9);
    this.breakers = new BankBreakers('bancaribe', { ...DEFAULT_BREAKER, ...config.breaker });
  }

  async execute(order: ExecuteOrder): Promise<BankOutcome> {
    try {
      return await this.executeOrder(order);
    } catch (error) {
      // Not reachable by design; if it happens the order may have been sent, so it stays open.
      return { type: 'unknown', raw: { switch: `connector failure: ${message(error)}` } };
    }
  }

  async status(query: StatusQuery): Promise<BankOutcome> {
    try {
      return await this.statusOf(query);
    } catch (error) {
      return { type: 'unknown', raw: { switch: `connector failure: ${message(error)}` } };
    }
  }

  async saldo(_mode: Mode, query: SaldoQuery): Promise<ReadOutcome<Saldo>> {
    try {
      const sent = await this.send('saldo', () => saldoRequest(this.config.comercio, query.cuenta));
      if (sent.kind !== 'answer') return readFailure(sent);
      return interpretSaldo(sent.answer, query.cuenta, this.now());
    } catch (error) {
      return { ok: false, motivo: 'RECHAZO_TECNICO', raw: { switch: `connector failure: ${message(error)}` } };
    }
  }

  async movimientos(_mode: Mode, query: MovimientosQuery): Promise<ReadOutcome<Movimientos>> {
    try {
      const hasta = query.hasta ?? caracasDate(this.now());
      const offset = cursorOffset(query.cursor);
      if (offset === null) return invalidCursor();
      const sent = await this.send('movimientos', () => movimientosRequest(this.config.comercio, query.cuenta, fechaBanco(query.desde), fechaBanco(hasta)));
      if (sent.kind !== 'answer') return readFailure(sent);
      const read = interpretMovimientos(sent.answer);
      if (!read.ok) return read;
      return { ok: true, value: statementPage('bancaribe', query, hasta, offset, read.movimientos) };
    } catch (error) {
      return { ok: false, motivo: 'RECHAZO_TECNICO', raw: { switch: `connector failure: ${message(error)}` } };
    }
  }

  /** Stops the breakers' timers and, when the connector made it, the HTTP client. */
  async close(): Promise<void> {
    this.breakers.shutdown();
    if (this.ownsHttp) await this.http.close();
  }

  // -------------------------------------------------------------------------------------------

  private async executeOrder(order: ExecuteOrder): Promise<BankOutcome> {
    // Edge (merchant accounts): a live order's registered account replaces the configured one.
    const comercio = order.account ? { ...this.config.comercio, cuenta: order.account.cuenta, ...(order.account.telefono ? { telefono: order.account.telefono } : {}) } : this.config.comercio;
    const request = order.request;
    switch (request.kind) {
      case 'token':
        return noSoportado('Bancaribe no ofrece solicitud de OTP: el pagador obtiene su clave C2P en su propio banco');
      case 'cobrar':
        if (order.rail !== 'c2p') return noSoportado(`Bancaribe no ofrece cobro por ${order.rail}`);
        if (request.body.pagador.tipo !== 'telefono') return noSoportado('El cobro C2P requiere el teléfono del pagador');
        return this.order('c2p', order.orderRef, (token) => c2pRequest(order.orderRef, comercio, token, request.body));
      case 'pagar':
        if (order.rail === 'pago_movil') {
          if (request.body.beneficiario.tipo !== 'telefono') return noSoportado('El pago móvil requiere el teléfono del beneficiario');
          return this.order('pagoB2p', order.orderRef, () => pagoB2pRequest(order.orderRef, comercio, request.body));
        }
        if (order.rail === 'credito_inmediato') return this.order('credito', order.orderRef, (token) => creditoRequest(order.orderRef, comercio, token, request.body));
        return noSoportado(`Bancaribe no ofrece pagos por ${order.rail}`);
      case 'reverso': {
        const related = order.related;
        if (related?.rail !== 'c2p') return noSoportado(`Bancaribe solo anula cobros C2P, no ${related?.rail ?? 'esta operación'}`);
        if (!related.referencia) return noSoportado('El cobro C2P no tiene secuencial del banco que anular');
        const original = related.referencia;
        const concepto = request.body.concepto ?? 'Anulacion';
        return this.order('anulacion', order.orderRef, (token) => anulacionRequest(order.orderRef, comercio, token, original, concepto));
      }
    }
  }

  private async order(kind: OrderKind, orderRef: string, build: (token: string) => Record<string, unknown>): Promise<BankOutcome> {
    try {
      build('');
    } catch (error) {
      // Our data did not fit the bank's forms: nothing was sent.
      if (error instanceof FormatError) return { type: 'rejected', motivo: 'RECHAZO_TECNICO', referencia: null, raw: { codigo: 'FORMATO', descripcion: error.message } };
      throw error;
    }
    const route = kind === 'anulacion' ? 'c2p' : kind === 'credito' ? 'creditoInmediato' : kind;
    const sent = await this.send(route, build);
    switch (sent.kind) {
      case 'not_sent':
        return { type: 'not_processed', raw: { reason: sent.reason, orderRef } };
      case 'unknown':
        return { type: 'unknown', raw: { reason: sent.reason, orderRef } };
      case 'auth':
        return { type: 'rejected', motivo: 'FIRMA_AUTH', referencia: null, raw: sent.raw };
      case 'answer':
        return interpretOrder(sent.answer, kind);
    }
  }

  private async statusOf(query: StatusQuery): Promise<BankOutcome> {
    const { comercio } = this.config;
    const pago = async (tipoTrx: TipoTrx) => {
      const sent = await this.send('consultaPago', () => consultaPagoRequest(comercio, tipoTrx, query.referencia, query.orderRef));
      return sent.kind === 'answer' ? interpretConsultaPago(sent.answer, query.referencia, query.orderRef) : noEvidence(sent);
    };
    if (query.kind === 'cobrar' && query.rail === 'c2p') return pago('C2P');
    // A void is recorded by the C2P service under its own numeroReferencia.
    if (query.kind === 'reverso') return pago('C2P');
    if (query.kind === 'pagar' && query.rail === 'pago_movil') return pago('B2P');
    if (query.kind === 'pagar' && query.rail === 'credito_inmediato') {
      const sent = await this.send('consultaCredito', (token) => consultaCreditoRequest(comercio, token, query.referencia, query.orderRef));
      return sent.kind === 'answer' ? interpretConsultaCredito(sent.answer) : noEvidence(sent);
    }
    return { type: 'not_processed', raw: { codigo: 'NO_SOPORTADO', descripcion: `Bancaribe no ejecuta ${query.kind} por ${query.rail}` } };
  }

  /**
   * One call with the current token. A 401 that the gateway gave for the token itself proves the
   * call was refused before processing, so it is sent once more with a fresh token; a second refusal
   * is returned as it came.
   */
  private async send(route: keyof typeof RUTAS, build: (token: string) => unknown): Promise<Sent> {
    let token = await this.token();
    for (let attempt = 1; ; attempt++) {
      if (token.kind !== 'token') return token;
      const used = token.token;
      const result = await this.breakers.call(route, () =>
        this.http.send({
          url: `${this.baseUrl}${RUTAS[route]}`,
          method: 'POST',
          headers: { authorization: bearer(used), 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(build(used)),
          timeoutMs: this.config.timeoutMs,
        }),
      );
      if (result.kind !== 'response') return result;
      const answer: Answer = { status: result.status, json: parseJson(result.body), text: result.body };
      if (attempt > 1 || !isTokenRefusal(answer.status, answer.json)) return { kind: 'answer', answer };
      this.tokens.invalidate(used);
      token = await this.token();
    }
  }

  /** The cached token, or one fetched now; concurrent callers share one fetch. */
  private token(): Promise<TokenOutcome> {
    const cached = this.tokens.current();
    if (cached) return Promise.resolve({ kind: 'token', token: cached });
    if (!this.tokenInFlight) {
      this.tokenInFlight = this.fetchToken().finally(() => {
        this.tokenInFlight = null;
      });
    }
    return this.tokenInFlight;
  }

  private async fetchToken(): Promise<TokenOutcome> {
    const result = await this.breakers.call('oauth2', () =>
      this.http.send({
        url: this.tokenUrl,
        method: 'POST',
        headers: { authorization: basicAuthorization(this.config.consumerKey, this.config.consumerSecret), ...TOKEN_REQUEST.headers },
        body: TOKEN_REQUEST.body,
        timeoutMs: this.config.timeoutMs,
      }),
    );
    // Whatever happened to the token request, the operation itself was never sent.
    if (result.kind !== 'response') return { kind: 'not_sent', reason: `token: ${result.reason}` };
    const json = parseJson(result.body);
    if (result.status === 200) {
      const token = parseTokenResponse(json);
      if (token) {
        this.tokens.store(token);
        return { kind: 'token', token: token.accessToken };
      }
    }
    const error = oauthError(json);
    if (error || (result.status >= 400 && result.status < 500)) {
      return {
        kind: 'auth',
        raw: { status: result.status, codigo: error?.error ?? String(result.status), descripcion: error?.description ?? '', body: json ?? result.body },
      };
    }
    return { kind: 'not_sent', reason: `token: the token endpoint answered ${result.status}` };
  }
}

/** A status query that got no answer, or was refused, says nothing about the order. */
function noEvidence(sent: Exclude<Sent, { kind: 'answer' }>): BankOutcome {
  return { type: 'unknown', raw: sent.kind === 'auth' ? sent.raw : { reason: sent.reason } };
}

function readFailure(sent: Exclude<Sent, { kind: 'answer' }>): { ok: false; motivo: 'BANCO_NO_DISPONIBLE' | 'FIRMA_AUTH'; raw: Raw } {
  return sent.kind === 'auth' ? { ok: false, motivo: 'FIRMA_AUTH', raw: sent.raw } : { ok: false, motivo: 'BANCO_NO_DISPONIBLE', raw: { reason: sent.reason } };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
