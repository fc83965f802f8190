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
 * Starts the transaction actor on its inbox. There is no outbox relay: a write is announced by the
 * handler that made it, and the message is committed only after that, so a failed or interrupted
 * announcement comes back with the message and is repeated (see `TransactionActor.handle`).
 */
export async function startRouter(deps: {
  bus: Bus;
  store: Store;
  routing: RoutingTable;
  log: Logger;
  risk?: RiskPolicy;
  policy?: Partial<CorePolicy>;
}): Promise<RouterHandle> {
  const health = new BankHealthView();
  const healthSubscription = await health.follow(deps.bus);
  const actor = new TransactionActor({ ...deps, unavailableBanks: (mode) => health.unavailable(mode) });
  const subscription: Subscription = await deps.bus.subscribe(
    TOPICS.routerInbox,
    { group: 'router' },
    measured('router', TOPICS.routerInbox.name, ({ value }) => actor.handle(value)),
  );
  return {
    actor,
    stop: async () => {
      await subscription.close();
      await healthSubscription.close();
    },
  };
}
