import {
  BankHealthView,
  measured,
  TOPICS,
  type Bus,
  type CorePolicy,
  type RiskPolicy,
  type Logger,
  type RoutingTable,
  type Store,
  type Subscription,
} from '@switch/shared';
import { TransactionActor } from './actor';

export interface RouterHandle {
  actor: TransactionActor;
  stop(): Promise<void>;
}

/**
 * Starts the transaction actor on its inbox, and the outbox relay beside it: every `relayIntervalMs`
 * it announces writes whose announcement failed, so a stored state is announced within seconds
 * whatever failed in between, without a restart.
 */
export async function startRouter(deps: {
  bus: Bus;
  store: Store;
  routing: RoutingTable;
  log: Logger;
  risk?: RiskPolicy;
  policy?: Partial<CorePolicy>;
  /** How often the outbox relay looks for unannounced writes. Default 1 s. */
  relayIntervalMs?: number;
}): Promise<RouterHandle> {
  const health = new BankHealthView();
  const healthSubscription = await health.follow(deps.bus);
  const actor = new TransactionActor({ ...deps, unavailableBanks: (mode) => health.unavailable(mode) });
  const relayed = await actor.relay(1000);
  if (relayed > 0) deps.log.info({ relayed }, 'announced writes left unannounced');
  const subscription: Subscription = await deps.bus.subscribe(
    TOPICS.routerInbox,
    { group: 'router' },
    measured('router', TOPICS.routerInbox.name, ({ value }) => actor.handle(value)),
  );

  const intervalMs = deps.relayIntervalMs ?? 1_000;
  let relaying: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    void relaying.then(() => {
      if (stopped) return;
      // Writes younger than one interval are still being announced by the actor itself.
      relaying = actor.relay(100, intervalMs).then(
        (n) => n > 0 && deps.log.warn({ relayed: n }, 'outbox relay announced writes whose announcement had failed'),
        (error: unknown) => deps.log.error({ err: error }, 'outbox relay round failed'),
      );
    });
  }, intervalMs);
  timer.unref();
  return {
    actor,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await relaying;
      await subscription.close();
      await healthSubscription.close();
    },
  };
}
