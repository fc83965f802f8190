import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

type Schemas = components['schemas'];
export type Instrumento = Schemas['Instrumento'];
export type Monto = Schemas['Monto'];
export type Estado = Schemas['Estado'];
export type MotivoRechazo = Schemas['MotivoRechazo'];
export type Resultado = Schemas['Resultado'];
export type TokenRequest = Schemas['TokenRequest'];
export type CobrarRequest = Schemas['CobrarRequest'];
export type PagarRequest = Schemas['PagarRequest'];
export type ConsultarRequest = Schemas['ConsultarRequest'];
export type ReversoRequest = Schemas['ReversoRequest'];
export type BancoCatalogo = Schemas['BancoCatalogo'];
export type Saldo = Schemas['Saldo'];
export type Movimientos = Schemas['Movimientos'];
export type WebhookEvento = Schemas['WebhookEvento'];
export type Transacciones = Schemas['Transacciones'];
export type TransaccionResumen = Schemas['TransaccionResumen'];
export type TransaccionDetalle = Schemas['TransaccionDetalle'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type WebhookEndpointCreateRequest = Schemas['WebhookEndpointCreateRequest'];
export type WebhookEndpointUpdateRequest = Schemas['WebhookEndpointUpdateRequest'];
export type WebhookEndpointEliminado = Schemas['WebhookEndpointEliminado'];
export type WebhookEntrega = Schemas['WebhookEntrega'];
export type VerificarRequest = Schemas['VerificarRequest'];
export type Verificacion = Schemas['Verificacion'];
export type PagoMovilEntranteRequest = Schemas['PagoMovilEntranteRequest'];
export type PagoMovilEntrante = Schemas['PagoMovilEntrante'];
export type TransaccionesQuery = operations['listarTransacciones']['parameters']['query'];
export type SaldoQuery = operations['consultarSaldo']['parameters']['query'];
export type MovimientosQuery = operations['listarMovimientos']['parameters']['query'];
export type CobroEsperadoRequest = Schemas['CobroEsperadoRequest'];
export type CobroEsperado = Schemas['CobroEsperado'];
export type CobrosEsperados = Schemas['CobrosEsperados'];
export type WebhookCobroEsperado = Schemas['WebhookCobroEsperado'];
export type CobrosEsperadosQuery = operations['listarCobrosEsperados']['parameters']['query'];

/** Every error body the API answers (the house body: `error`, and `message`/`detail` when given). */
export type ApiError =
  | Schemas['ValidationError']
  | Schemas['UnauthorizedError']
  | Schemas['NotFoundError']
  | Schemas['IdempotencyConflictError']
  | Schemas['PayloadTooLargeError']
  | Schemas['UnsupportedMediaTypeError']
  | Schemas['RefusedRequestError']
  | Schemas['RateLimitedError']
  | Schemas['ServiceUnavailableError'];

/**
 * One answer, as a value: `ok` with the body, or the error body with its HTTP status. A money
 * outcome is in `data.estado` (RECHAZADA is an `ok` answer: the switch answered), not in `ok`.
 */
export type Answer<T> =
  | { ok: true; data: T; status: number; replayed: boolean; requestId: string | null; response: Response }
  | { ok: false; error: ApiError; status: number; replayed: false; requestId: string | null; response: Response };

export interface SwitchClientOptions {
  /** e.g. `http://127.0.0.1:3000` (no `/switch/v1`). */
  baseUrl: string;
  /** `<merchant>:<API_KEY>`; a `sk_test_` key runs in test mode, `sk_live_` moves real money. */
  key: string;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

export interface RetryOptions {
  /** Attempts in all, the first included (default 3). Only the same body is resent: same idempotency_key. */
  attempts?: number;
  /** Wait before the n-th retry: `backoffMs * 2^(n-1)` (default 500 ms). */
  backoffMs?: number;
}

/** Statuses a money operation may be retried on, with the same key: the switch did not take it, or could not answer. */
const RETRYABLE = new Set([408, 429, 502, 503, 504]);

/** A typed wrapper per operation of the switch's REST API (operationIds of openapi.json). */
export class SwitchClient {
  /** The openapi-fetch client under the wrappers, for anything they do not cover. */
  readonly raw: Client<paths>;

  constructor(options: SwitchClientOptions) {
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { 'x-switch-key': options.key },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** POST /switch/v1/cobrar/token: ask the payer's bank for an OTP (reuse the key in `cobrar`). */
  cobrarToken(body: TokenRequest, retry?: RetryOptions): Promise<Answer<Resultado>> {
    return this.money(() => this.raw.POST('/switch/v1/cobrar/token', { body }), retry);
  }

  /** POST /switch/v1/cobrar: collect with the OTP, under the token step's idempotency_key. */
  cobrar(body: CobrarRequest, retry?: RetryOptions): Promise<Answer<Resultado>> {
    return this.money(() => this.raw.POST('/switch/v1/cobrar', { body }), retry);
  }

  /** POST /switch/v1/pagar: pay a beneficiary. */
  pagar(body: PagarRequest, retry?: RetryOptions): Promise<Answer<Resultado>> {
    return this.money(() => this.raw.POST('/switch/v1/pagar', { body }), retry);
  }

  /** POST /switch/v1/reverso: reverse an operation. */
  reverso(body: ReversoRequest, retry?: RetryOptions): Promise<Answer<Resultado>> {
    return this.money(() => this.raw.POST('/switch/v1/reverso', { body }), retry);
  }

  /** POST /switch/v1/cobros/esperados: await a pago móvil the payer pushes; answers what to show the payer. Retried like a money operation. */
  crearCobroEsperado(body: CobroEsperadoRequest, retry?: RetryOptions): Promise<Answer<CobroEsperado>> {
    return this.money(() => this.raw.POST('/switch/v1/cobros/esperados', { body }), retry);
  }

  /** GET /switch/v1/cobros/esperados: one page of the key mode's expected payments, newest first (follow `siguiente` as `cursor`). */
  async cobrosEsperados(query: CobrosEsperadosQuery = {}): Promise<Answer<CobrosEsperados>> {
    return answer(await this.raw.GET('/switch/v1/cobros/esperados', { params: { query } }));
  }

  /** GET /switch/v1/cobros/esperados/{id}: one expected payment, what it received and its changes. */
  async cobroEsperado(id: string): Promise<Answer<CobroEsperado>> {
    return answer(await this.raw.GET('/switch/v1/cobros/esperados/{id}', { params: { path: { id } } }));
  }

  /** POST /switch/v1/consultar: the operation's current state (the switch asks the bank when still open). */
  async consultar(id: string): Promise<Answer<Resultado>> {
    return answer(await this.raw.POST('/switch/v1/consultar', { body: { id } }));
  }

  /** GET /switch/v1/bancos: the enabled banks of the key's mode. */
  async bancos(): Promise<Answer<BancoCatalogo[]>> {
    return answer(await this.raw.GET('/switch/v1/bancos'));
  }

  /** GET /switch/v1/saldo: balance of an account. */
  async saldo(query: SaldoQuery): Promise<Answer<Saldo>> {
    return answer(await this.raw.GET('/switch/v1/saldo', { params: { query } }));
  }

  /** GET /switch/v1/movimientos: one page of a statement (follow `siguiente` as `cursor`). */
  async movimientos(query: MovimientosQuery): Promise<Answer<Movimientos>> {
    return answer(await this.raw.GET('/switch/v1/movimientos', { params: { query } }));
  }

  /**
   * POST /switch/v1/cobros/verificar: is the pago móvil a payer says they sent in your account, and
   * still free? `data.estado` VERIFICADO claims it; repeat with the same key for the same answer.
   */
  async verificarPago(body: VerificarRequest): Promise<Answer<Verificacion>> {
    return answer(await this.raw.POST('/switch/v1/cobros/verificar', { body }));
  }

  /** POST /switch/v1/sandbox/pago-movil-entrante (test keys only): make a payer's pago móvil arrive. */
  async simularPagoMovilEntrante(body: PagoMovilEntranteRequest): Promise<Answer<PagoMovilEntrante>> {
    return answer(await this.raw.POST('/switch/v1/sandbox/pago-movil-entrante', { body }));
  }

  /** GET /switch/v1/transacciones: one page of the key mode's operations, newest first (follow `siguiente` as `cursor`). */
  async transacciones(query: TransaccionesQuery = {}): Promise<Answer<Transacciones>> {
    return answer(await this.raw.GET('/switch/v1/transacciones', { params: { query } }));
  }

  /** GET /switch/v1/transacciones/{id}: one operation in detail (history, attempts, evidence), without asking the bank. */
  async transaccion(id: string): Promise<Answer<TransaccionDetalle>> {
    return answer(await this.raw.GET('/switch/v1/transacciones/{id}', { params: { path: { id } } }));
  }

  /** GET /switch/v1/transacciones/{id}/entregas: the webhook deliveries of an operation. */
  async entregasTransaccion(id: string): Promise<Answer<WebhookEntrega[]>> {
    return answer(await this.raw.GET('/switch/v1/transacciones/{id}/entregas', { params: { path: { id } } }));
  }

  /** GET /switch/v1/webhooks: the webhook endpoints of the key mode (no secrets). */
  async webhooks(): Promise<Answer<WebhookEndpoint[]>> {
    return answer(await this.raw.GET('/switch/v1/webhooks'));
  }

  /** POST /switch/v1/webhooks: register an endpoint; the answer's `secret` is shown only there. */
  async crearWebhook(body: WebhookEndpointCreateRequest): Promise<Answer<WebhookEndpointWithSecret>> {
    return answer(await this.raw.POST('/switch/v1/webhooks', { body }));
  }

  /** PATCH /switch/v1/webhooks/{id}: change an endpoint's events, or disable and enable it. */
  async actualizarWebhook(id: string, body: WebhookEndpointUpdateRequest): Promise<Answer<WebhookEndpoint>> {
    return answer(await this.raw.PATCH('/switch/v1/webhooks/{id}', { params: { path: { id } }, body }));
  }

  /** POST /switch/v1/webhooks/{id}/rotar-secreto: a new secret; the previous one signs beside it until `rotacion_hasta`. */
  async rotarSecretoWebhook(id: string): Promise<Answer<WebhookEndpointWithSecret>> {
    return answer(await this.raw.POST('/switch/v1/webhooks/{id}/rotar-secreto', { params: { path: { id } } }));
  }

  /** DELETE /switch/v1/webhooks/{id}: no further deliveries to the endpoint. */
  async eliminarWebhook(id: string): Promise<Answer<WebhookEndpointEliminado>> {
    return answer(await this.raw.DELETE('/switch/v1/webhooks/{id}', { params: { path: { id } } }));
  }

  /** GET /switch/v1/webhooks/{id}/entregas: an endpoint's deliveries, newest first, with every attempt. */
  async entregasWebhook(id: string): Promise<Answer<WebhookEntrega[]>> {
    return answer(await this.raw.GET('/switch/v1/webhooks/{id}/entregas', { params: { path: { id } } }));
  }

  /** POST /switch/v1/entregas/{id}/reenviar: attempt a delivery again now (202: queued). */
  async reenviarEntrega(id: string): Promise<Answer<WebhookEntrega>> {
    return answer(await this.raw.POST('/switch/v1/entregas/{id}/reenviar', { params: { path: { id } } }));
  }

  /**
   * A money operation, retried with the SAME body (so the same idempotency_key) when the request
   * may not have been taken: a network failure, 408, 429, 502, 503, 504. Never with a new key.
   */
  private async money<T>(send: () => Promise<FetchResult<T>>, retry: RetryOptions = {}): Promise<Answer<T>> {
    const attempts = Math.max(1, retry.attempts ?? 3);
    const backoff = retry.backoffMs ?? 500;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = answer(await send());
        if (result.ok || !RETRYABLE.has(result.status) || attempt >= attempts) return result;
        const after = Number(result.response.headers.get('retry-after'));
        await sleep(Number.isFinite(after) && after > 0 ? after * 1000 : backoff * 2 ** (attempt - 1));
      } catch (error) {
        if (attempt >= attempts) throw error;
        await sleep(backoff * 2 ** (attempt - 1));
      }
    }
  }
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function answer<T>(result: FetchResult<T>): Answer<T> {
  const { response } = result;
  const requestId = response.headers.get('x-request-id');
  if (response.ok && result.data !== undefined) {
    const replayed = response.headers.get('idempotent-replayed') === 'true';
    return { ok: true, data: result.data, status: response.status, replayed, requestId, response };
  }
  return { ok: false, error: result.error as ApiError, status: response.status, replayed: false, requestId, response };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client for one key. */
export function createSwitchClient(options: SwitchClientOptions): SwitchClient {
  return new SwitchClient(options);
}
