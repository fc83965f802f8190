import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, SANDBOX_CUT_CENTS, SANDBOX_SLOW_CENTS, type FaultControls, type RunningEmulator } from '@switch/connector-kit/emulator';
import { AUTH_HEADERS, RESULT_HEADERS, signatureMatches, type PlazaCredentials } from '../src/protocol';
import { cents, EmulatedBank, refusal, type Call } from './bank';
import { Ledger, type Order, type StoredAnswer } from './ledger';

/**
 * Banco Plaza's API as a real HTTP server on 127.0.0.1, for tests and local runs. It verifies the
 * bank's authentication (api-key, HMAC-SHA384 signature, strictly increasing nonce), runs the
 * operations against a ledger, settles CCE orders asynchronously, and injects faults on demand.
 * See emulator/README.md.
 */

/**
 * How far below the highest nonce seen a fresh nonce is still accepted [assumed; PROTOCOLS §2.2 only
 * says nonces "must increase per key"]: 60 s in the microsecond nonces the connector sends
 * (`ReplicaNonce`: µs clock + replica id, i.e. ×1000), so replicas sharing a key whose requests cross
 * on the network or whose clocks differ by seconds are not refused; a repeat is always refused.
 * `0n` restores the strict rule (each nonce above the last one).
 */
export const DEFAULT_NONCE_WINDOW = 60_000_000_000n;

export interface EmulatorOptions {
  /** See DEFAULT_NONCE_WINDOW. */
  nonceWindow?: bigint;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Listen address (default 127.0.0.1; the test-only Kubernetes Deployment listens on 0.0.0.0). */
  host?: string;
  credentials: PlazaCredentials;
  /** The merchant behind the API key: collections without an account land in `cuenta`. */
  merchant?: { rif?: string; cuenta?: string };
  /** Opening balances of seeded accounts (or phones); others open with `defaultBalance`. */
  accounts?: Record<string, number>;
  defaultBalance?: number;
  /** Delay before a pending CCE order settles by itself; null = only `settle`/`settleAll` settle. */
  settleDelayMs?: number | null;
  /** Delay of a pending order whose amount ends in .83 (the sandbox's slow settlement); default 60 s. */
  slowSettleDelayMs?: number;
  otpTtlMs?: number;
  now?: () => Date;
}

export interface EmulatorControls extends FaultControls {
  /** The next n queries (status, statement) answer this code (e.g. one the connector does not know). */
  answerQueriesNext(n: number, code: string, status?: number): void;
  /** Settles every pending order as planned; returns how many. */
  settleAll(): number;
  /** Settles one pending order (bank reference, merchant reference or end-to-end id): `ACCP` or an ISO reason. */
  settle(ref: string, outcome?: string): boolean;
  /** The OTP last sent to a payer (11-digit phone or 20-digit account), while unused and unexpired. */
  otpFor(payer: string): string | null;
  /** Orders the bank took (executed or pending), not counting repeats. */
  orderCount(): number;
  /** API calls received, refused ones included. */
  callCount(): number;
  /** Money calls that named this merchant reference (referencia_c, referencia, idExterno, C2P ref). */
  callsFor(ref: string): number;
  /** The last authenticated request to one route (`pagoO`, `consultaLiq`…), as the bank read it. */
  lastRequest(route: string): { path: string; query: Record<string, string>; body: Record<string, unknown> } | null;
  /** Clears pending faults. */
  reset(): void;
}

export interface Emulator extends RunningEmulator<Ledger, EmulatorControls> {
  port: number;
}

interface Route {
  name: string;
  method: string;
  pattern: RegExp;
  /** Paths a valid signature may cover (the base path; P2P clients are also seen signing the full path). */
  signPaths: (path: string) => string[];
  /** A money order: `rejectNext` applies and calls are counted per reference. */
  money: boolean;
  handle: (bank: EmulatedBank, call: Call) => StoredAnswer;
}

