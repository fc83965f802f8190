import type { TopicPartitionOffset } from 'kafkajs';

/**
 * The offsets of one subscription, committed on a clock rather than after every fetched batch.
 *
 * kafkajs' autoCommit commits at the end of each batch; at a payment's pace a batch is one message, so
 * every consumed message cost the broker and the client a second request (an OffsetCommit beside the
 * Fetch). Here a handled message's offset is committed within `intervalMs`, when a rebalance starts,
 * and when the subscription closes once the messages in hand are done. A process that dies loses at
 * most the last interval's commits: those messages are delivered again to the partition's next owner,
 * as any message in hand at a crash already was (at-least-once: the store's compare-and-set, the bank
 * journal and the delivery ids make a repeat harmless; docs/decisions/0019-bus-contract.md).
 */
export class OffsetCommits {
  /** partition → the next offset to read (the last handled + 1), not committed yet. */
  private readonly handled = new Map<number, string>();
  private inHand = 0;
  /** Joins seen: an offset handled under an earlier one is not committed (see `rejoined`). */
  private generation = 0;
  private idle: (() => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;
  /** OffsetCommit requests sent (tests and the benchmark count them). */
  requests = 0;

  constructor(
    private readonly topic: string,
    private readonly commit: (offsets: TopicPartitionOffset[]) => Promise<void>,
    intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs).unref();
  }

  /** Wraps the handling of one message: its offset counts as handled only if `handle` resolves. */
  async around(partition: number, offset: string, handle: () => Promise<void>): Promise<void> {
    this.inHand++;
    const generation = this.generation;
    try {
      await handle();
      if (generation === this.generation) this.handled.set(partition, (BigInt(offset) + 1n).toString());
    } finally {
      if (--this.inHand === 0) for (const wake of this.idle.splice(0)) wake();
    }
  }

  /** Where a partition starts (a seek at join): committed at once, so a rebalance resumes there, not at "latest". */
  startAt(partition: number, offset: string): void {
    this.handled.set(partition, offset);
    void this.flush();
  }

  /** Resolves once no message is in hand (the consumer must be paused first, or it may never be). */
  settled(): Promise<void> {
    return this.inHand === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }

  /**
   * Commits everything handled before the call, in one request. One request at a time: a call made
   * while one is in flight waits for it, then commits what was handled since (so close commits the
   * messages that finished during the clock's round too). A refused commit (the broker away, a rebalance
   * under way) is tried again with the next round, until the member joins the group again (`rejoined`).
   */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    this.flushing ??= this.commitHandled().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async commitHandled(): Promise<void> {
    const offsets = [...this.handled].map(([partition, offset]) => ({ topic: this.topic, partition, offset }));
    if (offsets.length === 0) return;
    this.handled.clear();
    this.requests++;
    try {
      await this.commit(offsets);
    } catch (error) {
      for (const o of offsets) if (!this.handled.has(o.partition)) this.handled.set(o.partition, o.offset);
      this.onError(error);
    }
  }

  /**
   * After a join: forget every offset handled before it, and those of messages still in hand. On a join
   * kafkajs reads each assigned partition again from its committed offset, whoever holds it now, so
   * such an offset is at best one the partition's reader commits again, and at worst below what another
   * member committed meanwhile: sent after the join it stepped the group's offset back and left lag
   * behind (cluster drills, a broker leading most partitions killed). Dropping it only redelivers.
   */
  rejoined(): void {
    this.generation++;
    this.handled.clear();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
