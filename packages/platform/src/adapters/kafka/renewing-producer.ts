import type { Producer, ProducerBatch, RecordMetadata } from 'kafkajs';

/**
 * An idempotent producer that is replaced after every failed produce request.
 *
 * The broker drops a batch whose producer id and sequence numbers it has already written, answering
 * success. kafkajs gives a failed request's sequence numbers back and reuses them for the next batch
 * of that partition. When the failed request was written after all (its answer was lost: a timeout,
 * a connection cut while the leader moved), the next batch, other messages of the same count, would
 * be taken for a repeat: acknowledged and never written, an announcement lost. A new producer has a
 * new producer id, so no sequence number is ever used for two different batches. The old one is
 * disconnected; a retried publish after a failure costs one InitProducerId request.
 */
export class RenewingProducer {
  private current: Producer;
  private connecting: Promise<void> | undefined;
  private closed = false;
  /** Producers replaced after a failure (for tests and logs). */
  renewals = 0;

  constructor(
    private readonly make: () => Producer,
    private readonly onRenew: (error: unknown) => void = () => undefined,
  ) {
    this.current = make();
  }

  connect(): Promise<void> {
    if (!this.connecting) {
      const connecting = this.current.connect();
      this.connecting = connecting;
      connecting.catch(() => {
        if (this.connecting === connecting) this.connecting = undefined;
      });
    }
    return this.connecting;
  }

  async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
    if (this.closed) throw new Error('producer closed');
    await this.connect();
    const producer = this.current;
    try {
      return await producer.sendBatch(batch);
    } catch (error) {
      this.renew(producer, error);
      throw error;
    }
  }

  async disconnect(): Promise<void> {
    this.closed = true;
    await this.current.disconnect();
  }

  private renew(failed: Producer, error: unknown): void {
    if (this.current !== failed || this.closed) return;
    this.current = this.make();
    this.connecting = undefined;
    this.renewals++;
    this.onRenew(error);
    void failed.disconnect().catch(() => undefined);
  }
}
