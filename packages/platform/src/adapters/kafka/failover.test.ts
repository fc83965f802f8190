import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Type } from '@sinclair/typebox';
import { Kafka, logLevel } from 'kafkajs';
import type { Delivered } from '../../ports/bus';
import type { Topic } from '@switch/core/contracts/topics';
import { KafkaBus } from './bus';

/**
 * A member killed with -9 never leaves its group: the broker keeps its partitions until its session
 * expires. With kafkajs' default session (30 s) the survivors waited that long; the bus's 6 s session
 * and 1 s heartbeats hand the partitions over within seconds. The bound below is generous (20 s, under
 * the old 30 s), not a timing claim.
 */
const brokers =
  process.env.KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean) ?? [];
const registryUrl = process.env.SCHEMA_REGISTRY_URL ?? '';
const Ping = Type.Object({ n: Type.Integer() });

const topic: Topic<typeof Ping> = { name: `failover.${randomUUID().slice(0, 8)}.v1`, schema: Ping, partitions: 2 };
const opened: KafkaBus[] = [];
const children: ChildProcess[] = [];
const cleanup: string[] = [topic.name];

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(opened.map((b) => b.close()));
  const admin = new Kafka({ clientId: 'cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    await admin.deleteTopics({ topics: cleanup.flatMap((t) => [t, `${t}.dlq`]).filter((t) => existing.has(t)) });
  } finally {
    await admin.disconnect();
  }
});

/** Resolves `what` or rejects after `ms`: a bound on waiting, so a regression fails instead of hanging. */
const within = <T>(what: Promise<T>, ms: number, label: string) =>
  Promise.race([what, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${label}: not within ${ms} ms`)), ms).unref())]);

describe('KafkaBus failover', () => {
  it("a member killed with SIGKILL: the survivor gets the dead member's partitions within seconds", async () => {
    if (brokers.length === 0 || !registryUrl) throw new Error('KAFKA_BROKERS and SCHEMA_REGISTRY_URL are required');
    const group = `failover-${randomUUID().slice(0, 8)}`;
    const survivor = new KafkaBus({ brokers, schemaRegistryUrl: registryUrl, clientId: 'survivor' });
    opened.push(survivor);
    await survivor.ensureTopics([topic]);

    // The member to be killed, in its own process.
    const child = spawn(
      resolve(__dirname, '../../../../../node_modules/.bin/vite-node'),
      [resolve(__dirname, '../../../test/fixtures/kafka-member.ts')],
      {
        env: { ...process.env, TOPIC: topic.name, PARTITIONS: String(topic.partitions), GROUP: group },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    const childHandled = new Set<number>();
    let joined!: () => void;
    const childJoined = new Promise<void>((r) => (joined = r));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'joined') joined();
      const m = /^handled (\d+)$/.exec(line);
      if (m) childHandled.add(Number(m[1]));
    });
    await within(childJoined, 60_000, 'child joined');

    const got = new Set<number>();
    const waiters: { until: () => boolean; resolve: () => void }[] = [];
    const notify = () => {
      for (const w of waiters.filter((w) => w.until())) w.resolve();
    };
    const when = (until: () => boolean) => (until() ? Promise.resolve() : new Promise<void>((r) => waiters.push({ until, resolve: r })));
    // Resolves once the group has both members (the child rejoins at its next heartbeat).
    await survivor.subscribe(topic, { group }, async (m: Delivered<{ n: number }>) => {
      got.add(m.value.n);
      notify();
    });

    // Both members own a partition: ten keys spread over the two.
    for (let n = 0; n < 10; n++) await survivor.publish(topic, `key-${n}`, { n });
    const poll = setInterval(notify, 100);
    try {
      await within(
        when(() => got.size + childHandled.size >= 10),
        30_000,
        'first round handled',
      );
      expect(childHandled.size).toBeGreaterThan(0); // the child really held a partition

      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      for (let n = 100; n < 110; n++) await survivor.publish(topic, `key-${n - 100}`, { n });
      await within(
        when(() => [...Array(10).keys()].every((i) => got.has(100 + i))),
        20_000,
        "the killed member's partitions taken over",
      );
    } finally {
      clearInterval(poll);
    }
  }, 120_000);

  it('a handler running longer than the session keeps its partition: the message is handled once', async () => {
    const longTopic: Topic<typeof Ping> = { name: `failover.${randomUUID().slice(0, 8)}.v1`, schema: Ping, partitions: 1 };
    cleanup.push(longTopic.name);
    const group = `long-${randomUUID().slice(0, 8)}`;
    const calls: string[] = [];
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    // Two members, one partition: if the one holding it stopped heartbeating, the broker would hand it
    // to the other after the 6 s session and the message would be handled a second time.
    const member = (name: string) => {
      const b = new KafkaBus({ brokers, schemaRegistryUrl: registryUrl, clientId: name });
      opened.push(b);
      return b.subscribe(longTopic, { group }, async () => {
        calls.push(name);
        await new Promise((r) => setTimeout(r, 9_000)); // a slow bank call, longer than the session
        done();
      });
    };
    await member('a');
    await member('b');
    await opened[opened.length - 1]!.publish(longTopic, 'k', { n: 1 });
    await within(finished, 60_000, 'long handler finished');
    // Had the partition moved mid-handler, the other member would have started the message already.
    expect(calls).toHaveLength(1);
  }, 120_000);
});
