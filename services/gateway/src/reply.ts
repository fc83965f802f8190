import { randomUUID } from 'node:crypto';
import { BankReadClient, TOPICS, type Bus, type Subscription, type TransactionEventMessage } from '@switch/shared';

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

/**
 * Request/reply over the bus for one gateway instance. Every instance listens to the transaction
 * events and to the read replies addressed to it, with a group of its own, so the answers of its own
 * requests reach it whichever instance's request caused them.
 */
export class Replies {
  readonly gatewayId = `gw-${randomUUID().slice(0, 8)}`;
  private readonly eventWaiters = new Map<string, Set<EventWaiter>>();
  private subscriptions: Subscription[] = [];
  /** Balance and statement reads (shared with the standalone panel), answered to this instance. */
  readonly reads: BankReadClient;

  constructor(private readonly bus: Bus) {
    this.reads = new BankReadClient(bus, this.gatewayId, `gateway-${this.gatewayId}`);
  }

  async start(): Promise<void> {
    this.subscriptions = [
      await this.bus.subscribe(
        TOPICS.transactions,
        { group: `gateway-${this.gatewayId}`, latestOnly: true, maxAttempts: 1 },
        async ({ value }) => this.onEvent(value),
      ),
    ];
    await this.reads.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.subscriptions.map((s) => s.close()), this.reads.stop()]);
    for (const set of this.eventWaiters.values()) for (const w of set) w.resolve(null);
    this.eventWaiters.clear();
  }

  /** Registers before the caller reads the store, so an event between the read and the wait is not missed. */
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
