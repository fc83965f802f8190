import type { TopicPartitionOffset } from 'kafkajs';

export interface OffsetCommitsOptions {
  topic: string;
  commit: (offsets: TopicPartitionOffset[]) => Promise<void>;
  /** The group's committed offsets of some partitions of the topic (none committed: left out). */
  read: (partitions: number[]) => Promise<Map<number, string>>;
  /** Handled offsets are committed this often. */
  intervalMs: number;
  /** The group's committed offsets of the partitions this member reads are checked this often (`check`). */
  checkIntervalMs: number;
  onError: (error: unknown) => void;
  /** Positions committed again because the group's committed offset was found below them. */
  onRepaired: (offsets: TopicPartitionOffset[]) => void;
}

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
 *
 * The group's committed offset of a partition never steps back because of this member: an offset is
 * committed only under the generation it was handled in, never below one acknowledged in it, and a
 * position found overwritten or lost is committed again (`check`).
 */
export class OffsetCommits {
  /** partition → the next offset to read (the last handled + 1), not committed yet. */
  private readonly handled = new Map<number, string>();
  /**
   * partition → this member's position in the current generation (its last handled + 1, or where it
   * started): the group's committed offset of a partition it reads is never to stay below it.
   */
  private readonly held = new Map<number, bigint>();
  /** partition → the highest offset a commit of this member was acknowledged for, in the current generation. */
  private readonly confirmed = new Map<number, bigint>();
  private inHand = 0;
  /** Joins seen: an offset handled under an earlier one is not committed (see `rejoined`). */
  private generation = 0;
  private idle: (() => void)[] = [];
  private readonly timers: NodeJS.Timeout[];
  private stopped = false;
  private flushing: Promise<void> | undefined;
  private checking: Promise<void> | undefined;
  private readonly topic: string;
  /** OffsetCommit requests sent (tests and the benchmark count them). */
  requests = 0;

  constructor(private readonly options: OffsetCommitsOptions) {
    this.topic = options.topic;
    this.timers = [
      setInterval(() => void this.flush(), options.intervalMs).unref(),
      setInterval(() => void this.check(), options.checkIntervalMs).unref(),
    ];
  }

  /** Wraps the handling of one message: its offset counts as handled only if `handle` resolves. */
  async around(partition: number, offset: string, handle: () => Promise<void>): Promise<void> {
    this.inHand++;
    const generation = this.generation;
    try {
      await handle();
      if (generation === this.generation) this.hold(partition, BigInt(offset) + 1n);
    } finally {
      if (--this.inHand === 0) for (const wake of this.idle.splice(0)) wake();
    }
  }

  /** Where a partition starts (a seek at join): committed at once, so a rebalance resumes there, not at "latest". */
  startAt(partition: number, offset: string): void {
    this.hold(partition, BigInt(offset));
    void this.flush();
  }

  private hold(partition: number, next: bigint): void {
    this.handled.set(partition, next.toString());
    this.held.set(partition, next);
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
    const generation = this.generation;
    // Never below what a commit of this generation was acknowledged for (a seek back within it would
    // otherwise step the group's offset back).
    const offsets = [...this.handled]
      .filter(([partition, offset]) => BigInt(offset) >= (this.confirmed.get(partition) ?? 0n))
      .map(([partition, offset]) => ({ topic: this.topic, partition, offset }));
    this.handled.clear();
    if (offsets.length === 0) return;
    this.requests++;
    try {
      await this.options.commit(offsets);
      if (generation !== this.generation) return;
      for (const o of offsets) {
        const offset = BigInt(o.offset);
        if (offset > (this.confirmed.get(o.partition) ?? -1n)) this.confirmed.set(o.partition, offset);
      }
    } catch (error) {
      // Kept for the next round only while the generation it was handled in stands: refused after a
      // join, it is an offset of an earlier generation (see `rejoined`).
      if (generation === this.generation)
        for (const o of offsets) if (!this.handled.has(o.partition)) this.handled.set(o.partition, o.offset);
      this.options.onError(error);
    }
  }

  /**
   * Reads the group's committed offsets of the partitions this member holds a position in, and commits
   * its position again where the group's is below it. A commit acknowledged to this member can still
   * be overwritten (a commit sent late by another member) or, with a broker configured below the
   * switch's durability, lost in a failover; without this the partition's lag would stay until the
   * next rebalance, which then delivers those messages again. Only positions of handled messages (or
   * a start) are committed, and only under the generation they were reached in.
   */
  async check(): Promise<void> {
    this.checking ??= this.checkHeld().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async checkHeld(): Promise<void> {
    await this.flush(); // what was handled is committed first: only what stays behind after it counts
    const generation = this.generation;
    const partitions = [...this.held.keys()];
    if (partitions.length === 0) return;
    let committed: Map<number, string>;
    try {
      committed = await this.options.read(partitions);
    } catch (error) {
      this.options.onError(error);
      return;
    }
    if (generation !== this.generation || this.stopped) return;
    const behind: TopicPartitionOffset[] = [];
    for (const [partition, position] of this.held) {
      const group = committed.get(partition);
      // A partition handled since the read is committed by the next round anyway.
      if (this.handled.has(partition) || (group !== undefined && BigInt(group) >= position)) continue;
      this.handled.set(partition, position.toString());
      behind.push({ topic: this.topic, partition, offset: position.toString() });
    }
    if (behind.length === 0) return;
    this.options.onRepaired(behind);
    await this.flush();
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
    this.held.clear();
    this.confirmed.clear();
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
  }
}
