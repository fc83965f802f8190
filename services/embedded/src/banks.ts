import { MODES, type BancoId, type Mode } from '@switch/core/contracts/bancos';
import { readSettings, setting, settings, type EnvSource } from '@switch/platform/config/env';
import { routingTable, RoutingSettings } from '@switch/platform/config/routing';
import { startConnectorService, type BankService } from '@switch/platform/runtime/bank-service';
import type { Bus } from '@switch/platform/ports/bus';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { RoutingTable } from '@switch/core/routing';
import type { Sealer } from '@switch/platform/runtime/secret-box';
import type { Store } from '@switch/platform/ports/store';
import { loadPlazaConfig, plazaService, type BancoPlazaConnector } from '@switch/bank-plaza';
import { bancaribeService, loadBancaribeConfig, type BancaribeConnector } from '@switch/bank-bancaribe';
import { activoService, loadActivoConfig, type ActivoConnector } from '@switch/bank-activo';
import { bncService, loadBncConfig, type BncConnector } from '@switch/bank-bnc';
// The emulators are dev-only entry points (not in the production image): types here, code loaded on demand.
import type { Emulator as PlazaEmulator } from '@switch/bank-plaza/emulator';
import type { Emulator as BancaribeEmulator } from '@switch/bank-bancaribe/emulator';
import type { Emulator as ActivoEmulator } from '@switch/bank-activo/emulator';
import type { Emulator as BncEmulator } from '@switch/bank-bnc/emulator';

/** The Bancaribe emulator's default merchant (its `DEFAULT_MERCHANT`), which the demo connector uses. */
const BANCARIBE_MERCHANT = {
  rif: 'J000012114',
  telefono: '04141000114',
  cuenta: '01140111122222233333',
  hash: '09A2D57E-C433-4581-97C2-6F6ADA944F27',
  nombre: 'Comercio de Pruebas',
} as const;

/**
 * The real bank connectors inside the embedded switch. A bank's service starts when its configuration
 * is in the environment (`PLAZA_TEST_URL`, `BANCARIBE_LIVE_URL`, … read by each bank's own loader).
 * Emulator mode (`SWITCH_EMULATORS=true`) starts the banks' emulators in this process on random
 * loopback ports with fixed demo credentials and points the connectors at them: Banco Plaza,
 * Bancaribe and Banco Activo in test mode, BNC in live mode (test-mode `bnc` stays the simulated bank).
 */

/** Test routing in emulator mode when `SWITCH_TEST_BANKS` is not set. */
export const EMULATOR_TEST_BANKS = 'bnc,banco_plaza,bancaribe,banco_activo';

/** Default settle delay of the emulators' pending orders (crédito/débito inmediato). */
export const EMULATOR_SETTLE_MS = 3_000;

/** Default settle delay of the sandbox's slow settlement (amounts ending in .83). */
export const EMULATOR_SLOW_SETTLE_MS = 60_000;

/**
 * The emulators' fixed demo credentials and merchant data. They are not secrets: the emulators listen
 * on 127.0.0.1 only and move no money.
 */
export const EMULATOR_DEMO = {
  banco_plaza: {
    apiKey: 'plaza-demo-key',
    apiSecret: 'plaza-demo-secret',
    rif: 'J123456789',
    account: '01380000000000000001',
    phone: '04140000138',
  },
  bancaribe: { consumerKey: 'bancaribe-demo-key', consumerSecret: 'bancaribe-demo-secret', ...BANCARIBE_MERCHANT },
  banco_activo: { apiKey: 'activo-demo-key', rif: 'J000000171', account: '01710001000000000001', phone: '04140000171' },
  bnc: {
    clientGuid: '4A074C46-DD4E-4E54-8010-B80A6A8758F4',
    masterKey: 'bnc-demo-master-key',
    clientId: 'J000121532',
    account: '01910001482101010049',
    terminal: 'SWITCH01',
  },
} as const;

export interface EmbeddedEmulators {
  banco_plaza: PlazaEmulator;
  bancaribe: BancaribeEmulator;
  banco_activo: ActivoEmulator;
  /** Behind the live `bnc` connector (test-mode `bnc` is the simulated bank). */
  bnc: BncEmulator;
}

