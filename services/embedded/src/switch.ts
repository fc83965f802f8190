import { corePolicy, CorePolicySettings } from '@switch/platform/config/core-policy';
import { DestinationSettings, destinationPolicy } from '@switch/platform/config/webhooks';
import { environmentSnapshot, readSettings, settings, type EnvSource } from '@switch/platform/config/env';
import { instanceId, InstanceSettings } from '@switch/platform/config/instance';
import { riskPolicy, RiskSettings } from '@switch/platform/config/risk';
import { SANDBOX_BANKS } from '@switch/core/sandbox';
import { SecretsSettings, secretBox } from '@switch/platform/config/infra';
import type { SecretBox } from '@switch/platform/runtime/secret-box';
import type { CorePolicy } from '@switch/core/transaction-core';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { RoutingTable } from '@switch/core/routing';
import type { Store } from '@switch/platform/ports/store';
import { buildGateway, loadGatewayConfig, type Gateway, type GatewayConfig } from '@switch/gateway';
import { PanelSettings, loadPanelConfig, panelPlugin, startOverviewFold, type PanelConfig } from '@switch/panel';
import { startRouter } from '@switch/router';
import { startSimulatedBank, type SimulatedBank } from '@switch/bank-sim';
import { loadReconcilerConfig, startReconciler, type ReconcilerHandle, type ReconcilerServiceConfig } from '@switch/reconciler';
import { loadNotifierConfig, startNotifier, type NotifierConfig, type NotifierHandle } from '@switch/notifier';
import type { MatcherLoop } from '@switch/usecases/expected-matcher';
import {
  embeddedRouting,
  emulatorsEnabled,
  startEmbeddedBanks,
  type EmbeddedBanks,
  type EmbeddedBanksOptions,
  type EmbeddedEmulators,
} from './banks';

export interface EmbeddedSwitch {
  gateway: Gateway;
  /** The gateway's configuration (merchant and operator listeners). */
  config: GatewayConfig;
  bus: MemoryBus;
  store: Store;
  bank: SimulatedBank;
  /** The secrets key every service here shares (the environment's, or an ephemeral one). */
  secrets: SecretBox;
  routing: RoutingTable;
  notifier: NotifierHandle;
  reconciler: ReconcilerHandle;
  /** The gateway's background matcher of expected payments. */
  expected: MatcherLoop;
  /** The real bank connectors started here (from the environment or emulator mode). */
  banks: EmbeddedBanks;
  /** The in-process bank emulators in emulator mode (`SWITCH_EMULATORS=true`), else null. */
  emulators: EmbeddedEmulators | null;
  /**
   * The ports this process listens on, never a webhook destination (shared by the notifier, the
   * gateway and the panel): whoever opens a listener after start (`npm start`'s merchant and operator
   * ports) adds its port here.
   */
  ownPorts: Set<number>;
  close(): Promise<void>;
}

/** What the embedded switch reads itself; each service's own configuration is read by its loader. */
export const EmbeddedSwitchSettings = settings({
  destinations: DestinationSettings,
  instance: InstanceSettings,
  secrets: SecretsSettings,
  risk: RiskSettings,
  policy: CorePolicySettings,
  panel: settings({ publicUrl: PanelSettings.properties.publicUrl }),
});

/**
 * Every service in one process on the in-process bus and in-memory store: the embedded default
 * (`npm start`) and the harness of the API tests. The services talk only through the bus, exactly
 * as they do when each runs as its own process.
 */
