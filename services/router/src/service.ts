import { BankHealthView } from '@switch/platform/runtime/bank-health';
import { measured } from '@switch/platform/telemetry/metrics';
import { TOPICS } from '@switch/core/contracts/topics';
import type { Bus, Subscription } from '@switch/platform/ports/bus';
import type { CorePolicy } from '@switch/core/transaction-core';
import type { RiskPolicy } from '@switch/core/risk';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { RoutingTable } from '@switch/core/routing';
import { TransactionActor, type RouterStore } from './actor';

export interface RouterHandle {
  actor: TransactionActor;
  stop(): Promise<void>;
}

/**
 * Starts the transaction actor on its inbox, and the outbox relay beside it. A write is announced by
 * the handler that made it and the message is committed only after that, so a failed or interrupted
 * announcement comes back with the message and is repeated (see `TransactionActor.handle`). The relay
 * is the continuous safety net for anything else: every `relayIntervalMs` it announces writes left
 * unmarked for longer than `relayGraceMs` (an index-served query of unmarked writes only).
 */
export async function startRouter(deps: {
  bus: Bus;
  store: RouterStore;
  routing: RoutingTable;
  log: Logger;
  risk?: RiskPolicy;
  policy?: Partial<CorePolicy>;
  /** How often the outbox relay looks for unmarked writes. Default 1 s. */
  relayIntervalMs?: number;
  /** How old an unmarked write must be before the relay announces it again (the actor's own is under way). Default 10 s. */
  relayGraceMs?: number;
  /** This replica's stable id (names its own consumer groups); default the host name. */
  instanceId?: string;
}): Promise<RouterHandle> {
  const health = new BankHealthView();
  const healthSubscription = await health.follow(deps.bus, deps.instanceId);
  const actor = new TransactionActor({ ...deps, unavailableBanks: (mode) => health.unavailable(mode) });
  const subscription: Subscription = await deps.bus.subscribe(
    TOPICS.routerInbox,
    { group: 'router' },
    measured('router', TOPICS.routerInbox.name, ({ value, epoch }) => actor.handle(value, epoch)),
  );
  const intervalMs = deps.relayIntervalMs ?? 1_000;
  const graceMs = deps.relayGraceMs ?? 10_000;
  let relaying: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    void relaying.then(() => {
      if (stopped) return;
      relaying = actor.relay(new Date(Date.now() - graceMs).toISOString()).then(
        (n) => n > 0 && deps.log.warn({ relayed: n }, 'outbox relay announced writes left unmarked'),
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
