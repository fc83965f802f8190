import { BankHealthView } from '@switch/platform/runtime/bank-health';
import type { BreakerReport } from '@switch/core/breaker-view';
import type { BancoId, Mode } from '@switch/core/contracts/bancos';
import { measured } from '@switch/platform/telemetry/metrics';
import { TOPICS } from '@switch/core/contracts/topics';
import type { Bus, Subscription } from '@switch/platform/ports/bus';
import type { CorePolicy } from '@switch/core/transaction-core';
import type { RiskPolicy } from '@switch/core/risk';
import type { Logger } from '@switch/platform/telemetry/logger';
import type { RoutingTable } from '@switch/core/routing';
import { TransactionActor, type RouterStore } from './actor';
import type { Leases } from '@switch/platform/ports/leases';
import { instanceId } from '@switch/platform/config/instance';
import { LeaseKeeper, startLeasedLoop } from '@switch/platform/runtime/leased-loop';

export interface RouterHandle {
  actor: TransactionActor;
  /** Runs one relay round now if this replica holds the relay's lease (how many writes it announced), else null. */
  relayOnce(): Promise<number | null>;
  /** Each fresh connector replica's breaker report as this router sees it, and the banks it routes around (operators, drills: `/bank-health`). */
  bankHealth(): { replicas: BreakerReport[]; routedAround: Record<Mode, BancoId[]> };
  stop(): Promise<void>;
}

/** The lease the router replicas share: one of them runs the outbox relay at a time. */
export const RELAY_LEASE = 'outbox-relay';

/**
 * Starts the transaction actor on its inbox, and the outbox relay beside it. A write is announced by
 * the handler that made it and the message is committed only after that, so a failed or interrupted
 * announcement comes back with the message and is repeated (see `TransactionActor.handle`). The relay
 * is the continuous safety net for anything else: every `relayIntervalMs` it announces writes left
 * unmarked for longer than `relayGraceMs` (an index-served query of unmarked writes only). It runs on
 * one replica at a time, the holder of the `outbox-relay` lease (`relayLeaseMs`), not once per replica;
 * the inbox is shared by partition (the consumer group), the bank-health view is each replica's own.
 */
export async function startRouter(deps: {
  bus: Bus;
  store: RouterStore & Leases;
  routing: RoutingTable;
  log: Logger;
  risk?: RiskPolicy;
  policy?: Partial<CorePolicy>;
  /** How often the outbox relay looks for unmarked writes. Default 1 s. */
  relayIntervalMs?: number;
  /** How old an unmarked write must be before the relay announces it again (the actor's own is under way). Default 10 s. */
  relayGraceMs?: number;
  /** How long the relay's lease lasts unrenewed (renewed every round): a killed holder is replaced after it. Default 10 s. */
  relayLeaseMs?: number;
  /** This replica's stable id (names its own consumer groups, holds the relay's lease); default the host name. */
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
  const graceMs = deps.relayGraceMs ?? 10_000;
  let relayed: number | null = null;
  const keeper = new LeaseKeeper({
    leases: deps.store.leases,
    name: RELAY_LEASE,
    holder: deps.instanceId ?? instanceId(),
    ttlMs: deps.relayLeaseMs ?? 10_000,
    log: deps.log,
  });
  const relay = startLeasedLoop({
    keeper,
    intervalMs: deps.relayIntervalMs ?? 1_000,
    what: 'outbox relay',
    log: deps.log,
    round: async (fence) => {
      relayed = await actor.relay(new Date(Date.now() - graceMs).toISOString(), 100, fence);
      if (relayed > 0) deps.log.warn({ relayed }, 'outbox relay announced writes left unmarked');
    },
  });
  return {
    actor,
    bankHealth: () => ({
      replicas: health.replicas(),
      routedAround: { test: [...health.unavailable('test')], live: [...health.unavailable('live')] },
    }),
    relayOnce: async () => {
      relayed = null;
      return (await relay.tick()) ? relayed : null;
    },
    stop: async () => {
      await relay.stop();
      await subscription.close();
      await healthSubscription.close();
    },
  };
}
