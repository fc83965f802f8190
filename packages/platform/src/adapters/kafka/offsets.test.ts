import { describe, expect, it } from 'vitest';
import type { TopicPartitionOffset } from 'kafkajs';
import { OffsetCommits } from './offsets';

describe('OffsetCommits', () => {
  it('a flush called while a commit is in flight also commits what was handled meanwhile (close after the clock)', async () => {
    const committed: TopicPartitionOffset[][] = [];
    let release!: () => void;
    const first = new Promise<void>((r) => (release = r));
    const commits = new OffsetCommits(
      't',
      async (offsets) => {
        committed.push(offsets);
        if (committed.length === 1) await first;
      },
      3_600_000,
      () => undefined,
    );
    try {
      await commits.around(0, '4', async () => undefined);
      const clock = commits.flush(); // the clock's round: offset 5 in flight
      await commits.around(0, '9', async () => undefined); // handled while it is in flight
      const closing = commits.flush();
      release();
      await Promise.all([clock, closing]);
      expect(committed).toEqual([[{ topic: 't', partition: 0, offset: '5' }], [{ topic: 't', partition: 0, offset: '10' }]]);
    } finally {
      commits.stop();
    }
  });
});