const base = (p: string) => () => [p];
const ROUTES: Route[] = [
  { name: 'c2p', method: 'POST', pattern: /^\/v0\/pagos\/c2p$/, signPaths: base('/v0/pagos/c2p'), money: true, handle: (b, c) => b.c2p(c) },
  {
    name: 'reversoC2P',
    method: 'DELETE',
    pattern: /^\/v0\/pagos\/c2p\/([^/]+)$/,
    signPaths: base('/v0/pagos/c2p'),
    money: true,
    handle: (b, c) => b.reversoC2P(c),
  },
  {
    name: 'consultaC2P',
    method: 'GET',
    pattern: /^\/v0\/pagos\/c2p\/([^/]+)\/([^/]+)$/,
    signPaths: base('/v0/pagos/c2p'),
    money: false,
    handle: (b, c) => b.consultaC2P(c),
  },
  {
    name: 'tokenDI',
    method: 'POST',
    pattern: /^\/v1\/cce\/debinm\/tokenDI$/,
    signPaths: base('/v1/cce/debinm/tokenDI'),
    money: true,
    handle: (b, c) => b.tokenDI(c),
  },
  {
    name: 'cobroDI',
    method: 'POST',
    pattern: /^\/v1\/cce\/debinm\/cobroDI\/([^/]+)$/,
    signPaths: base('/v1/cce/debinm/cobroDI'),
    money: true,
    handle: (b, c) => b.cobroDI(c),
  },
  {
    name: 'consultarDI',
    method: 'GET',
    pattern: /^\/v1\/cce\/debinm\/consultarDI\/([^/]+)$/,
    signPaths: base('/v1/cce/debinm/consultarDI'),
    money: false,
    handle: (b, c) => b.consultarDI(c),
  },
  {
    name: 'pagoO',
    method: 'POST',
    pattern: /^\/v1\/cce\/pagoO\/([^/]+)$/,
    signPaths: base('/v1/cce/pagoO'),
    money: true,
    handle: (b, c) => b.pagoO(c),
  },
  {
    name: 'consultaLiq',
    method: 'GET',
    pattern: /^\/v1\/cce\/consultaLiq\/([^/]+)$/,
    signPaths: base('/v1/cce/consultaLiq'),
    money: false,
    handle: (b, c) => b.consultaLiq(c),
  },
  {
    name: 'p2p',
    method: 'POST',
    pattern: /^\/v1\/pagos\/p2p\/([^/]+)$/,
    signPaths: (p) => ['/v1/pagos/p2p', p],
    money: true,
    handle: (b, c) => b.p2p(c),
  },
  {
    name: 'consultaP2P',
    method: 'GET',
    pattern: /^\/v1\/pagos\/p2p\/([^/]+)\/([^/]+)$/,
    signPaths: base('/v1/pagos/p2p'),
    money: false,
    handle: (b, c) => b.consultaP2P(c),
  },
  {
    name: 'operaciones',
    method: 'POST',
    pattern: /^\/v0\/cuentas\/operaciones\/([^/]+)$/,
    signPaths: base('/v0/cuentas/operaciones'),
    money: false,
    handle: (b, c) => b.operaciones(c),
  },
  {
    name: 'movimientos',
    method: 'GET',
    pattern: /^\/v0\/cuentas\/([^/]+)\/movimientos$/,
    signPaths: base('/v0/cuentas'),
    money: false,
    handle: (b, c) => b.movimientos(c),
  },
];

