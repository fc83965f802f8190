import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FaultPlan, readBody, type FaultControls, type RunningEmulator } from '@switch/connector-kit/emulator';
import { gatewayFaultBody, parseBasicAuthorization, parseBearer, parseJson, RUTAS, WSO2 } from '../src/protocol';
import { EmulatedBank, type BankAnswer, type Merchant } from './bank';
import { Ledger, type BookedOrder, type Settlement } from './ledger';

/**
 * Bancaribe's WSO2 gateway and the bank behind it, as a real HTTP server on 127.0.0.1 for tests
 * and local runs. It checks OAuth2 client credentials and Bearer tokens as the gateway does, keeps a
 * ledger, dedupes orders by the merchant's reference, settles crédito inmediato asynchronously, and
 * breaks on demand (see README.md beside this file).
 */

/** The resources that book money orders (status queries carry the same reference and are not counted). */
const MONEY_ORDER = /(registrarPagoC2pApi|sendPaymentB2P|iniciarCreditoInmediatoApi)$/;

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  credentials: { consumerKey: string; consumerSecret: string };
  merchant?: Partial<Merchant>;
  /** `expires_in` of issued tokens (default 3600). */
  tokenTtlSeconds?: number;
  /** Delay before a pending crédito inmediato settles; 0 → only by `settle`/`settleAll` (default 2000). */
  settleDelayMs?: number;
  /** Delay of a crédito inmediato whose amount ends in .83 (the sandbox's slow settlement); default 60 s. */
  slowSettleDelayMs?: number;
  /** Lifetime of a C2P key issued through the OTP route (default 24 h). */
  c2pKeyTtlMs?: number;
  /** Opening balance of an account seen for the first time (default 1 000 000.00). */
  openingBalance?: number;
  /** The merchant account's opening balance (default 5 000 000.00). */
  merchantBalance?: number;
  /** The bank's clock (token and key expiry, statement dates); defaults to the system clock. */
  now?: () => number;
}

export interface EmulatorControls extends FaultControls {
  /** The next n calls get this HTTP status with a WSO2 runtime fault; nothing is executed. */
  failNext(n: number, status?: number, scope?: 'api' | 'token'): void;
  /** While on, the gateway cannot reach the backend: 503 fault 101503, nothing is executed. */
  backendDown(on: boolean): void;
  /** The next n API calls get 401 Invalid Credentials even with a valid token. */
  invalidTokensNext(n: number): void;
  /** Every token issued so far becomes invalid. */
  revokeTokens(): void;
  settleAll(): number;
  settle(reference: string, outcome?: Settlement): boolean;
  /** The C2P key the payer's bank "sent" to this phone (issues a new one). */
  issueC2pKey(telefono: string): string;
  /** Orders booked (executed or refused with a business code). */
  orderCount(): number;
  /** Requests that carried this merchant reference, repeats and refused ones included. */
  callCount(reference: string): number;
  /** API requests that reached the gateway (token and control routes excluded), optionally for one path. */
  requestCount(path?: string): number;
  tokensIssued(): number;
  /** 401 answers given to API calls. */
  unauthorizedCount(): number;
  /** Clear pending faults (not the ledger, not the counters). */
  reset(): void;
}

export interface Emulator extends RunningEmulator<Ledger, EmulatorControls> {
  port: number;
  bank: EmulatedBank;
}

