import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { centsOf, FaultPlan, readBody, SANDBOX_CUT_CENTS, SANDBOX_SLOW_CENTS, type RunningEmulator } from '@switch/connector-kit/emulator';
import { ActivoBank, isOrderService, SERVICE_OF_PATH, type Fields, type Reply } from './bank';
import type { Ledger, Order } from './ledger';
import { controlRoutes, type EmulatorControls } from './controls';

/**
 * Banco Activo's merchant API as a test double: a real HTTP server on 127.0.0.1 that authenticates
 * like its WSO2 gateway (`apikey` header), runs the services of emulator/bank.ts over a ledger,
 * settles immediate debits and credits asynchronously, and misbehaves on demand (`controls`, or the
 * same over `/__emulator/…`). See emulator/README.md.
 */

export interface EmulatorOptions {
  /** Bank port; 0 (default) picks a free one. */
  port?: number;
  /** Port of the control listener (`/__emulator/…` only), which stays up while the bank refuses connections. */
  controlPort?: number;
  host?: string;
  credentials: { apiKey: string };
  /** The merchant's account behind the key: credited by collections, debited by payouts. */
  merchantAccount?: string;
  /** Pending débito/crédito inmediato settle after this long; null: only `settle`/`settleAll` settle them. */
  settleDelayMs?: number | null;
  /** Delay of a pending order whose amount ends in .83 (the sandbox's slow settlement); default 60 s. */
  slowSettleDelayMs?: number;
  otpTtlMs?: number;
  /** Opening balance (VES) of an account or phone first seen. */
  defaultBalance?: number;
  /** Opening balances (VES) by account number or phone (58 + 10 digits). */
  accounts?: Record<string, number>;
  now?: () => Date;
}

export interface Emulator extends RunningEmulator<Ledger, EmulatorControls> {
  controlUrl: string;
}

