import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, type FaultControls, type RunningEmulator } from '@switch/connector-kit/emulator';
import { extractCode } from '../src/codes';
import { telefonoBnc, venezuelanDate } from '../src/requests';
import { decryptValue, field, sealResponse, validationOf } from '../src/protocol';
import { FaultQueue } from './faults';
import { type EmulatedMerchant, Ledger, type LedgerOrder } from './ledger';
import { BncOperations, MONEY_PATHS, QUERY_PATHS, ko, type Reply } from './operations';

export interface EmulatorCredentials {
  clientGuid: string;
  masterKey: string;
  /** The merchant's RIF (`ClientID` of Position/*). */
  clientId: string;
  /** The merchant's 20-digit account: credited by collections, debited by payouts. */
  account: string;
}

export interface EmulatorOptions {
  /** 0 (default) = a random free port. */
  port?: number;
  host?: string;
  credentials: EmulatorCredentials;
  /** Delay before a SIMF order settles by itself; null/undefined = only through the controls. */
  settleDelayMs?: number | null;
  /** OTP validity (default 120 s, as the central bank's window). */
  otpTtlMs?: number;
  /** The bank's clock (WorkingKey day, OTP expiry, statement dates). */
  now?: () => Date;
  merchantBalance?: number;
  /**
   * Child merchants the ClientGUID acts for with `ChildClientID` (their RIF), each with its own
   * account and books; more can be added with `controls.addChild`. An unknown child → EPIMC2.
   */
  children?: EmulatedMerchant[];
  /** Whether the ClientGUID may act for child merchants at all (default true); false → EPIMC1 on any `ChildClientID`. */
  childPermission?: boolean;
  /** Opening balance of accounts and phones seen for the first time. */
  defaultBalance?: number;
  /**
   * Keep connections alive between requests (default false). Closed by default so that, once the
   * listener is closed, a client sees a refused connection rather than a pooled socket cut under it.
   */
  keepAlive?: boolean;
}

export interface EmulatorStats {
  calls: number;
  logons: number;
  /** Money requests refused because their Reference was already used that day (G94, never executed again). */
  duplicates: number;
  /** Requests refused before processing, by code (EPIRWK, EPIHV, EPIR02, EPICNF, EPIIMS). */
  refusals: Record<string, number>;
  byPath: Record<string, number>;
}

export interface EmulatorControls extends FaultControls {
  /** The next n requests get this HTTP status (default 500) and an error page; nothing runs. */
  failNext(n: number, status?: number, path?: string): void;
  /** The next n requests are answered after `ms`. */
  delayNext(n: number, ms: number, path?: string): void;
  /** The next n orders run and are recorded, then the answer never comes ('hang') or the socket is cut ('destroy'). */
  timeoutAfterAccept(n: number, mode?: 'hang' | 'destroy', path?: string): void;
  /** The next n orders are rejected with this bank code (G51, EPIONA, AM04…) and recorded. */
  rejectNext(n: number, code: string, path?: string): void;
  clearFaults(): void;
  /** Revokes every WorkingKey issued so far: the next call gets EPIRWK. */
  revokeWorkingKeys(): void;
  /** Registers a child merchant (RIF and account) under this ClientGUID; its account opens with `balance` (default the merchant balance). */
  addChild(child: EmulatedMerchant, balance?: number): void;
  settle(reference: string, outcome?: string): LedgerOrder | undefined;
  settleAll(): LedgerOrder[];
  /** The OTP "sent" for a Débito Inmediato token: by local phone (`0414…`), `58…` phone or account. */
  otpFor(instrument: string): string | null;
  /** Distinct orders taken (money requests recorded by their Reference). */
  orderCount(): number;
  /** Requests received carrying this envelope Reference. */
  callsFor(reference: string): number;
  stats(): EmulatorStats;
}

export interface Emulator extends RunningEmulator<Ledger, EmulatorControls> {
  port: number;
}

interface WorkingKey {
  key: string;
  day: string;
  revoked: boolean;
}

type Authenticated = { ok: true; key: string; inner: Record<string, unknown> } | { ok: false; reply: Reply; key: string | null };

const KNOWN_PATHS = ['Auth/LogOn', ...MONEY_PATHS, ...QUERY_PATHS];
/** The answer to a Reference already used that day [assumed code; the rejection itself is documented]. */
export const DUPLICATE_REFERENCE = 'G94';

const REFUSED_AT_THE_DOOR = new Set(['EPIIMS', 'EPIRWK', 'EPIHV', 'EPIR02', 'EPICNF', 'EPIONA', 'EPIMC1', 'EPIMC2']);

