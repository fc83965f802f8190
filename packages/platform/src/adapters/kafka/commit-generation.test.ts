import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// kafkajs' Runner is private; this test reaches it to prove that patches/kafkajs+2.2.4.patch is applied
// to the installed copy (postinstall runs patch-package): a commit kafkajs retries is never sent under
// a generation the member joined after the commit was asked for.
const load = createRequire(__filename);
const Runner = load('kafkajs/src/consumer/runner') as new (options: object) => RunnerLike;
const { KafkaJSError } = load('kafkajs/src/errors') as { KafkaJSError: new (message: string, options: { retriable: boolean }) => Error };

type RunnerLike = { running: boolean; commitOffsets(offsets: object): Promise<void> };
type Generation = { generationId: number; memberId: string };

const logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  namespace: () => logger,
};
const offsets = { topics: [{ topic: 't', partitions: [{ partition: 5, offset: '1' }] }] };

/** A consumer group whose coordinator refuses the first commit, then lets the member join again. */
function groupThatRejoins(rejoin: boolean) {
  const sent: Generation[] = [];
  const group = {
    groupId: 'g',
    generationId: 1,
    memberId: 'm-1',
    offsetManager: { generationId: 1, memberId: 'm-1' } as Generation,
    getNodeIds: () => [],
    async commitOffsets() {
      sent.push({ ...this.offsetManager });
      if (sent.length > 1) return;
      if (rejoin) {
        // The member is unknown to a new coordinator, joins again, and is given a new generation.
        this.generationId = 2;
        this.memberId = 'm-2';
        this.offsetManager = { generationId: 2, memberId: 'm-2' };
      }
      throw new KafkaJSError('The coordinator is not aware of this member', { retriable: true });
    },
  };
  const runner = new Runner({
    logger,
    consumerGroup: group,
    instrumentationEmitter: { emit: () => undefined },
    concurrency: 1,
    eachMessage: async () => undefined,
    onCrash: () => undefined,
    retry: { retries: 3, initialRetryTime: 1, maxRetryTime: 5 },
    autoCommit: false,
  });
  runner.running = true;
  return { runner, sent };
}

describe('kafkajs commit retries (patches/kafkajs+2.2.4.patch: a commit stays in its generation)', () => {
  it('a refused commit is not sent again under the generation the member joined meanwhile', async () => {
    const { runner, sent } = groupThatRejoins(true);
    await expect(runner.commitOffsets(offsets)).rejects.toThrow(/joined the group again/);
    expect(sent).toEqual([{ generationId: 1, memberId: 'm-1' }]);
  });

  it('a refused commit is still tried again while the generation stands', async () => {
    const { runner, sent } = groupThatRejoins(false);
    await runner.commitOffsets(offsets);
    expect(sent).toEqual([
      { generationId: 1, memberId: 'm-1' },
      { generationId: 1, memberId: 'm-1' },
    ]);
  });
});