export const DEFAULT_MERCHANT: Merchant = {
  rif: 'J000012114',
  telefono: '04141000114',
  cuenta: '01140111122222233333',
  hash: '09A2D57E-C433-4581-97C2-6F6ADA944F27',
  nombre: 'Comercio de Pruebas',
};

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const now = options.now ?? (() => Date.now());
  const host = options.host ?? '127.0.0.1';
  const ttl = options.tokenTtlSeconds ?? 3600;
  const merchant: Merchant = { ...DEFAULT_MERCHANT, ...options.merchant };
  const ledger = new Ledger(Math.round((options.openingBalance ?? 1_000_000) * 100), now);
  ledger.setBalance(merchant.cuenta, options.merchantBalance ?? 5_000_000);
  const bank = new EmulatedBank(ledger, merchant, {
    settleDelayMs: options.settleDelayMs ?? 2000,
    ...(options.slowSettleDelayMs !== undefined ? { slowSettleDelayMs: options.slowSettleDelayMs } : {}),
    c2pKeyTtlMs: options.c2pKeyTtlMs ?? 24 * 3600_000,
    now,
  });
  const resources = bank.resources();

  const tokens = new Map<string, number>();
  const callsByReference = new Map<string, number>();
  const passedByReference = new Map<string, number>();
  const requestsByPath = new Map<string, number>();
  let issued = 0;
  let unauthorized = 0;
  const faults = new FaultPlan();
  /** API calls still to be answered 401 with a valid token, and whether the backend is unreachable. */
  let invalidTokens = 0;
  let backendDown = false;
  const takeInvalidToken = (): boolean => {
    if (invalidTokens <= 0) return false;
    invalidTokens--;
    return true;
  };

  const controls: EmulatorControls = {
    refuseConnections: (on) => (on ? stopListening() : listen()),
    failNext: (n, status, scope) => faults.failNext(n, status, scope),
    backendDown: (on) => {
      backendDown = on;
    },
    delayNext: (n, ms) => faults.delayNext(n, ms),
    timeoutAfterAccept: (n) => faults.timeoutAfterAccept(n),
    rejectNext: (n, code) => faults.rejectNext(n, code),
    invalidTokensNext: (n) => {
      invalidTokens = n;
    },
    revokeTokens: () => tokens.clear(),
    settleAll: () => bank.settleAll(),
    settle: (reference, outcome) => bank.settle(reference, outcome),
    issueC2pKey: (telefono) => bank.issueKey(telefono).clave,
    orderCount: () => ledger.orders().length,
    callCount: (reference) => callsByReference.get(reference) ?? 0,
    requestCount: (path) => (path ? (requestsByPath.get(path) ?? 0) : [...requestsByPath.values()].reduce((a, b) => a + b, 0)),
    tokensIssued: () => issued,
    unauthorizedCount: () => unauthorized,
    reset: () => {
      faults.reset();
      invalidTokens = 0;
      backendDown = false;
    },
  };

  // --- token endpoint -------------------------------------------------------------------------

  function token(req: IncomingMessage, raw: string): BankAnswer {
    const tokenFailure = faults.takeFailure('token');
    if (tokenFailure !== undefined) {
      return { status: tokenFailure, body: gatewayFaultBody(101500, 'Runtime Error', 'Injected failure') };
    }
    const grant = new URLSearchParams(raw).get('grant_type');
    const client = parseBasicAuthorization(req.headers.authorization);
    if (!client) return { status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed.' } };
    if (client.consumerKey !== options.credentials.consumerKey || client.consumerSecret !== options.credentials.consumerSecret) {
      return {
        status: 401,
        body: {
          error: 'invalid_client',
          error_description: `A valid OAuth client could not be found for client_id: ${client.consumerKey}`,
        },
      };
    }
    if (grant !== 'client_credentials')
      return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Unsupported grant_type value' } };
    const accessToken = randomBytes(18).toString('hex');
    tokens.set(accessToken, now() + ttl * 1000);
    issued++;
    return { status: 200, body: { access_token: accessToken, scope: 'default', token_type: 'Bearer', expires_in: ttl } };
  }

  // --- API resources --------------------------------------------------------------------------

  /** The gateway's checks, then the faults, then the bank. `null` means: cut the connection. */
  async function api(req: IncomingMessage, path: string, raw: string): Promise<BankAnswer | null> {
    const resource = resources[path];
    if (!resource)
      return { status: 404, body: gatewayFaultBody(WSO2.noMatchingResource, 'No matching resource found for given API Request') };
    // Counted as they reach the gateway, refused or not: what "no second call" is measured by.
    requestsByPath.set(path, (requestsByPath.get(path) ?? 0) + 1);
    const body = parseJson(raw);
    const reference = resource.reference(body);
    if (reference) callsByReference.set(reference, (callsByReference.get(reference) ?? 0) + 1);
    const presented = parseBearer(req.headers.authorization);
    const expiry = presented ? tokens.get(presented) : undefined;
    if (!presented)
      return refuse(
        WSO2.missingCredentials,
        'Missing Credentials',
        "Make sure your API invocation call has a header: 'Authorization: Bearer ACCESS_TOKEN'",
      );
    if (expiry === undefined || now() >= expiry || takeInvalidToken()) {
      return refuse(WSO2.invalidCredentials, 'Invalid Credentials', 'Make sure you have provided the correct security credentials');
    }
    // Past the gateway: a second one for the same reference is the same order sent twice (the
    // connector's documented resend after a 401 is not, so it is left out of this count).
    if (reference && MONEY_ORDER.test(path)) passedByReference.set(reference, (passedByReference.get(reference) ?? 0) + 1);
    const delay = faults.takeDelay();
    if (delay !== undefined) {
      await new Promise((r) => setTimeout(r, delay));
    }
    if (backendDown)
      return { status: 503, body: gatewayFaultBody(WSO2.backendUnreachable, 'Error connecting to the back end', 'Connection refused') };
    const failure = faults.takeFailure('api');
    if (failure !== undefined) {
      return { status: failure, body: gatewayFaultBody(101500, 'Runtime Error', 'Injected failure') };
    }
    const refusal = faults.takeRejection();
    if (refusal !== undefined) {
      return resource.refuse(refusal);
    }
    const answer = resource.handle(body);
    // The sandbox's unknown outcomes: an order the bank took, answered by a cut connection.
    if (bank.takeCut()) return null;
    return faults.takeCut() ? null : answer;
  }

  function refuse(code: number, message: string, description: string): BankAnswer {
    unauthorized++;
    return { status: 401, body: gatewayFaultBody(code, message, description) };
  }

  // --- test-only control routes ---------------------------------------------------------------

  async function control(req: IncomingMessage, url: URL, raw: string): Promise<BankAnswer> {
    const body = (parseJson(raw) ?? {}) as Record<string, unknown>;
    const n = typeof body.n === 'number' ? body.n : 1;
    switch (url.pathname) {
      case '/__emulator/calls':
        // Calls per order reference past the gateway, for the reliability drills (docs/reliability.md).
        return { status: 200, body: { byRef: Object.fromEntries(passedByReference) } };
      case '/__emulator/state':
        return { status: 200, body: { accounts: ledger.allAccounts(), orders: ledger.orders(), tokensIssued: issued, unauthorized } };
      case '/__emulator/otp': {
        const telefono = url.searchParams.get('telefono') ?? (typeof body.telefono === 'string' ? body.telefono : '');
        if (!/^0[0-9]{10}$/.test(telefono)) return { status: 400, body: { error: 'telefono must be 11 digits' } };
        const key = bank.issueKey(telefono);
        return { status: 200, body: { telefono, clave: key.clave, venceEn: new Date(key.expiresMs).toISOString() } };
      }
      case '/__emulator/orders': {
        const reference = url.searchParams.get('referencia');
        const found: BookedOrder | undefined = reference ? (ledger.order(reference) ?? ledger.orderBySecuencial(reference)) : undefined;
        if (reference)
          return found
            ? { status: 200, body: { ...found, calls: controls.callCount(found.reference) } }
            : { status: 404, body: { error: 'not found' } };
        return { status: 200, body: { count: controls.orderCount(), orders: ledger.orders() } };
      }
    }
    if (req.method !== 'POST') return { status: 405, body: { error: 'use POST' } };
    switch (url.pathname) {
      case '/__emulator/refuse': {
        const forMs = typeof body.forMs === 'number' ? body.forMs : 0;
        if (body.on === false)
          return { status: 409, body: { error: 'the listener is open; it is reopened by forMs or the in-process control' } };
        // Answer first, then close: the caller must hear that the switch worked.
        setImmediate(() => {
          void stopListening().then(() => {
            if (forMs > 0) setTimeout(() => void listen(), forMs).unref();
          });
        });
        return { status: 200, body: { refusing: true, forMs } };
      }
      case '/__emulator/fail-next':
        controls.failNext(n, typeof body.status === 'number' ? body.status : 500, body.scope === 'token' ? 'token' : 'api');
        break;
      case '/__emulator/backend-down':
        controls.backendDown(body.on !== false);
        break;
      case '/__emulator/delay-next':
        controls.delayNext(n, typeof body.ms === 'number' ? body.ms : 1000);
        break;
      case '/__emulator/timeout-after-accept':
        controls.timeoutAfterAccept(n);
        break;
      case '/__emulator/reject-next':
        controls.rejectNext(n, String(body.code ?? '96'));
        break;
      case '/__emulator/invalid-tokens-next':
        controls.invalidTokensNext(n);
        break;
      case '/__emulator/revoke-tokens':
        controls.revokeTokens();
        break;
      case '/__emulator/settle-all':
        return { status: 200, body: { settled: controls.settleAll() } };
      case '/__emulator/settle': {
        const reference = String(body.referencia ?? '');
        const outcome: Settlement | undefined =
          body.estatus === 'RJCT'
            ? { estatus: 'RJCT', codigoRechazo: String(body.codigoRechazo ?? 'RJCT') }
            : body.estatus === 'ACCP'
              ? { estatus: 'ACCP' }
              : undefined;
        return controls.settle(reference, outcome)
          ? { status: 200, body: { settled: reference } }
          : { status: 404, body: { error: 'no pending crédito inmediato with that reference' } };
      }
      case '/__emulator/reset':
        controls.reset();
        break;
      default:
        return { status: 404, body: { error: 'unknown control' } };
    }
    return { status: 200, body: { ok: true } };
  }

  // --- HTTP -----------------------------------------------------------------------------------

  const sockets = new Set<Socket>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((raw) => {
      const url = new URL(req.url ?? '/', 'http://emulator');
      const answering = url.pathname.startsWith('/__emulator/')
        ? control(req, url, raw)
        : url.pathname === RUTAS.token && req.method === 'POST'
          ? Promise.resolve(token(req, raw))
          : req.method === 'POST'
            ? api(req, url.pathname, raw)
            : Promise.resolve({
                status: 405,
                body: gatewayFaultBody(WSO2.noMatchingResource, 'Method not allowed for given API resource'),
              });
      answering.then(
        (answer) => {
          if (answer === null) return void req.socket.destroy();
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
        },
        (error: unknown) => {
          if (!res.destroyed)
            res
              .writeHead(500, { 'content-type': 'application/json' })
              .end(JSON.stringify(gatewayFaultBody(101500, 'Runtime Error', String(error))));
        },
      );
    });
  };

  let server: Server | null = null;
  let port = options.port ?? 0;

  function listen(): Promise<void> {
    if (server) return Promise.resolve();
    const s = createServer(handler);
    s.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    server = s;
    return new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, host, () => {
        port = (s.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  /** Stop accepting and cut kept-alive connections, so every new request finds the door shut. */
  function stopListening(): Promise<void> {
    const s = server;
    if (!s) return Promise.resolve();
    server = null;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    return closed;
  }

  await listen();
  return {
    url: `http://${host}:${port}`,
    port,
    ledger,
    bank,
    controls,
    close: async () => {
      bank.close();
      await stopListening();
    },
  };
}