const MAX_BODY = 1 << 20;

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const now = options.now ?? (() => new Date());
  const merchant = { rif: options.merchant?.rif ?? 'J123456789', cuenta: options.merchant?.cuenta ?? '01380000000000000001' };
  const ledger = new Ledger(options.defaultBalance ?? 1_000_000, now, options.accounts);
  const settleDelayMs = options.settleDelayMs === undefined ? 2_000 : options.settleDelayMs;
  const timers = new Set<NodeJS.Timeout>();
  const bank = new EmulatedBank(ledger, {
    merchant,
    otpTtlMs: options.otpTtlMs ?? 120_000,
    now,
    onPending: (order: Order) => {
      if (settleDelayMs === null) return;
      const delay = cents(order.monto) === SANDBOX_SLOW_CENTS ? (options.slowSettleDelayMs ?? 60_000) : settleDelayMs;
      const timer = setTimeout(() => {
        timers.delete(timer);
        ledger.settle(order);
      }, delay);
      timer.unref();
      timers.add(timer);
    },
  });

  const faults = {
    fail: [] as number[],
    delay: [] as number[],
    timeout: 0,
    reject: [] as string[],
    query: [] as { code: string; status: number | undefined }[],
  };
  // Per API key: the highest nonce accepted and those accepted within the window below it.
  const nonces = new Map<string, { highest: bigint; seen: Set<bigint> }>();
  const nonceWindow = options.nonceWindow ?? DEFAULT_NONCE_WINDOW;
  const perRef = new Map<string, number>();
  const lastByRoute = new Map<string, { path: string; query: Record<string, string>; body: Record<string, unknown> }>();
  let calls = 0;

  /** null when the call is authentic, else the bank's refusal code. */
  function authenticate(req: IncomingMessage, route: Route, path: string, raw: string): string | null {
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v.trim() : undefined;
    };
    const key = header(AUTH_HEADERS.apiKey);
    const nonce = header(AUTH_HEADERS.nonce);
    const signature = header(AUTH_HEADERS.signature);
    if (!key || !nonce || !signature || key !== options.credentials.apiKey) return '0401';
    if (!/^[0-9]{1,30}$/.test(nonce)) return '0402';
    // Clients differ on the body of a GET/DELETE: "" (documented) or "{}" (one older adapter).
    const bodies = raw === '' && req.method !== 'POST' ? ['', '{}'] : [raw];
    const signed = route
      .signPaths(path)
      .some((p) => bodies.some((b) => signatureMatches(options.credentials.apiSecret, p, nonce, b, signature)));
    if (!signed) return '0401';
    const n = BigInt(nonce);
    const k = nonces.get(key) ?? { highest: -1n, seen: new Set<bigint>() };
    nonces.set(key, k);
    // Refused: a nonce used before, or one further below the highest than the window [assumed].
    if (k.seen.has(n) || n <= k.highest - nonceWindow || (nonceWindow === 0n && n <= k.highest)) return '0402';
    k.seen.add(n);
    if (n > k.highest) {
      k.highest = n;
      if (k.seen.size > 10_000) for (const old of k.seen) if (old <= n - nonceWindow) k.seen.delete(old);
    }
    return null;
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): Promise<void> {
    calls += 1;
    const failStatus = faults.fail.shift();
    if (failStatus !== undefined)
      return void res.writeHead(failStatus, { 'content-type': 'text/plain', connection: 'close' }).end('Internal Server Error');
    const delay = faults.delay.shift();
    if (delay) await new Promise((r) => setTimeout(r, delay));
    const route = ROUTES.find((r) => r.method === req.method && r.pattern.test(url.pathname));
    const match = route?.pattern.exec(url.pathname);
    if (!route || !match) return void json(res, 404, { error: 'ruta no encontrada' });
    const refused = authenticate(req, route, url.pathname, raw);
    if (refused) return answer(res, refusal(refused));
    let body: Record<string, unknown> = {};
    if (raw.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        body = parsed as Record<string, unknown>;
      } catch {
        return answer(res, refusal('0030', 'cuerpo JSON'));
      }
    }
    const call: Call = { params: (match as RegExpExecArray).slice(1).map(decodeURIComponent), query: url.searchParams, body };
    lastByRoute.set(route.name, { path: url.pathname, query: Object.fromEntries(url.searchParams), body });
    if (route.money) {
      const ref = EmulatedBank.referenceOf(route.name, call);
      if (ref) perRef.set(ref, (perRef.get(ref) ?? 0) + 1);
      const code = faults.reject.shift();
      if (code) return answer(res, refusal(code));
    } else {
      const forced = faults.query.shift();
      if (forced) {
        const r = refusal(forced.code);
        return answer(res, forced.status === undefined ? r : { ...r, status: forced.status });
      }
    }
    const result = route.handle(bank, call);
    // The sandbox's unknown outcomes: an order the bank took, answered by a cut connection.
    const magicCut =
      route.money &&
      route.name !== 'tokenDI' &&
      typeof body.monto === 'number' &&
      SANDBOX_CUT_CENTS.has(cents(body.monto)) &&
      result.codigo === '0000';
    if (faults.timeout > 0 || magicCut) {
      if (!magicCut) faults.timeout -= 1;
      req.socket.destroy();
      return;
    }
    answer(res, result);
  }

  function answer(res: ServerResponse, a: StoredAnswer): void {
    const headers: Record<string, string> = {
      [RESULT_HEADERS.codigo]: a.codigo,
      [RESULT_HEADERS.descripcionCliente]: a.descripcionCliente,
      [RESULT_HEADERS.descripcionSistema]: a.descripcionSistema,
      [RESULT_HEADERS.fechaHora]: fechaHora(now()),
    };
    if (a.body) headers['content-type'] = 'application/json';
    // No kept-alive sockets: a client reusing one the emulator cut (refuseConnections) would read
    // a reset, not a refused connection, and the fault would not be deterministic.
    headers.connection = 'close';
    res.writeHead(a.status, headers).end(a.body ? JSON.stringify(a.body) : '');
  }

  const controls: EmulatorControls = {
    refuseConnections: async (on) => {
      if (on && server.listening) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      } else if (!on && !server.listening) {
        await listen(port);
      }
    },
    failNext: (n, status = 500) => faults.fail.push(...Array<number>(n).fill(status)),
    delayNext: (n, ms) => faults.delay.push(...Array<number>(n).fill(ms)),
    timeoutAfterAccept: (n) => {
      faults.timeout += n;
    },
    rejectNext: (n, code) => faults.reject.push(...Array<string>(n).fill(code)),
    answerQueriesNext: (n, code, status) => faults.query.push(...Array.from({ length: n }, () => ({ code, status }))),
    settleAll: () => ledger.pending().filter((o) => ledger.settle(o)).length,
    settle: (ref, outcome) => {
      const order =
        ledger.orders.get(ref) ?? ledger.byMerchantRef('cobroDI', ref) ?? ledger.byMerchantRef('pagoO', ref) ?? ledger.byEndToEnd(ref);
      return order ? ledger.settle(order, outcome) : false;
    },
    otpFor: (payer) => ledger.otps.get(payer)?.otp ?? null,
    orderCount: () => ledger.orders.size,
    callCount: () => calls,
    callsFor: (ref) => perRef.get(ref) ?? 0,
    lastRequest: (route) => lastByRoute.get(route) ?? null,
    reset: () => {
      faults.fail.length = 0;
      faults.delay.length = 0;
      faults.reject.length = 0;
      faults.query.length = 0;
      faults.timeout = 0;
    },
  };

  /** Test-only routes, so other processes can drive the emulator. Not authenticated: bind to loopback only. */
  async function control(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): Promise<void> {
    let b: Record<string, unknown> = {};
    try {
      b = raw.trim() ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return json(res, 400, { error: 'invalid JSON' });
    }
    const n = typeof b.n === 'number' && b.n > 0 ? Math.floor(b.n) : 1;
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case 'GET /__emulator/otp': {
        const payer = url.searchParams.get('telefono') ?? url.searchParams.get('cuenta') ?? '';
        const otp = controls.otpFor(payer);
        return otp ? json(res, 200, { otp }) : json(res, 404, { error: 'no OTP for that payer' });
      }
      case 'POST /__emulator/refuse': {
        const forMs = typeof b.forMs === 'number' ? b.forMs : null;
        json(res, 200, { ok: true });
        // Answer first: refusing cuts this very connection too.
        res.on('finish', () => {
          void controls.refuseConnections(b.on !== false).then(() => {
            if (b.on !== false && forMs !== null) setTimeout(() => void controls.refuseConnections(false), forMs).unref();
          });
        });
        return;
      }
      case 'POST /__emulator/fail':
        controls.failNext(n, typeof b.status === 'number' ? b.status : 500);
        return json(res, 200, { ok: true });
      case 'POST /__emulator/delay':
        controls.delayNext(n, typeof b.ms === 'number' ? b.ms : 1_000);
        return json(res, 200, { ok: true });
      case 'POST /__emulator/timeout':
        controls.timeoutAfterAccept(n);
        return json(res, 200, { ok: true });
      case 'POST /__emulator/reject':
        if (typeof b.code !== 'string') return json(res, 400, { error: 'code is required' });
        controls.rejectNext(n, b.code);
        return json(res, 200, { ok: true });
      case 'POST /__emulator/settle':
        if (typeof b.referencia === 'string')
          return json(res, 200, { settled: controls.settle(b.referencia, typeof b.outcome === 'string' ? b.outcome : undefined) ? 1 : 0 });
        return json(res, 200, { settled: controls.settleAll() });
      case 'POST /__emulator/reset':
        controls.reset();
        return json(res, 200, { ok: true });
      case 'GET /__emulator/calls':
        // Money calls per order reference (idExterno, referencia, referencia_c, ...): a count above 1
        // is one order sent twice, which the reliability drills count (docs/reliability.md).
        return json(res, 200, { byRef: Object.fromEntries(perRef) });
      case 'GET /__emulator/state':
        return json(res, 200, {
          calls,
          orders: [...ledger.orders.values()].map(({ answer: _a, reverso, ...o }) => ({ ...o, reversed: reverso !== null })),
          accounts: Object.fromEntries([...ledger.accounts.values()].map((a) => [a.numero, a.balance])),
        });
      default:
        return json(res, 404, { error: 'unknown emulator route' });
    }
  }

  const server = createServer((req, res) => {
    void readBody(req, MAX_BODY).then((raw) => {
      const url = new URL(req.url ?? '/', 'http://emulator');
      const handler = url.pathname.startsWith('/__emulator/') ? control : api;
      handler(req, res, url, raw).catch((error: unknown) => {
        if (!res.headersSent) json(res, 500, { error: error instanceof Error ? error.message : String(error) });
      });
    });
  });

  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(options.port ?? 0);
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    ledger,
    controls,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      if (!server.listening) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(body));
}

/** The bank's timestamp header, Venezuelan time with its offset. */
function fechaHora(at: Date): string {
  return `${new Date(at.getTime() - 4 * 3600_000).toISOString().slice(0, 19)}-04:00`;
}
