import type { FaultControls } from '@switch/connector-kit/emulator';
import type { Ledger, Order } from './ledger';

/** What a test can make the emulated bank do (in process, or over `/__emulator/…`). */
export interface EmulatorControls extends FaultControls {
  /** Settles a pending order (by locator, nroReferencia or endtoend) as planned or as told. */
  settle(ref: string, outcome?: { estatus: 'ACCP' | 'RJCT'; motivo?: string }): boolean;
  settleAll(): number;
  otpFor(q: { telefono?: string; cuenta?: string; id_solicitud?: string }): string | undefined;
  setApiKey(apiKey: string): void;
  /** Clears every pending fault. */
  reset(): void;
  /** Orders the bank took (each locator once), rejected ones included. */
  orderCount(): number;
  /** Requests that carried this locator (repeats and faulted ones included). */
  callsFor(locator: string): number;
  /** Every locator's call count. */
  callsByLocator(): Record<string, number>;
  /** Requests that reached the bank's port (control routes excluded). */
  requestCount(): number;
}

/**
 * `/__emulator/…`: the controls over HTTP, for tests that drive the emulator from another process.
 * Test-only, no authentication. `after` runs once the answer is written (closing the bank port from a
 * request on that same port must answer first).
 */
export interface ControlReply {
  status: number;
  body: unknown;
  after?: () => Promise<void>;
}

const ok = (body: Record<string, unknown> = {}): ControlReply => ({ status: 200, body: { ok: true, ...body } });
const bad = (error: string): ControlReply => ({ status: 400, body: { ok: false, error } });
const count = (v: unknown, fallback = 1): number | null =>
  v === undefined ? fallback : Number.isInteger(v) && (v as number) >= 0 ? (v as number) : null;

export async function controlRoutes(
  controls: EmulatorControls,
  ledger: Ledger,
  method: string,
  url: URL,
  text: string,
  viaBankPort: boolean,
): Promise<ControlReply> {
  const route = url.pathname.slice('/__emulator'.length);
  let body: Record<string, unknown> = {};
  if (method === 'POST' && text.trim() !== '') {
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return bad('body is not JSON');
    }
  }
  const n = count(body.n);
  if (method === 'GET') {
    switch (route) {
      case '/otp': {
        const q = Object.fromEntries(
          ['telefono', 'cuenta', 'id_solicitud'].flatMap((k) => (url.searchParams.get(k) ? [[k, url.searchParams.get(k)!]] : [])),
        );
        const grant = ledger.otpFor(q);
        return grant
          ? ok({ otp: grant.otp, id_solicitud: grant.idSolicitud, expira: new Date(grant.expiresAt).toISOString(), usado: grant.used })
          : { status: 404, body: { ok: false, error: 'no OTP sent to that instrument' } };
      }
      case '/orders':
        return ok({ orders: [...ledger.orders.values()].map(view) });
      case '/calls':
        // Order calls per locator (our orderRef), for the reliability drills (docs/reliability.md).
        return ok({ byRef: controls.callsByLocator() });
      case '/stats':
        return ok({ orders: controls.orderCount(), requests: controls.requestCount() });
    }
    if (route.startsWith('/orders/')) {
      const order = ledger.orders.get(decodeURIComponent(route.slice('/orders/'.length)));
      return order
        ? ok({ order: view(order), calls: controls.callsFor(order.locator) })
        : { status: 404, body: { ok: false, error: 'no such order' } };
    }
    if (route.startsWith('/accounts/')) {
      const id = decodeURIComponent(route.slice('/accounts/'.length));
      const a = ledger.accounts.get(id);
      return a
        ? ok({ id, disponible: a.disponibleCents / 100, contable: a.contableCents / 100, movimientos: a.movements.length })
        : { status: 404, body: { ok: false, error: 'no such account' } };
    }
    return { status: 404, body: { ok: false, error: 'no such control' } };
  }
  if (method !== 'POST') return { status: 405, body: { ok: false, error: 'use GET or POST' } };
  switch (route) {
    case '/refuse': {
      const on = body.on !== false;
      if (on && viaBankPort) return { ...ok({ refusing: true }), after: () => controls.refuseConnections(true) };
      await controls.refuseConnections(on);
      return ok({ refusing: on });
    }
    case '/fail':
      if (n === null) return bad('n must be a non-negative integer');
      controls.failNext(n, typeof body.status === 'number' ? body.status : 500);
      return ok();
    case '/delay':
      if (n === null || typeof body.ms !== 'number') return bad('n and ms are required');
      controls.delayNext(n, body.ms);
      return ok();
    case '/timeout-after-accept':
      if (n === null) return bad('n must be a non-negative integer');
      controls.timeoutAfterAccept(n);
      return ok();
    case '/reject':
      if (n === null || typeof body.code !== 'string') return bad('n and code are required');
      controls.rejectNext(n, body.code);
      return ok();
    case '/settle': {
      if (typeof body.ref !== 'string') return bad('ref is required');
      const estatus: 'ACCP' | 'RJCT' | undefined = body.estatus === 'ACCP' ? 'ACCP' : body.estatus === 'RJCT' ? 'RJCT' : undefined;
      const outcome = estatus ? { estatus, motivo: typeof body.motivo === 'string' ? body.motivo : undefined } : undefined;
      return ok({ settled: controls.settle(body.ref, outcome) });
    }
    case '/settle-all':
      return ok({ settled: controls.settleAll() });
    case '/api-key':
      if (typeof body.apiKey !== 'string') return bad('apiKey is required');
      controls.setApiKey(body.apiKey);
      return ok();
    case '/reset':
      controls.reset();
      return ok();
  }
  return { status: 404, body: { ok: false, error: 'no such control' } };
}

function view(o: Order) {
  return {
    locator: o.locator,
    kind: o.kind,
    estatus: o.estatus,
    motivo: o.motivo,
    nroReferencia: o.nroReferencia,
    endtoend: o.endtoend,
    monto: o.montoCents / 100,
    calls: o.calls,
  };
}
