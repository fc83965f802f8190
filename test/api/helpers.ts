import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createLogger, type Logger } from '@switch/platform/telemetry/logger';
import { TOPICS } from '@switch/core/contracts/topics';
import type { RoutingTable } from '@switch/core/routing';
import type { Store } from '@switch/platform/ports/store';
import type { GatewayConfig } from '@switch/gateway';
import { seedDemoMerchant, startEmbeddedSwitch, type EmbeddedSwitch } from '@switch/embedded';

export const CUENTA_ORDENANTE = '01910000000000000001';

export const cuenta = (over: Record<string, unknown> = {}) => ({
  tipo: 'cuenta',
  valor: CUENTA_ORDENANTE,
  banco: '0191',
  identificacion: 'J123456789',
  nombre: 'Comercio de Prueba',
  ...over,
});
export const telefono = (over: Record<string, unknown> = {}) => ({
  tipo: 'telefono',
  valor: '04141234567',
  banco: '0102',
  identificacion: 'V12345678',
  nombre: 'Ana Pérez',
  ...over,
});

export const pagarBody = (over: Record<string, unknown> = {}) => ({
  idempotency_key: randomUUID(),
  monto: { valor: 125.5, moneda: 'VES' },
  concepto: 'Pago a proveedor',
  canal: 'api',
  ordenante: cuenta(),
  beneficiario: telefono(),
  proposito: 'proveedor',
  via: 'pago_movil',
  ...over,
});

export const tokenBody = (over: Record<string, unknown> = {}) => ({
  idempotency_key: randomUUID(),
  monto: { valor: 42, moneda: 'VES' },
  concepto: 'Pedido 1001',
  canal: 'web',
  cobrador: cuenta(),
  pagador: telefono(),
  ...over,
});

export const cobrarBody = (over: Record<string, unknown> = {}) => ({ ...tokenBody(), otp: '12345678', ...over });

/** What a request can leave behind: transactions, idempotency claims, bank orders, execute commands. */
export interface Footprint {
  transactions: number;
  claims: number;
  bankOrders: number;
  executes: number;
}

export interface TestSwitch {
  sw: EmbeddedSwitch;
  /** `demo` merchant's test key. */
  key: string;
  merchantId: string;
  /** A request to the merchant port. */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** A request to the operator port (/metrics, /healthz, /readyz, /admin/v1). */
  operator(options: InjectOptions): Promise<LightMyRequestResponse>;
  post(url: string, payload: unknown, key?: string | null): Promise<LightMyRequestResponse>;
  get(url: string, key?: string | null): Promise<LightMyRequestResponse>;
  footprint(): Footprint;
  /** Lets the bus finish whatever is queued, then asserts the footprint is what it was: nothing left behind. */
  expectNothingSince(before: Footprint): Promise<void>;
  /** Waits until the bus has nothing queued (a pass of drained() that changes no count). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestSwitch(
  /** `store`: a MemoryStore (footprint() reads its maps), e.g. one with a pause at a chosen call. */
  options: { config?: Partial<GatewayConfig>; routing?: RoutingTable; log?: Logger; store?: Store } = {},
): Promise<TestSwitch> {
  const sw = await startEmbeddedSwitch({
    log: options.log ?? createLogger('test', 'silent'),
    // Suites send hundreds of refused requests from one address on purpose: the failure budget is out
    // of their way unless a test sets it (test/api/edge.test.ts does).
    config: { failureLimitPerIpPerMinute: 1_000_000, ...options.config },
    // The background poller stays out of the way: here settlement is seen through /consultar only,
    // so every state a test reads is the consequence of its own requests.
    reconciler: { intervalMs: 3_600_000 },
    ...(options.routing ? { routing: options.routing } : {}),
    ...(options.store ? { store: options.store } : {}),
  });
  const { switchKey, merchantId } = await seedDemoMerchant(sw.store);

  // The store's own maps hold every transaction and claim; read-only access for counting.
  const rows = sw.store as unknown as { txRows?: Map<string, unknown>; claimRows?: Map<string, unknown> };
  if (!(rows.txRows instanceof Map) || !(rows.claimRows instanceof Map)) throw new Error('MemoryStore layout changed: update footprint()');
  // Every transaction is created by an execute command on the router inbox: count them too.
  let executes = 0;
  await sw.bus.subscribe(TOPICS.routerInbox, { group: 'test-probe' }, async ({ value }) => {
    if (value.type === 'execute') executes++;
  });

  const inject = (o: InjectOptions) => sw.gateway.app.inject(o);
  const operator = (o: InjectOptions) => sw.gateway.operator.inject(o);
  const headers = (k: string | null | undefined) => (k === null ? {} : { 'x-switch-key': k ?? switchKey });
  const footprint = (): Footprint => ({
    transactions: rows.txRows!.size,
    claims: rows.claimRows!.size,
    bankOrders: sw.bank.executedOrders,
    executes,
  });
  const settle = async () => {
    for (;;) {
      const seen = JSON.stringify(footprint());
      await sw.bus.drained();
      if (JSON.stringify(footprint()) === seen) return;
    }
  };
  return {
    sw,
    key: switchKey,
    merchantId,
    inject,
    operator,
    post: (url, payload, k) => inject({ method: 'POST', url, payload: payload as InjectOptions['payload'], headers: headers(k) }),
    get: (url, k) => inject({ method: 'GET', url, headers: headers(k) }),
    footprint,
    settle,
    expectNothingSince: async (before) => {
      await settle();
      expect(footprint()).toEqual(before);
    },
    close: () => sw.close(),
  };
}

/** The Venezuelan calendar day (UTC-4), the one bank statements use. */
export function venezuelanDay(offsetDays = 0): string {
  return new Date(Date.now() - 4 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
}