/** WSO2's fault bodies [inf]. */
const FAULTS = {
  missing: {
    status: 401,
    body: {
      fault: {
        code: 900902,
        message: 'Missing Credentials',
        description: "Invalid Credentials. Make sure your API invocation call has a header: 'apikey : API_KEY'",
      },
    },
  },
  invalid: {
    status: 401,
    body: {
      fault: {
        code: 900901,
        message: 'Invalid Credentials',
        description: 'Invalid Credentials. Make sure you have provided the correct security credentials',
      },
    },
  },
  noResource: {
    status: 404,
    body: {
      fault: {
        code: 900906,
        message: 'No matching resource found in the API for the given request',
        description: 'Access failure for API',
      },
    },
  },
  backendDown: {
    status: 503,
    body: { fault: { code: 101503, message: 'Runtime Error', description: 'Error connecting to the back end' } },
  },
} as const;

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? (() => new Date());
  const settleDelayMs = options.settleDelayMs === undefined ? 1_500 : options.settleDelayMs;
  let apiKey = options.credentials.apiKey;
  const faults = new FaultPlan();
  let requests = 0;
  const calls = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  const bank = new ActivoBank({
    merchantAccount: options.merchantAccount ?? '01710001000000000001',
    defaultBalanceCents: Math.round((options.defaultBalance ?? 1_000_000) * 100),
    otpTtlMs: options.otpTtlMs ?? 120_000,
    now,
    seed: options.accounts,
    onPending: (order: Order) => {
      const delay = centsOf(order.montoCents) === SANDBOX_SLOW_CENTS ? (options.slowSettleDelayMs ?? 60_000) : settleDelayMs;
      if (settleDelayMs !== null && delay !== null)
        later(delay, () => bank.ledger.settle(order, order.planned.estatus, order.planned.motivo));
    },
  });
  const ledger = bank.ledger;

  const controls: EmulatorControls = {
    refuseConnections: (on) => (on ? closeBank() : openBank()),
    failNext: (n, status) => faults.failNext(n, status),
    delayNext: (n, ms) => faults.delayNext(n, ms),
    timeoutAfterAccept: (n) => faults.timeoutAfterAccept(n),
    rejectNext: (n, code) => faults.rejectNext(n, code),
    settle: (ref, outcome) => {
      const order = ledger.find({ locator: ref }) ?? ledger.find({ nroReferencia: ref }) ?? ledger.find({ endtoend: ref });
      if (!order) return false;
      const o = outcome ?? order.planned;
      return ledger.settle(order, o.estatus, o.motivo ?? null);
    },
    settleAll: () => [...ledger.orders.values()].filter((o) => ledger.settle(o, o.planned.estatus, o.planned.motivo)).length,
    otpFor: (q) => ledger.otpFor(q)?.otp,
    setApiKey: (key) => {
      apiKey = key;
    },
    reset: () => faults.reset(),
    orderCount: () => ledger.orders.size,
    callsFor: (locator) => calls.get(locator) ?? 0,
    callsByLocator: () => Object.fromEntries(calls),
    requestCount: () => requests,
  };

  /** One bank request, end to end: gateway checks, faults, the service, the answer. */
  async function handleBank(req: IncomingMessage, res: ServerResponse, path: string, text: string): Promise<void> {
    requests++;
    const service = SERVICE_OF_PATH[path];
    if (!service || req.method !== 'POST') return send(res, FAULTS.noResource);
    const key = req.headers.apikey;
    if (key === undefined || key === '') return send(res, FAULTS.missing);
    if (key !== apiKey) return send(res, FAULTS.invalid);
    let fields: Fields;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      fields = parsed as Fields;
    } catch {
      return send(res, { status: 400, body: { code: '400', descripcion: 'JSON inválido' } });
    }
    const locator = typeof fields.locator === 'string' ? fields.locator : undefined;
    if (locator && isOrderService(service)) calls.set(locator, (calls.get(locator) ?? 0) + 1);
    const cents = typeof fields.monto === 'string' ? fields.monto.slice(-2) : '';

    const failure = faults.takeFailure();
    if (failure !== undefined) return sendText(res, failure, '<html><body><h1>Internal Server Error</h1></body></html>');
    if (isOrderService(service) && cents === '72') return sendText(res, 500, '<html><body><h1>Internal Server Error</h1></body></html>');
    if (isOrderService(service) && cents === '73') return send(res, FAULTS.backendDown);

    let reply: Reply;
    let executedNow = false;
    const invalid = bank.validate(service, fields);
    if (invalid) reply = invalid;
    else if (isOrderService(service)) {
      const first = bank.replay(fields);
      if (first) reply = first;
      else {
        executedNow = true;
        const refusal = faults.takeRejection();
        reply = refusal !== undefined ? bank.reject(service, fields, refusal) : bank.execute(service, fields);
      }
    } else reply = service === 'operacion' ? bank.operacion(fields) : service === 'saldo' ? bank.saldo(fields) : bank.movimientos(fields);

    // The sandbox's unknown outcomes: an order the bank took, answered by a cut connection.
    const magicCut = executedNow && service !== 'otp' && SANDBOX_CUT_CENTS.has(cents) && reply.status === 200 && reply.body.code === '200';
    if (faults.takeCut() || (executedNow && cents === '71') || magicCut) {
      req.socket.destroy();
      return;
    }
    const delay = faults.takeDelay();
    if (delay !== undefined) {
      later(delay, () => send(res, reply));
      return;
    }
    send(res, reply);
  }

  const onRequest = (bankPort: boolean) => (req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then((text) => {
      const url = new URL(req.url ?? '/', 'http://emulator');
      const work = url.pathname.startsWith('/__emulator/')
        ? controlRoutes(controls, ledger, req.method ?? 'GET', url, text, bankPort).then((r) => {
            send(res, r);
            return r.after?.();
          })
        : bankPort
          ? handleBank(req, res, url.pathname, text)
          : Promise.resolve(send(res, FAULTS.noResource));
      work.catch((error: unknown) => sendText(res, 500, `emulator failure: ${error instanceof Error ? error.message : String(error)}`));
    });
  };

  // The bank listener can be closed and reopened on the same port (refuseConnections).
  const sockets = new Set<Socket>();
  let bankServer: Server | null = null;
  let port = options.port ?? 0;
  async function openBank(): Promise<void> {
    if (bankServer) return;
    const server = createServer(onRequest(true));
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await listen(server, port, host);
    port = (server.address() as { port: number }).port;
    bankServer = server;
  }
  async function closeBank(): Promise<void> {
    const server = bankServer;
    if (!server) return;
    bankServer = null;
    const closed = new Promise<void>((r) => server.close(() => r()));
    // Kept-alive connections would still reach the bank: cut them so every connect is refused.
    for (const s of sockets) s.destroy();
    await closed;
  }

  await openBank();
  const controlServer = createServer(onRequest(false));
  await listen(controlServer, options.controlPort ?? 0, host);
  const controlPort = (controlServer.address() as { port: number }).port;

  return {
    url: `http://${host}:${port}`,
    controlUrl: `http://${host}:${controlPort}`,
    ledger,
    controls,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await closeBank();
      await new Promise<void>((r) => {
        controlServer.close(() => r());
        controlServer.closeAllConnections();
      });
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Every answer closes its connection: with no idle kept-alive sockets, a client that calls while the
 * bank refuses connections is refused at connect, deterministically (not cut on a stale socket).
 */
function send(res: ServerResponse, reply: { status: number; body: unknown }): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(reply.status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(reply.body));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'text/html', connection: 'close' });
  res.end(text);
}
