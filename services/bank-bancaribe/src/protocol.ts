import type { GuardedSend } from '@switch/connector-kit/send';
/**
 * Bancaribe's gateway protocol: a WSO2 API Manager in front of services that still answer in the
 * shape of their old SOAP selves. Pure functions, one clock-driven token cache, and the transport
 * (token + Bearer calls) over the kit's guarded send.
 *
 * [code] OAuth2 client_credentials at `/oauth2/token` (Basic consumerKey:consumerSecret), Bearer on
 * every call, `{"Envelope":{"Body":{"<op>Response":{"out":{…}}}}}` answers, WSO2 fault bodies.
 * [INV] the paths marked below; Bancaribe publishes only the ones marked [code].
 */

/** Resources of the gateway (context/version/resource), in one place so an [INV] path is one edit. */
export const RUTAS = {
  /** [code] on the real gateway it lives on port 9443, the APIs on 8243. */
  token: '/oauth2/token',
  /** [code] path seen only as `/c2pRestWs2/.../registrarPagoC2pApi`; version [INV]. */
  c2p: '/c2pRestWs2/1.0.0/registrarPagoC2pApi',
  /** [code] vuelto / pago móvil payout (flat JSON, no envelope). */
  pagoB2p: '/PaP/1.0.0/sendPaymentB2P',
  /** [code] payment query; its use for our own C2P/B2P by reference is [INV]. */
  consultaPago: '/B2P/1.0.0/queryPaymentB2P',
  /** [INV] path (the response operation name is [code]). */
  creditoInmediato: '/CreditoInmediato/1.0.0/iniciarCreditoInmediatoApi',
  /** [INV] */
  consultaCredito: '/CreditoInmediato/1.0.0/consultarCreditoInmediatoApi',
  /** [code] */
  saldo: '/Cuentas/ConsultaSaldos/1.0.0/ctasConsultaSaldos',
  /** [INV] */
  movimientos: '/Cuentas/ConsultaMovimientos/1.0.0/ctasConsultaMovimientos',
} as const;

/** The `<op>Response` element of each enveloped answer. */
export const OPERACIONES_SOAP = {
  c2p: 'registrarPagoC2pApiResponse',
  creditoInmediato: 'iniciarCreditoInmediatoAPIResponse',
  consultaCredito: 'consultarCreditoInmediatoAPIResponse',
} as const;

/** WSO2 API Manager fault codes the gateway answers with before any backend sees the call. */
export const WSO2 = {
  invalidCredentials: 900901,
  missingCredentials: 900902,
  resourceForbidden: 900908,
  noMatchingResource: 900906,
  throttled: 900800,
  /** The gateway could not connect to the backend: the call was not processed. */
  backendUnreachable: 101503,
  /** The backend did not answer in time: it may have processed the call. */
  backendTimeout: 101504,
  endpointSuspended: 303001,
} as const;

// ---------------------------------------------------------------------------------------------
// OAuth2 client_credentials