export async function startEmbeddedSwitch(options: {
  log: Logger;
  /** Where every service's configuration is read from (default: the process environment, read once here). */
  env?: EnvSource;
  config?: Partial<GatewayConfig>;
  routing?: RoutingTable;
  notifier?: Partial<NotifierConfig>;
  reconciler?: Partial<ReconcilerServiceConfig>;
  /** The transaction core's deadlines and backoff (default: from the environment). */
  policy?: Partial<CorePolicy>;
  /** Real bank connectors and emulator mode (default: from the environment). */
  banks?: EmbeddedBanksOptions;
  /** Another store for every service (default: a new in-memory one); closed with the switch. */
  store?: Store;
  /** The merchant panel at /panel on the merchant port (default: from the environment). */
  panel?: Partial<PanelConfig>;
  /** The router's outbox relay rounds (default: every second, 10 s grace). */
  router?: { relayIntervalMs?: number; relayGraceMs?: number };
  /** The secrets key (default: `SWITCH_SECRETS_KEY`, or an ephemeral one: nothing here outlives the process). */
  secrets?: SecretBox;
}): Promise<EmbeddedSwitch> {
  const given = options.env ?? environmentSnapshot();
  // Local receivers on loopback are allowed unless the environment says otherwise: the embedded switch
  // is the local one (`npm start`, the API tests). Other internal addresses and the switch's own ports
  // stay refused (docs/webhooks.md "Where webhooks may go").
  const env: EnvSource = given.SWITCH_WEBHOOK_ALLOW_LOOPBACK === undefined ? { ...given, SWITCH_WEBHOOK_ALLOW_LOOPBACK: 'true' } : given;
  const settings = readSettings(EmbeddedSwitchSettings, env);
  const gatewayConfig = loadGatewayConfig(env);
  // The merchant and operator ports as configured; `npm start` adds the ones it actually listens on.
  const destinations = destinationPolicy(settings.destinations, [gatewayConfig.port, gatewayConfig.operatorPort]);
  const ownPorts = new Set(destinations.ownPorts);
  const id = instanceId(settings.instance);
  const routing = options.routing ?? embeddedRouting(env, emulatorsEnabled(env, options.banks));
  const config = { ...gatewayConfig, webhookDestinations: { ...destinations, ownPorts }, ...options.config };
  // Its retries of failing handlers are logged at warn, as on Kafka.
  const bus = new MemoryBus({ logger: options.log });
  const store = options.store ?? new MemoryStore();
  const secrets = options.secrets ?? secretBox(settings.secrets, false);
  const router = await startRouter({
    bus,
    store,
    routing,
    log: options.log.child({ service: 'router' }),
    risk: riskPolicy(settings.risk),
    policy: { ...corePolicy(settings.policy), ...options.policy },
    instanceId: id,
    ...options.router,
  });
  const sim = await startSimulatedBank({ bus, store, secrets, log: options.log.child({ service: 'bank-sim' }) });
  const banks = await startEmbeddedBanks({
    bus,
    store,
    secrets,
    log: options.log,
    env,
    ...(options.banks ? { options: options.banks } : {}),
  });
  const notifier = await startNotifier({
    bus,
    store,
    log: options.log.child({ service: 'notifier' }),
    config: { ...loadNotifierConfig(secrets, env), ownPorts, ...options.notifier },
    instanceId: id,
  });
  const reconciler = startReconciler({
    bus,
    store,
    log: options.log.child({ service: 'reconciler' }),
    config: { ...loadReconcilerConfig(env), ...options.reconciler },
    instanceId: id,
  });
  // The overview's hour summaries the panel reads (decision 0215).
  const overviewFold = startOverviewFold({ store, log: options.log.child({ service: 'panel' }), instanceId: id });
  // The sandbox's magic amounts hold where a test route answers through its emulator (docs/sandbox.md).
  if (banks.emulators && env.SWITCH_SANDBOX_BANKS === undefined && options.config?.sandboxBanks === undefined)
    config.sandboxBanks = SANDBOX_BANKS.filter((b) => banks.connected.test.includes(b));
  for (const url of Object.values(banks.emulatorUrls)) if (url) ownPorts.add(Number(new URL(url).port));
  const panelConfig = { ...loadPanelConfig(env), webhookDestinations: { ...destinations, ownPorts }, ...options.panel };
  const gateway = await buildGateway({
    store,
    bus,
    routing,
    log: options.log.child({ service: 'gateway' }),
    config,
    secrets,
    // Test-mode payments arrive in this process's banks: the simulated bank behind `bnc`, the emulators behind the others.
    sandboxPayments: (merchantId, banco, payment) => {
      if (banco === 'bnc') return sim.bank.receivePagoMovil(merchantId, payment);
      const emulator = banks.emulators?.[banco];
      return emulator && banks.connected.test.includes(banco) ? emulator.ledger.receivePagoMovil(payment) : null;
    },
    // The merchant panel on the merchant port, as the ingress serves it in a deployment.
    plugins: [
      {
        prefix: '/panel',
        register: async (app, parts) =>
          // The gateway's store: changes the panel makes are announced, and its key cache forgets at once.
          // Links the panel issues (invitations, resets) are absolute under SWITCH_PUBLIC_URL when it is set.
          panelPlugin(app, {
            store: parts.store,
            secrets: parts.secrets,
            config: panelConfig,
            basePath: '/panel',
            accounts: parts.accounts,
            sandbox: parts.sandbox,
            apiBaseUrl: settings.panel.publicUrl,
          }),
      },
    ],
  });
  const expected = gateway.expected;
  return {
    gateway,
    config,
    bus,
    store,
    bank: sim.bank,
    secrets,
    routing,
    notifier,
    reconciler,
    expected,
    banks,
    emulators: banks.emulators,
    ownPorts,
    close: async () => {
      await gateway.close();
      await reconciler.stop();
      await overviewFold.stop();
      await bus.drained();
      await notifier.stop();
      await router.stop();
      await sim.stop();
      await banks.stop();
      await bus.close();
      await store.close();
    },
  };
}