export interface EmbeddedBanksOptions {
  /** Start the emulators and point the connectors at them; default `SWITCH_EMULATORS` (false). */
  emulators?: boolean;
  /** Settle delay of the emulators' pending orders; null = only through their controls. Default `SWITCH_EMULATOR_SETTLE_MS` or 3000 (negative = null). */
  emulatorSettleMs?: number | null;
  /** Settle delay of the sandbox's slow settlement (.83); default `SWITCH_EMULATOR_SLOW_SETTLE_MS` or 60000. */
  emulatorSlowSettleMs?: number;
  /**
   * Variables applied over the environment and over what emulator mode sets (tests: a wrong secret,
   * short timeouts, breaker thresholds).
   */
  env?: Record<string, string>;
}

export interface EmbeddedBanks {
  emulators: EmbeddedEmulators | null;
  services: {
    banco_plaza?: BankService<BancoPlazaConnector>;
    bancaribe?: BankService<BancaribeConnector>;
    banco_activo?: BankService<ActivoConnector>;
    bnc?: BankService<BncConnector>;
  };
  /** Per mode, the banks a real connector serves here (test-mode `bnc` is the simulated bank, not listed). */
  connected: Record<Mode, BancoId[]>;
  /** Where each emulator listens, for the banner. */
  emulatorUrls: Partial<Record<BancoId, string>>;
  stop(): Promise<void>;
}

/**
 * Whether the emulators' code is here: a development checkout has it, the production image does not
 * (its build deletes every `dist/emulator`), so `npm start` in the image runs without them.
 */
export function emulatorsInstalled(): boolean {
  try {
    for (const m of [
      '@switch/bank-plaza/emulator',
      '@switch/bank-bancaribe/emulator',
      '@switch/bank-activo/emulator',
      '@switch/bank-bnc/emulator',
    ])
      require.resolve(m);
    return true;
  } catch {
    return false;
  }
}

/** The in-process emulators (`npm start`). */
export const EmulatorSettings = settings(
  {
    enabled: setting.bool('SWITCH_EMULATORS', false, 'start the bank emulators in the process and point the connectors at them', {
      defaultText: '`true` for `npm start` where installed (a checkout, not the image)',
    }),
    settleMs: setting.int(
      'SWITCH_EMULATOR_SETTLE_MS',
      EMULATOR_SETTLE_MS,
      'how long their immediate credits/debits stay pending (negative: only through their controls)',
      { min: -1, max: 3_600_000 },
    ),
    slowSettleMs: setting.int(
      'SWITCH_EMULATOR_SLOW_SETTLE_MS',
      EMULATOR_SLOW_SETTLE_MS,
      "the sandbox's slow settlement (amounts ending in `.83`)",
      { min: 0, max: 3_600_000 },
    ),
  },
  'Emulated banks (embedded)',
);

/** Whether emulator mode is on for these options and environment. */
export function emulatorsEnabled(env: EnvSource, options: EmbeddedBanksOptions = {}): boolean {
  return options.emulators ?? readSettings(EmulatorSettings, env).enabled;
}

/** The routing of the embedded switch: `SWITCH_TEST_BANKS` / `SWITCH_LIVE_BANKS`, with the emulator default for test. */
export function embeddedRouting(env: EnvSource, emulators: boolean): RoutingTable {
  if (emulators && env.SWITCH_TEST_BANKS === undefined)
    return routingTable(readSettings(RoutingSettings, { ...env, SWITCH_TEST_BANKS: EMULATOR_TEST_BANKS }));
  return routingTable(readSettings(RoutingSettings, env));
}