/**
 * BNC's ESolutions API as a test double (PROTOCOLS §1). It verifies what the bank verifies: the
 * ClientGUID, the key the Value is encrypted with (MasterKey for the logon, a current WorkingKey
 * otherwise: a stale or revoked one gets EPIRWK), the Validation hash (EPIHV) and the ClientGUID
 * inside against the one outside (EPIR02). It executes orders on its ledger and rejects a repeated
 * Reference of the day (PROTOCOLS §1.2: the bank uses it "to reject duplicates" [doc]) with
 * `G94` (the code is assumed: BNC's published duplicate code, from its VPOS list).
 */
export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const now = options.now ?? (() => new Date());
  const creds = options.credentials;
  const host = options.host ?? '127.0.0.1';
  const ledger = new Ledger({
    merchantAccount: creds.account,
    merchantBalance: options.merchantBalance ?? 10_000_000,
    defaultBalance: options.defaultBalance ?? 1_000_000,
  });
  for (const child of options.children ?? []) ledger.addChild(child);
  const ops = new BncOperations(ledger, {
    clientId: creds.clientId,
    ...(options.childPermission !== undefined ? { childPermission: options.childPermission } : {}),
    otpTtlMs: options.otpTtlMs ?? 120_000,
    settleDelayMs: options.settleDelayMs ?? null,
    now,
  });
  const faults = new FaultQueue();
  const keys: WorkingKey[] = [];
  const records = new Map<string, Reply>();
  const referenceCalls = new Map<string, number>();
  const stats: EmulatorStats = { calls: 0, logons: 0, duplicates: 0, refusals: {}, byPath: {} };
  const today = () => venezuelanDate(now());

  function authenticate(path: string, envelope: Record<string, unknown>): Authenticated {
    const guid = field(envelope, 'ClientGUID');
    const value = field(envelope, 'Value');
    const validation = field(envelope, 'Validation');
    const reference = field(envelope, 'Reference');
    if (
      typeof guid !== 'string' ||
      typeof value !== 'string' ||
      typeof validation !== 'string' ||
      typeof reference !== 'string' ||
      !/^[A-Za-z0-9]{1,50}$/.test(reference)
    ) {
      return { ok: false, key: null, reply: ko('EPIIMS') };
    }
    if (guid.toLowerCase() !== creds.clientGuid.toLowerCase()) return { ok: false, key: null, reply: ko('EPICNF') };
    const expected = validation.toLowerCase();
    const opens = (key: string): { plaintext: string; matches: boolean } | null => {
      try {
        const plaintext = decryptValue(value, key);
        return { plaintext, matches: validationOf(plaintext) === expected };
      } catch {
        return null;
      }
    };

    let key: string | null = null;
    let plaintext: string | null = null;
    if (path === 'Auth/LogOn') {
      const opened = opens(creds.masterKey);
      // [INV] the bank's answer to a logon sealed with the wrong MasterKey is not public: EPIHV.
      if (!opened?.matches) return { ok: false, key: null, reply: ko('EPIHV') };
      key = creds.masterKey;
      plaintext = opened.plaintext;
    } else {
      const current = keys.filter((k) => !k.revoked && k.day === today()).reverse();
      for (const k of current) {
        const opened = opens(k.key);
        if (opened?.matches) {
          key = k.key;
          plaintext = opened.plaintext;
          break;
        }
      }
      if (key === null) {
        // Sealed with a current key but the hash does not match: a tampered or mis-hashed request.
        const tampered = current.some((k) => {
          const opened = opens(k.key);
          if (!opened) return false;
          try {
            JSON.parse(opened.plaintext);
            return true;
          } catch {
            return false;
          }
        });
        if (tampered) return { ok: false, key: null, reply: ko('EPIHV') };
        // A key of an earlier day, a revoked one, or none we know: the bank asks for a new logon.
        return { ok: false, key: null, reply: ko('EPIRWK') };
      }
    }

    let inner: unknown;
    try {
      inner = JSON.parse(plaintext!);
    } catch {
      return { ok: false, key, reply: ko('EPIIMS') };
    }
    if (!inner || typeof inner !== 'object' || Array.isArray(inner)) return { ok: false, key, reply: ko('EPIIMS') };
    const innerGuid = (inner as Record<string, unknown>).ClientGUID;
    if (path === 'Auth/LogOn' && typeof innerGuid !== 'string') return { ok: false, key, reply: ko('EPIIMS') };
    if (innerGuid !== undefined && String(innerGuid).toLowerCase() !== guid.toLowerCase()) return { ok: false, key, reply: ko('EPIR02') };
    return { ok: true, key: key!, inner: inner as Record<string, unknown> };
  }

  function send(res: ServerResponse, reply: Reply, key: string | null): void {
    const body = JSON.stringify(sealResponse(reply.status, reply.message, reply.value, key));
    res.writeHead(reply.httpStatus ?? 200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  }

  async function api(req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<void> {
    const path = KNOWN_PATHS.find((p) => p.toLowerCase() === rawPath.toLowerCase());
    const body = await readBody(req);
    stats.calls++;
    if (!path || req.method !== 'POST')
      return void res.writeHead(path ? 405 : 404, { 'content-type': 'text/plain' }).end(path ? 'Method Not Allowed' : 'Not Found');
    stats.byPath[path] = (stats.byPath[path] ?? 0) + 1;

    let envelope: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(body);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      envelope = parsed as Record<string, unknown>;
    } catch {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          status: 'KO',
          message: 'EPIIMSEl modelo recibido no cumple con las validaciones',
          value: null,
          validation: null,
        }),
      );
    }
    const reference = field(envelope, 'Reference');
    if (typeof reference === 'string') referenceCalls.set(reference, (referenceCalls.get(reference) ?? 0) + 1);

    const fail = faults.take('fail', path);
    if (fail)
      return void res
        .writeHead(fail.status, { 'content-type': 'text/html' })
        .end(`<html><body><h1>${fail.status} - Internal Server Error</h1></body></html>`);
    const delay = faults.take('delay', path);
    if (delay) await new Promise((r) => setTimeout(r, delay.ms));

    const auth = authenticate(path, envelope);
    if (!auth.ok) {
      const code = extractCode(auth.reply.message) ?? 'KO';
      stats.refusals[code] = (stats.refusals[code] ?? 0) + 1;
      return send(res, auth.reply, auth.key);
    }
    if (field(envelope, 'swTestOperation') === true)
      return send(res, { status: 'OK', message: '000000Operación de prueba validada, no se procesó', value: null }, auth.key);

    if (path === 'Auth/LogOn') {
      stats.logons++;
      const workingKey = randomBytes(16).toString('hex');
      keys.push({ key: workingKey, day: today(), revoked: false });
      return send(res, { status: 'OK', message: '000000Se ha iniciado sesión exitosamente.', value: { WorkingKey: workingKey } }, auth.key);
    }

    const money = MONEY_PATHS.has(path);
    const recordKey = `${today()}|${reference as string}`;
    if (money && records.has(recordKey)) {
      // The Reference was taken today: refused, never run twice; the original is found by its status.
      stats.duplicates++;
      return send(res, ko(DUPLICATE_REFERENCE, 'Referencia duplicada'), auth.key);
    }
    const forced = money ? faults.take('reject', path) : null;
    const reply = forced
      ? ops.forcedRejection(path, forced.code, auth.inner, reference as string)
      : ops.handle(path, auth.inner, reference as string);
    // A request refused at the door (model, key, credentials) was not taken: its Reference may come back.
    if (money && !REFUSED_AT_THE_DOOR.has(extractCode(reply.message) ?? '')) records.set(recordKey, reply);

    const cut = money ? faults.take('timeout_after_accept', path) : null;
    if (cut) {
      if (cut.mode === 'destroy') req.socket.destroy();
      return; // 'hang': the order ran; the answer never comes
    }
    send(res, reply, auth.key);
  }

  function control(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const json = (status: number, body: unknown) =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    void readBody(req).then(async (text) => {
      let body: Record<string, unknown> = {};
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        return json(400, { error: 'body is not JSON' });
      }
      const n = Number(body.n ?? 1);
      const path = typeof body.path === 'string' ? body.path : undefined;
      const name = url.pathname.slice('/__emulator/'.length);
      switch (`${req.method} ${name}`) {
        case 'GET otp': {
          const instrument =
            url.searchParams.get('telefono') ?? url.searchParams.get('cuenta') ?? url.searchParams.get('instrumento') ?? '';
          const otp = controls.otpFor(instrument);
          return otp ? json(200, { otp }) : json(404, { error: 'no OTP issued for that instrument' });
        }
        case 'GET calls':
          // Money calls per envelope Reference, for the reliability drills (docs/reliability.md).
          return json(200, { byRef: Object.fromEntries(referenceCalls) });
        case 'GET state':
          return json(200, {
            orderCount: controls.orderCount(),
            stats,
            merchantBalance: ledger.balanceOf(ledger.merchantAccount),
            children: ledger.children.map((c) => ({ ...c, balance: ledger.balanceOf(c.account) })),
            orders: [...ledger.orders.values()],
          });
        case 'POST failNext':
          controls.failNext(n, Number(body.status ?? 500), path);
          return json(200, { ok: true });
        case 'POST delayNext':
          controls.delayNext(n, Number(body.ms ?? 1000), path);
          return json(200, { ok: true });
        case 'POST timeoutAfterAccept':
          controls.timeoutAfterAccept(n, body.mode === 'destroy' ? 'destroy' : 'hang', path);
          return json(200, { ok: true });
        case 'POST rejectNext':
          if (typeof body.code !== 'string') return json(400, { error: 'code is required' });
          controls.rejectNext(n, body.code, path);
          return json(200, { ok: true });
        case 'POST clearFaults':
          controls.clearFaults();
          return json(200, { ok: true });
        case 'POST revokeWorkingKeys':
          controls.revokeWorkingKeys();
          return json(200, { ok: true });
        case 'POST addChild':
          if (typeof body.clientId !== 'string' || !/^[VEJGP][0-9]{1,9}$/.test(body.clientId))
            return json(400, { error: 'clientId (a RIF like J123456789) is required' });
          if (typeof body.account !== 'string' || !/^[0-9]{20}$/.test(body.account))
            return json(400, { error: 'account (20 digits) is required' });
          controls.addChild(
            { clientId: body.clientId, account: body.account },
            body.balance === undefined ? undefined : Number(body.balance),
          );
          return json(200, { ok: true });
        case 'POST settleAll':
          return json(200, { settled: controls.settleAll().map((o) => ({ reference: o.reference, state: o.state, code: o.code })) });
        case 'POST settle': {
          if (typeof body.reference !== 'string') return json(400, { error: 'reference is required' });
          const o = controls.settle(body.reference, typeof body.outcome === 'string' ? body.outcome : undefined);
          return o ? json(200, { reference: o.reference, state: o.state, code: o.code }) : json(404, { error: 'no such order' });
        }
        case 'POST refuseConnections': {
          // Over HTTP the listener cannot be asked to come back, so refusal lasts `forMs`.
          const forMs = Number(body.forMs ?? 5000);
          json(200, { ok: true, forMs });
          res.once('finish', () => {
            void controls.refuseConnections(true).then(() => {
              refuseTimer = setTimeout(() => void controls.refuseConnections(false), forMs);
              refuseTimer.unref();
            });
          });
          return;
        }
        default:
          return json(404, { error: `unknown control ${req.method} ${name}` });
      }
    });
  }

  const server: Server = createServer((req, res) => {
    if (!options.keepAlive) res.setHeader('connection', 'close');
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (url.pathname.startsWith('/__emulator/')) return control(req, res, url);
    const m = /^\/api\/(.+)$/.exec(url.pathname);
    if (!m) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    api(req, res, m[1]!).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('emulator failure');
    });
  });

  let listening = false;
  let refuseTimer: NodeJS.Timeout | null = null;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        listening = true;
        resolve((server.address() as AddressInfo).port);
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
      server.closeAllConnections();
    });

  const port = await listen(options.port ?? 0);

  const controls: EmulatorControls = {
    async refuseConnections(on) {
      if (on) await stopListening();
      else if (!listening) await listen(port);
    },
    failNext: (n, status = 500, path) => faults.arm({ kind: 'fail', status }, n, path),
    delayNext: (n, ms, path) => faults.arm({ kind: 'delay', ms }, n, path),
    timeoutAfterAccept: (n, mode = 'hang', path) => faults.arm({ kind: 'timeout_after_accept', mode }, n, path),
    rejectNext: (n, code, path) => faults.arm({ kind: 'reject', code }, n, path),
    clearFaults: () => faults.clear(),
    revokeWorkingKeys: () => {
      for (const k of keys) k.revoked = true;
    },
    addChild: (child, balance) => ledger.addChild(child, balance),
    settle: (reference, outcome) => ops.settle(reference, outcome),
    settleAll: () => ops.settleAll(),
    otpFor(instrument) {
      const id = /^0[0-9]{10}$/.test(instrument) ? telefonoBnc(instrument) : instrument;
      const issued = ops.otps.get(id);
      return issued && issued.expiresAt > now().getTime() ? issued.otp : null;
    },
    orderCount: () => records.size,
    callsFor: (reference) => referenceCalls.get(reference) ?? 0,
    stats: () => structuredClone(stats),
  };

  return {
    url: `http://${host}:${port}/api`,
    port,
    ledger,
    controls,
    async close() {
      if (refuseTimer) clearTimeout(refuseTimer);
      ops.close();
      await stopListening();
    },
  };
}