export function basicAuthorization(consumerKey: string, consumerSecret: string): string {
  return `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`, 'utf8').toString('base64')}`;
}

/** Decodes a Basic header; null when it is not one. */
export function parseBasicAuthorization(header: string | undefined): { consumerKey: string; consumerSecret: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/.exec(header?.trim() ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { consumerKey: decoded.slice(0, colon), consumerSecret: decoded.slice(colon + 1) };
}

export const TOKEN_REQUEST = {
  headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  body: 'grant_type=client_credentials',
} as const;

export interface AccessToken {
  accessToken: string;
  expiresInSeconds: number;
  tokenType: string;
}

export function parseTokenResponse(json: unknown): AccessToken | null {
  if (!isRecord(json)) return null;
  const { access_token: accessToken, expires_in: expiresIn, token_type: tokenType } = json;
  if (typeof accessToken !== 'string' || accessToken === '') return null;
  const seconds = typeof expiresIn === 'number' ? expiresIn : typeof expiresIn === 'string' ? Number(expiresIn) : NaN;
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  return { accessToken, expiresInSeconds: seconds, tokenType: typeof tokenType === 'string' ? tokenType : 'Bearer' };
}

export function bearer(token: string): string {
  return `Bearer ${token}`;
}

/** Reads a Bearer header; null when it is not one. */
export function parseBearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
  return m ? (m[1] as string) : null;
}

/**
 * The access token held between calls. It is given out only while younger than `refreshRatio` of
 * its lifetime, so it is renewed before the gateway would refuse it; `invalidate` drops it after
 * the gateway refused it anyway (revoked, or the clocks disagree).
 */
export class TokenCache {
  private held: { token: string; renewAtMs: number } | null = null;

  constructor(
    private readonly now: () => Date,
    private readonly refreshRatio = 0.9,
  ) {}

  current(): string | null {
    if (!this.held) return null;
    return this.now().getTime() < this.held.renewAtMs ? this.held.token : null;
  }

  store(token: AccessToken): void {
    this.held = { token: token.accessToken, renewAtMs: this.now().getTime() + token.expiresInSeconds * 1000 * this.refreshRatio };
  }

  /** Only the token that was refused is dropped: a newer one fetched meanwhile stays. */
  invalidate(token: string): void {
    if (this.held?.token === token) this.held = null;
  }
}

// ---------------------------------------------------------------------------------------------
// Answers

export interface GatewayFault {
  code: string;
  message: string;
  description: string | null;
}

/** `{"fault":{"code":900901,"message":"Invalid Credentials","description":…}}` */
export function gatewayFault(json: unknown): GatewayFault | null {
  if (!isRecord(json) || !isRecord(json.fault)) return null;
  const { code, message, description } = json.fault;
  if (typeof code !== 'number' && typeof code !== 'string') return null;
  return {
    code: String(code),
    message: typeof message === 'string' ? message : '',
    description: typeof description === 'string' ? description : null,
  };
}

export function gatewayFaultBody(code: number, message: string, description?: string): { fault: Record<string, unknown> } {
  return { fault: { code, message, description: description ?? message, type: 'Status report' } };
}

/** A 401 that the gateway gave for the token itself: the call was refused before any backend saw it. */
export function isTokenRefusal(status: number, json: unknown): boolean {
  if (status !== 401) return false;
  const fault = gatewayFault(json);
  return fault !== null && (fault.code === String(WSO2.invalidCredentials) || fault.code === String(WSO2.missingCredentials));
}

/** The OAuth2 error of the token endpoint: `{"error":"invalid_client","error_description":…}`. */
export function oauthError(json: unknown): { error: string; description: string } | null {
  if (!isRecord(json) || typeof json.error !== 'string') return null;
  return { error: json.error, description: typeof json.error_description === 'string' ? json.error_description : '' };
}

export function envelope(
  operation: string,
  out: Record<string, unknown>,
): { Envelope: { Body: Record<string, { out: Record<string, unknown> }> } } {
  return { Envelope: { Body: { [operation]: { out } } } };
}

/**
 * The `out` of an enveloped answer. The operation element is matched without regard to case:
 * integrators have seen both `…ApiResponse` and `…APIResponse`.
 */
export function unwrapEnvelope(json: unknown, operation: string): Record<string, unknown> | null {
  if (!isRecord(json) || !isRecord(json.Envelope) || !isRecord(json.Envelope.Body)) return null;
  const body = json.Envelope.Body;
  const key = Object.keys(body).find((k) => k.toLowerCase() === operation.toLowerCase());
  const element = key === undefined ? undefined : body[key];
  return isRecord(element) && isRecord(element.out) ? element.out : null;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Transport

/** One HTTP answer of the gateway, body already parsed when it was JSON. */
export interface Answer {
  status: number;
  json: unknown;
  text: string;
}

/** How one call to the gateway went, before the operation reads it. */
export type GatewaySent =
  | { kind: 'answer'; answer: Answer }
  /** The call never reached the bank (refused, breaker open, or no token to send it with). */
  | { kind: 'not_sent'; reason: string }
  /** It may have reached the bank; no complete answer came. */
  | { kind: 'unknown'; reason: string }
  /** The gateway refused our credentials before anything was processed. */
  | { kind: 'auth'; raw: Record<string, unknown> };

type TokenOutcome = { kind: 'token'; token: string } | Extract<GatewaySent, { kind: 'not_sent' | 'auth' }>;

export interface GatewayCredentials {
  baseUrl: string;
  /** The token endpoint; defaults to `<baseUrl>/oauth2/token` (the real gateway serves it on 9443). */
  tokenUrl?: string;
  consumerKey: string;
  consumerSecret: string;
  /** Fraction of the token's lifetime after which it is renewed before use (default 0.9). */
  tokenRefreshRatio?: number;
}

/**
 * Bancaribe's transport over the kit's guarded send (a breaker per route, `oauth2` for the token):
 * every call carries a cached OAuth2 token, renewed before it expires and once more when the
 * gateway refuses it (a refusal the gateway gives before any backend sees the call).
 */
export class GatewayTransport {
  private readonly tokens: TokenCache;
  private tokenInFlight: Promise<TokenOutcome> | null = null;
  private readonly baseUrl: string;
  private readonly tokenUrl: string;

  constructor(
    private readonly kit: GuardedSend,
    private readonly credentials: GatewayCredentials,
  ) {
    this.baseUrl = credentials.baseUrl.replace(/\/+$/, '');
    this.tokenUrl = credentials.tokenUrl ?? `${this.baseUrl}${RUTAS.token}`;
    this.tokens = new TokenCache(kit.now, credentials.tokenRefreshRatio ?? 0.9);
  }

  /**
   * One call with the current token. A 401 that the gateway gave for the token itself proves the
   * call was refused before processing, so it is sent once more with a fresh token; a second refusal
   * is returned as it came.
   */
  async send(route: keyof typeof RUTAS, build: (token: string) => unknown): Promise<GatewaySent> {
    let token = await this.token();
    for (let attempt = 1; ; attempt++) {
      if (token.kind !== 'token') return token;
      const used = token.token;
      const result = await this.kit.result({
        operation: route,
        url: `${this.baseUrl}${RUTAS[route]}`,
        method: 'POST',
        headers: { authorization: bearer(used), 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(build(used)),
      });
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
    const result = await this.kit.result({
      operation: 'oauth2',
      url: this.tokenUrl,
      method: 'POST',
      headers: {
        authorization: basicAuthorization(this.credentials.consumerKey, this.credentials.consumerSecret),
        ...TOKEN_REQUEST.headers,
      },
      body: TOKEN_REQUEST.body,
    });
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
        raw: {
          status: result.status,
          codigo: error?.error ?? String(result.status),
          descripcion: error?.description ?? '',
          body: json ?? result.body,
        },
      };
    }
    return { kind: 'not_sent', reason: `token: the token endpoint answered ${result.status}` };
  }
}
