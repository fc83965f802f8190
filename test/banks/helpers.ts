import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createLogger } from '@switch/platform/telemetry/logger';
import type { RoutingTable } from '@switch/core/routing';
import { seedDemoMerchant, startEmbeddedSwitch, type EmbeddedEmulators, type EmbeddedSwitch } from '@switch/embedded';

type SwitchOptions = Parameters<typeof startEmbeddedSwitch>[0];

/** The banks with an emulator in test mode, their central-bank code and a demo account there. */
export const EMULATED = ['banco_plaza', 'bancaribe', 'banco_activo'] as const;
export type Emulated = (typeof EMULATED)[number];
export const CODE: Record<Emulated, string> = { banco_plaza: '0138', bancaribe: '0114', banco_activo: '0171' };

/** A 20-digit account of the given bank (`n` distinguishes accounts). */
export const cuentaDe = (banco: string, n = 1) => `${banco}${String(n).padStart(16, '0')}`;

export const ordenante = (banco = '0191') => ({
  tipo: 'cuenta',
  valor: cuentaDe(banco),
  banco,
  identificacion: 'J123456789',
  nombre: 'Comercio de Prueba',
});
export const telefonoPagador = '04141234567';
export const telefono = (valor = telefonoPagador) => ({
  tipo: 'telefono',
  valor,
  banco: '0102',
  identificacion: 'V12345678',
  nombre: 'Ana Pérez',
});
export const cuentaBeneficiario = () => ({
  tipo: 'cuenta',
  valor: cuentaDe('0102', 2),
  banco: '0102',
  identificacion: 'V12345678',
  nombre: 'Ana Pérez',
});

export const pagar = (over: Record<string, unknown> = {}) => ({
  idempotency_key: randomUUID(),
  monto: { valor: 125.5, moneda: 'VES' },
  concepto: 'Pago a proveedor',
  canal: 'api',
  ordenante: ordenante(),
  beneficiario: telefono(),
  proposito: 'proveedor',
  via: 'pago_movil',
  ...over,
});

export const token = (over: Record<string, unknown> = {}) => ({
  idempotency_key: randomUUID(),
  monto: { valor: 42, moneda: 'VES' },
  concepto: 'Pedido 1001',
  canal: 'web',
  cobrador: ordenante(),
  pagador: telefono(),
  ...over,
});

/** Requests and orders each bank saw: the evidence that a bank was (or was not) called. */
export interface BankCounts {
  requests: number;
  orders: number;
}

export interface BankSwitch {
  sw: EmbeddedSwitch;
  emu: EmbeddedEmulators;
  key: string;
  merchantId: string;
  post(url: string, payload: unknown): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  /** Per bank (the simulated `bnc` included): requests received and orders taken so far. */
  counts(): Record<Emulated | 'bnc', BankCounts>;
  close(): Promise<void>;
}

/**
 * The embedded switch in emulator mode: every service in one process, the Plaza, Bancaribe and Activo
 * emulators on loopback behind their real connectors (test mode), `bnc` the simulated bank. Pending
 * orders settle only through the emulators' controls and the background reconciler stays out of the
 * way, so every state a test reads follows from its own requests.
 */
export async function startBankSwitch(
  options: {
    routing?: RoutingTable;
    /** Connector variables over the emulator ones (a wrong secret, breaker thresholds). */
    env?: Record<string, string>;
    notifier?: SwitchOptions['notifier'];
    reconciler?: SwitchOptions['reconciler'];
    policy?: SwitchOptions['policy'];
  } = {},
): Promise<BankSwitch> {
  const sw = await startEmbeddedSwitch({
    log: createLogger('test', 'silent'),
    // Nothing from the surrounding environment: the test says everything.
    env: {},
    banks: {
      emulators: true,
      emulatorSettleMs: null,
      env: {
        // Breakers stay closed unless a test means to open one (each fault test would otherwise count).
        PLAZA_BREAKER_VOLUME: '10000',
        BANCARIBE_BREAKER_VOLUME: '10000',
        ACTIVO_BREAKER_VOLUME: '10000',
        PLAZA_TIMEOUT_MS: '20000',
        BANCARIBE_TEST_TIMEOUT_MS: '20000',
        ACTIVO_TIMEOUT_MS: '20000',
        ...options.env,
      },
    },
    reconciler: { intervalMs: 3_600_000, ...options.reconciler },
    ...(options.notifier ? { notifier: options.notifier } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.routing ? { routing: options.routing } : {}),
  });
  if (!sw.emulators) throw new Error('emulator mode did not start the emulators');
  const emu = sw.emulators;
  const { switchKey, merchantId } = await seedDemoMerchant(sw.store);
  const inject = (o: InjectOptions) => sw.gateway.app.inject(o);
  return {
    sw,
    emu,
    key: switchKey,
    merchantId,
    post: (url, payload) =>
      inject({ method: 'POST', url, payload: payload as InjectOptions['payload'], headers: { 'x-switch-key': switchKey } }),
    get: (url) => inject({ method: 'GET', url, headers: { 'x-switch-key': switchKey } }),
    counts: () => ({
      banco_plaza: { requests: emu.banco_plaza.controls.callCount(), orders: emu.banco_plaza.controls.orderCount() },
      bancaribe: { requests: emu.bancaribe.controls.requestCount(), orders: emu.bancaribe.controls.orderCount() },
      banco_activo: { requests: emu.banco_activo.controls.requestCount(), orders: emu.banco_activo.controls.orderCount() },
      bnc: { requests: sw.bank.executedOrders, orders: sw.bank.executedOrders },
    }),
    close: () => sw.close(),
  };
}

/** The counts of every bank but `except`, to check that they did not move. */
export function othersThan(counts: Record<string, BankCounts>, except: string): Record<string, BankCounts> {
  return Object.fromEntries(Object.entries(counts).filter(([b]) => b !== except));
}

/** The OTP (or C2P key) the payer's bank sent to `telefono`, read from that bank's emulator test route. */
export function otpFrom(emu: EmbeddedEmulators, banco: Emulated, phone = telefonoPagador): string {
  switch (banco) {
    case 'banco_plaza': {
      const otp = emu.banco_plaza.controls.otpFor(phone);
      if (!otp) throw new Error(`no OTP sent to ${phone} by banco_plaza`);
      return otp;
    }
    case 'banco_activo': {
      const otp = emu.banco_activo.controls.otpFor({ telefono: phone });
      if (!otp) throw new Error(`no OTP sent to ${phone} by banco_activo`);
      return otp;
    }
    case 'bancaribe':
      // No token step at Bancaribe: the payer's own bank issues the C2P key.
      return emu.bancaribe.controls.issueC2pKey(phone);
  }
}

/** Settles every pending order at the emulator of `banco` as planned; returns how many. */
export function settleAt(emu: EmbeddedEmulators, banco: Emulated): number {
  switch (banco) {
    case 'banco_plaza':
      return emu.banco_plaza.controls.settleAll();
    case 'bancaribe':
      return emu.bancaribe.controls.settleAll();
    case 'banco_activo':
      return emu.banco_activo.controls.settleAll();
  }
}
