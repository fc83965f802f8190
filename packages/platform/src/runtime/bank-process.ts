import type { Static, TObject } from '@sinclair/typebox';
import type { GuardedConnector } from '@switch/connector-kit/connector';
import type { ConnectorService, ModeConfigs } from '@switch/connector-kit/service';
import type { BankWorkerSettings } from '../config/bank-worker';
import { readSettings } from '../config/env';
import { longestBankCallMs } from '../config/timings';
import { instanceId, InstanceSettings } from '../config/instance';
import type { InfraSettings } from '../config/infra';
import type { healthSettings, ProcessSettings } from '../config/process';
import { createLogger, type Logger } from '../telemetry/logger';
import type { BankWorkerFaults } from './bank-worker';
import { startConnectorService } from './bank-service';
import { connectAdapters, infraConfig, onShutdown, startHealthServer, type Adapters } from './service';

/** The settings every bank's process reads: a bank folder's `<Bank>ProcessSettings` composes these groups. */
export type BankProcessGroups = {
  process: typeof ProcessSettings;
  infra: typeof InfraSettings;
  health: ReturnType<typeof healthSettings>;
  faults: typeof BankWorkerSettings;
};

/** What a bank's process started: how to stop it, and extra read-only routes for its health server. */
export interface StartedBank {
  stop(): Promise<void>;
  routes?: Record<string, () => unknown>;
}

/**
 * A bank's process, the same for every bank: its settings read first (`schema`, then `configure`: a
 * wrong value stops it before it connects, naming the variable), the adapters, what `start` serves over
 * them, a health server on the bank's listener and a graceful shutdown. A failure to start ends the
 * process with status 1.
 */
export function runBankProcess<P extends BankProcessGroups, T>(
  name: string,
  schema: TObject<P>,
  configure: (settings: Static<TObject<P>>) => T,
  start: (config: T, context: { log: Logger; adapters: Adapters; faults: BankWorkerFaults; replica: string }) => Promise<StartedBank>,
  /** The longest single bank exchange `config` lets a handler wait on (its timings derive from it); default none. */
  bankCallMs: (config: T) => number = () => 0,
): void {
  const main = async () => {
    const settings = readSettings(schema);
    const config = configure(settings);
    // Every bank's schema holds these groups (`P extends BankProcessGroups`); the generic type cannot show it.
    const base = settings as unknown as Static<TObject<BankProcessGroups>>;
    const log = createLogger(name, base.process.logLevel);
    const adapters = await connectAdapters(infraConfig(base.infra), name, log, { ...base.process, bankCallMs: bankCallMs(config) });
    // The chain the stop, the rebalance and the pod's grace period follow (config/timings.ts).
    log.info({ timings: adapters.timings }, 'timings');
    // Stable across restarts; the health port tells apart replicas on one host.
    const replica = instanceId(readSettings(InstanceSettings), base.health.port);
    const started = await start(config, { log, adapters, faults: base.faults, replica });
    const health = await startHealthServer(base.health.port, base.health.host, adapters, started.routes);
    onShutdown(
      log,
      async () => {
        await started.stop();
        await adapters.close();
        health.close();
      },
      adapters.timings.shutdownMs,
    );
  };
  main().catch((error: unknown) => {
    process.stderr.write(`${name} failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

/** A bank's connector as its own process (`runBankProcess` over `startConnectorService`). */
export function runConnectorProcess<M, C extends GuardedConnector, P extends BankProcessGroups>(
  service: ConnectorService<M, C>,
  schema: TObject<P>,
  loadConfig: () => ModeConfigs<M>,
): void {
  runBankProcess(
    service.name,
    schema,
    loadConfig,
    (config, { log, adapters, faults, replica }) =>
      startConnectorService(service, { bus: adapters.bus, store: adapters.store, secrets: adapters.secrets, log, config, faults, replica }),
    (config) => longestBankCallMs(config),
  );
}