export async function startEmbeddedBanks(deps: {
  bus: Bus;
  store: Store;
  /** Opens a cobrar's sealed OTP before a connector sends it. */
  secrets: Pick<Sealer, 'open'>;
  log: Logger;
  env: EnvSource;
  options?: EmbeddedBanksOptions;
}): Promise<EmbeddedBanks> {
  const options = deps.options ?? {};
  const started: { stop(): Promise<void> }[] = [];
  const stopAll = async () => {
    // Connectors first (no call is left half-sent to a closed emulator), then the emulators.
    for (const s of [...started].reverse())
      await s.stop().catch((e: unknown) => deps.log.warn({ err: e }, 'bank component did not stop cleanly'));
  };
  try {
    let emulators: EmbeddedEmulators | null = null;
    let overlay: Record<string, string> = {};
    if (emulatorsEnabled(deps.env, options)) {
      const settle = options.emulatorSettleMs !== undefined ? options.emulatorSettleMs : readSettings(EmulatorSettings, deps.env).settleMs;
      const settleMs = settle === null || settle < 0 ? null : settle;
      const slowMs = options.emulatorSlowSettleMs ?? readSettings(EmulatorSettings, deps.env).slowSettleMs;
      emulators = await startEmulators(settleMs, slowMs, started);
      overlay = emulatorEnv(emulators);
    }
    const env: EnvSource = { ...deps.env, ...overlay, ...options.env };
    const child = (service: string) => deps.log.child({ service });
    const services: EmbeddedBanks['services'] = {};

    const plaza = loadPlazaConfig(env);
    if (plaza.test || plaza.live) {
      const s = await startConnectorService(plazaService, {
        bus: deps.bus,
        store: deps.store,
        secrets: deps.secrets,
        log: child('bank-plaza'),
        config: plaza,
      });
      started.push(s);
      services.banco_plaza = s;
    }
    const bancaribe = loadBancaribeConfig(env);
    if (bancaribe.test || bancaribe.live) {
      const s = await startConnectorService(bancaribeService, {
        bus: deps.bus,
        store: deps.store,
        secrets: deps.secrets,
        log: child('bank-bancaribe'),
        config: bancaribe,
      });
      started.push(s);
      services.bancaribe = s;
    }
    const activo = loadActivoConfig(env);
    if (activo.test || activo.live) {
      const s = await startConnectorService(activoService, {
        bus: deps.bus,
        store: deps.store,
        secrets: deps.secrets,
        log: child('bank-activo'),
        config: activo,
      });
      started.push(s);
      services.banco_activo = s;
    }
    const bnc = loadBncConfig(env);
    if (bnc.live) {
      const s = await startConnectorService(bncService, {
        bus: deps.bus,
        store: deps.store,
        secrets: deps.secrets,
        log: child('bank-bnc'),
        config: bnc,
      });
      started.push(s);
      services.bnc = s;
    }

    const connected: Record<Mode, BancoId[]> = { test: [], live: [] };
    for (const [banco, service] of Object.entries(services) as [BancoId, { connectors: Partial<Record<Mode, unknown>> }][]) {
      for (const mode of MODES) if (service.connectors[mode]) connected[mode].push(banco);
    }
    const emulatorUrls: Partial<Record<BancoId, string>> = emulators
      ? {
          banco_plaza: emulators.banco_plaza.url,
          bancaribe: emulators.bancaribe.url,
          banco_activo: emulators.banco_activo.url,
          bnc: emulators.bnc.url,
        }
      : {};
    return { emulators, services, connected, emulatorUrls, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Banks routed in a mode that nothing here serves: their orders would wait on the bus for a connector. */
export function unservedBanks(routing: RoutingTable, banks: EmbeddedBanks): Record<Mode, BancoId[]> {
  const served = (mode: Mode, banco: BancoId) => banks.connected[mode].includes(banco) || (mode === 'test' && banco === 'bnc');
  return {
    test: routing.test.map((b) => b.banco).filter((b) => !served('test', b)),
    live: routing.live.map((b) => b.banco).filter((b) => !served('live', b)),
  };
}

async function startEmulators(
  settleDelayMs: number | null,
  slowSettleDelayMs: number,
  started: { stop(): Promise<void> }[],
): Promise<EmbeddedEmulators> {
  const demo = EMULATOR_DEMO;
  const [
    { startEmulator: startPlazaEmulator },
    { startEmulator: startBancaribeEmulator },
    { startEmulator: startActivoEmulator },
    { startEmulator: startBncEmulator },
  ] = await Promise.all([
    import('@switch/bank-plaza/emulator'),
    import('@switch/bank-bancaribe/emulator'),
    import('@switch/bank-activo/emulator'),
    import('@switch/bank-bnc/emulator'),
  ]);
  const track = <T extends { close(): Promise<void> }>(e: T): T => {
    started.push({ stop: () => e.close() });
    return e;
  };
  const plaza = track(
    await startPlazaEmulator({
      port: 0,
      credentials: { apiKey: demo.banco_plaza.apiKey, apiSecret: demo.banco_plaza.apiSecret },
      merchant: { rif: demo.banco_plaza.rif, cuenta: demo.banco_plaza.account },
      settleDelayMs,
      slowSettleDelayMs,
    }),
  );
  const bancaribe = track(
    await startBancaribeEmulator({
      port: 0,
      credentials: { consumerKey: demo.bancaribe.consumerKey, consumerSecret: demo.bancaribe.consumerSecret },
      // This emulator settles only through its controls when the delay is 0.
      settleDelayMs: settleDelayMs ?? 0,
      slowSettleDelayMs,
    }),
  );
  const activo = track(
    await startActivoEmulator({
      port: 0,
      credentials: { apiKey: demo.banco_activo.apiKey },
      merchantAccount: demo.banco_activo.account,
      settleDelayMs,
      slowSettleDelayMs,
    }),
  );
  const bnc = track(
    await startBncEmulator({
      port: 0,
      credentials: {
        clientGuid: demo.bnc.clientGuid,
        masterKey: demo.bnc.masterKey,
        clientId: demo.bnc.clientId,
        account: demo.bnc.account,
      },
      settleDelayMs,
    }),
  );
  return { banco_plaza: plaza, bancaribe, banco_activo: activo, bnc };
}

/** The connector variables that point each bank's connector at its emulator. */
function emulatorEnv(e: EmbeddedEmulators): Record<string, string> {
  const d = EMULATOR_DEMO;
  return {
    PLAZA_TEST_URL: e.banco_plaza.url,
    PLAZA_TEST_API_KEY: d.banco_plaza.apiKey,
    PLAZA_TEST_API_SECRET: d.banco_plaza.apiSecret,
    PLAZA_TEST_RIF: d.banco_plaza.rif,
    PLAZA_TEST_ACCOUNT: d.banco_plaza.account,
    PLAZA_TEST_PHONE: d.banco_plaza.phone,

    BANCARIBE_TEST_URL: e.bancaribe.url,
    BANCARIBE_TEST_CONSUMER_KEY: d.bancaribe.consumerKey,
    BANCARIBE_TEST_CONSUMER_SECRET: d.bancaribe.consumerSecret,
    BANCARIBE_TEST_MERCHANT_RIF: d.bancaribe.rif,
    BANCARIBE_TEST_MERCHANT_PHONE: d.bancaribe.telefono,
    BANCARIBE_TEST_MERCHANT_ACCOUNT: d.bancaribe.cuenta,
    BANCARIBE_TEST_MERCHANT_NAME: d.bancaribe.nombre,
    BANCARIBE_TEST_CLIENT_HASH: d.bancaribe.hash,

    ACTIVO_TEST_URL: e.banco_activo.url,
    ACTIVO_TEST_API_KEY: d.banco_activo.apiKey,
    ACTIVO_TEST_RIF: d.banco_activo.rif,
    ACTIVO_TEST_ACCOUNT: d.banco_activo.account,
    ACTIVO_TEST_PHONE: d.banco_activo.phone,

    BNC_LIVE_URL: e.bnc.url,
    BNC_LIVE_CLIENT_GUID: d.bnc.clientGuid,
    BNC_LIVE_MASTER_KEY: d.bnc.masterKey,
    BNC_LIVE_CLIENT_ID: d.bnc.clientId,
    BNC_LIVE_ACCOUNT: d.bnc.account,
    BNC_LIVE_TERMINAL: d.bnc.terminal,
  };
}
