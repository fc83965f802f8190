import { BankReadClient } from '@switch/platform/runtime/account-reads';
import { TOPICS, type TransactionEventMessage } from '@switch/core/contracts/topics';
import type { Bus, Subscription } from '@switch/platform/ports/bus';

type EventPredicate = (event: TransactionEventMessage) => boolean;

interface EventWaiter {
  predicate: EventPredicate;
  resolve: (event: TransactionEventMessage | null) => void;
}

export interface Waiting<T> {
  /** Resolves with the awaited message, or null when the wait ran out. */
  result: Promise<T | null>;
  cancel(): void;
}

/** The consumer groups of one gateway instance: named after its stable id, the same at every start. */
export const gatewayGroups = (instanceId: string) => ({
  answers: `gateway-${instanceId}-answers`,
  reads: `gateway-${instanceId}-reads`,
  /** Merchant changes (the key cache). */
  changes: `gateway-${instanceId}`,
});

/**
 * Request/reply over the bus for one gateway instance. The gateway's commands carry its instance id
 * (`replyTo`); the router answers the writes a waiting caller can be answered from on the answers
 * topic, keyed by that id, and this instance reads only its own key (one partition of the topic, in a
 * group named after the id): it sees the answers to its own commands and nobody else's, and never
 * the whole transaction events topic (docs/decisions/0016-answers-to-the-asking-gateway.md).
 */
export class Replies {
  private readonly eventWaiters = new Map<string, Set<EventWaiter>>();
  private subscriptions: Subscription[] = [];
  /** Balance and statement reads (shared with the standalone panel), answered to this instance. */
  readonly reads: BankReadClient;

  /** `gatewayId`: the instance's stable id (`GatewayConfig.instanceId`), its reply address. */
  constructor(
    private readonly bus: Bus,
    readonly gatewayId: string,
  ) {
    this.reads = new BankReadClient(bus, gatewayId, gatewayGroups(gatewayId).reads);
  }

  async start(): Promise<void> {
    this.subscriptions = [
      await this.bus.subscribe(
        TOPICS.gatewayAnswers,
        { group: gatewayGroups(this.gatewayId).answers, key: this.gatewayId, latestOnly: true, maxAttempts: 1 },
        async ({ value }) => {
          if (value.gatewayId === this.gatewayId) this.onEvent(value.event);
        },
      ),
    ];
    await this.reads.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.subscriptions.map((s) => s.close()), this.reads.stop()]);
    for (const set of this.eventWaiters.values()) for (const w of set) w.resolve(null);
    this.eventWaiters.clear();
  }

  /** Registers before the caller reads the store, so an answer between the read and the wait is not missed. */
  waitForEvent(txnId: string, predicate: EventPredicate, timeoutMs: number): Waiting<TransactionEventMessage> {
    const set = this.eventWaiters.get(txnId) ?? new Set<EventWaiter>();
    this.eventWaiters.set(txnId, set);
    let waiter!: EventWaiter;
    let timer: NodeJS.Timeout | undefined;
    const remove = () => {
      clearTimeout(timer);
      set.delete(waiter);
      if (set.size === 0 && this.eventWaiters.get(txnId) === set) this.eventWaiters.delete(txnId);
    };
    const result = new Promise<TransactionEventMessage | null>((resolve) => {
      waiter = {
        predicate,
        resolve: (e) => {
          remove();
          resolve(e);
        },
      };
      set.add(waiter);
      timer = setTimeout(() => waiter.resolve(null), timeoutMs);
    });
    return { result, cancel: () => waiter.resolve(null) };
  }

  private onEvent(event: TransactionEventMessage): void {
    const set = this.eventWaiters.get(event.txnId);
    if (!set) return;
    for (const w of [...set]) if (w.predicate(event)) w.resolve(event);
  }
}
