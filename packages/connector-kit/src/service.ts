import type { BancoId, Mode } from '@switch/core/contracts/bancos';
import type { GuardedConnector } from './connector';
import type { ReferenceBook } from './references';
import type { KitDeps } from './send';

/** What the process serving a bank gives each of its connectors. */
export interface ServiceDeps extends KitDeps {
  /** The store's merchant references, shared by the replicas of the bank's process. */
  references: ReferenceBook;
}

/** A bank's configuration: one connector configuration per mode it serves (a mode left out is not served). */
export type ModeConfigs<M> = Partial<Record<Mode, M>>;

/**
 * A bank's connector as a service: all a bank folder says about how it is served. The platform does
 * the rest, the same for every bank (`startConnectorService`, `runConnectorProcess`): one connector per
 * configured mode, the bus subscription and the order journal, breaker health, the health server and
 * shutdown.
 */
export interface ConnectorService<M, C extends GuardedConnector> {
  banco: BancoId;
  /** The process, its logger, its consumer group and its health listener (config/ports.ts), e.g. `bank-activo`. */
  name: string;
  /** The connector of one mode. */
  Connector: new (
    config: M,
    deps: ServiceDeps,
  ) => C;
  /** What the start-up log may say of the configuration: never a secret. Default: the modes only. */
  describe?(config: ModeConfigs<M>): Record<string, unknown>;
}
