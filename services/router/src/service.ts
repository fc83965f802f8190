import { BankHealthView, measured, TOPICS, type Bus, type RiskPolicy, type Logger, type RoutingTable, type Store, type Subscription } from '@switch/shared';
import { TransactionActor } from './actor';

export interface RouterHandle {
  actor: TransactionActor;
  stop(): Promise<void>;
}

/** Starts the transaction actor on its inbox, after repairing writes a crash left unannounced. */
export async function startRouter(deps: {
  bus: Bus;
  store: Store;
  routing: RoutingTable;
  log: Logger;
  risk?: RiskPolicy;
  notFoundSettleMs?: number;
}): Promise<RouterHandle> {
  const health = new BankHealthView();
  const healthSubscription = await health.follow(deps.bus);
  const actor = new TransactionActor({ ...deps, unavailableBanks: (mode) => health.unavailable(mode) });
  const repaired = await actor.repair();
  if (repaired > 0) deps.log.info({ repaired }, 're-announced writes left unannounced');
  const subscription: Subscription = await deps.bus.subscribe(TOPICS.routerInbox, { group: 'router' }, measured('router', TOPICS.routerInbox.name, ({ value }) => actor.handle(value)));
  return {
    actor,
    stop: async () => {
      await subscription.close();
      await healthSubscription.close();
    },
  };
}
