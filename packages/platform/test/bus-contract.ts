import { describe, expect, it, afterEach } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { metrics } from '../src/telemetry/metrics';
import { PoisonMessage } from '@switch/core/contracts/errors';
import type { Bus, DeadLetter, Delivered } from '../src/ports/bus';
import { SchemaViolation } from '@switch/core/contracts/errors';
import type { Topic } from '@switch/core/contracts/topics';

/**
 * The guarantees of the Bus port (packages/platform/src/ports/bus.ts), run against every adapter so the
 * in-memory bus and Kafka cannot drift apart. `makeBus` gives a fresh bus; topics are unique per test.
 */
export function busContract(name: string, makeBus: () => Promise<Bus>, settle: (bus: Bus) => Promise<void> = async () => {}): void {
  const Ping = Type.Object({ n: Type.Integer(), note: Type.Optional(Type.String()) });
  const freshTopic = (partitions = 3): Topic<typeof Ping> => ({
    name: `contract.${randomUUID().slice(0, 8)}.v1`,
    schema: Ping,
    partitions,
  });

  /** Resolves when `count` messages were collected (no sleeps: the handler itself signals). */
  const collector = <T>(count: number) => {
    const got: Delivered<T>[] = [];
    let done!: () => void;
    const all = new Promise<void>((r) => (done = r));
    return {
      got,
      all,
      handler: async (m: Delivered<T>) => {
        got.push(m);
        if (got.length === count) done();
      },
    };
  };

  describe(`Bus contract: ${name}`, () => {
    const open: Bus[] = [];
    const bus = async () => {
      const b = await makeBus();
      open.push(b);
      return b;
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((b) => b.close()));
    });

    it('refuses a payload that violates the topic schema, and delivers nothing', async () => {
      const b = await bus();
      const topic = freshTopic();
      const c = collector<{ n: number }>(1);
      await b.subscribe(topic, { group: 'g' }, c.handler);
      await settle(b);
      await expect(b.publish(topic, 'k', { n: 'one' } as never)).rejects.toBeInstanceOf(SchemaViolation);
      await b.publish(topic, 'k', { n: 1 });
      await c.all;
      expect(c.got.map((m) => m.value)).toEqual([{ n: 1 }]);
    });

    it('delivers the messages of one key in publish order, with key and headers', async () => {
      const b = await bus();
      const topic = freshTopic();
      const c = collector<{ n: number }>(20);
      await b.subscribe(topic, { group: 'g' }, c.handler);
      await settle(b);
      for (let n = 0; n < 20; n++) await b.publish(topic, 'same-key', { n }, { trace: `t${n}` });
      await c.all;
      expect(c.got.map((m) => m.value.n)).toEqual([...Array(20).keys()]);
      expect(c.got[0]!.key).toBe('same-key');
      expect(c.got[5]!.headers.trace).toBe('t5');
    });

    it('handles one key one message at a time within a group', async () => {
      const b = await bus();
      const topic = freshTopic();
      let active = 0;
      let overlap = false;
      const c = collector<{ n: number }>(10);
      await b.subscribe(topic, { group: 'g' }, async (m) => {
        active++;
        if (active > 1) overlap = true;
        await new Promise((r) => setImmediate(r));
        active--;
        await c.handler(m);
      });
      await settle(b);
      await Promise.all([...Array(10).keys()].map((n) => b.publish(topic, 'k1', { n })));
      await c.all;
      expect(overlap).toBe(false);
    });

    it('marks deliveries with the assignment epoch: kept while a member holds its partitions, new once another joins', async () => {
      const b = await bus();
      const topic = freshTopic(1);
      const seen: Delivered<{ n: number }>[] = [];
      const waiters: { n: number; resolve: () => void }[] = [];
      const member = async (m: Delivered<{ n: number }>) => {
        seen.push(m);
        for (const w of waiters) if (w.n === m.value.n) w.resolve();
      };
      const arrival = (n: number) =>
        seen.some((m) => m.value.n === n) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }));
      const find = (n: number) => seen.find((m) => m.value.n === n)!;
      await b.subscribe(topic, { group: 'g' }, member);
      await settle(b);
      await b.publish(topic, 'k', { n: 1 });
      await b.publish(topic, 'k', { n: 2 });
      await arrival(2);
      const before = find(1).epoch;
      expect(before).toEqual(expect.any(Number));
      expect(find(2).epoch).toBe(before);
      // A member joins the group: whoever holds the partition now, a state kept under the old epoch is no longer trusted.
      await b.subscribe(topic, { group: 'g' }, member);
      await settle(b);
      await b.publish(topic, 'k', { n: 3 });
      await arrival(3);
      expect(find(3).epoch).toEqual(expect.any(Number));
      expect(find(3).epoch).not.toBe(before);
    });

    it('gives every group every message', async () => {
      const b = await bus();
      const topic = freshTopic();
      const a = collector<{ n: number }>(5);
      const z = collector<{ n: number }>(5);
      await b.subscribe(topic, { group: 'a' }, a.handler);
      await b.subscribe(topic, { group: 'z' }, z.handler);
      await settle(b);
      for (let n = 0; n < 5; n++) await b.publish(topic, `k${n}`, { n });
      await Promise.all([a.all, z.all]);
      expect(a.got.map((m) => m.value.n).sort()).toEqual([0, 1, 2, 3, 4]);
      expect(z.got.map((m) => m.value.n).sort()).toEqual([0, 1, 2, 3, 4]);
    });

    it('on an addressed topic, a one-key subscription receives that key only; another key is never delivered to it', async () => {
      const b = await bus();
      // One partition: every key shares it, so only the key filter keeps them apart, and the last
      // message of a key arriving means everything published before it was seen or skipped.
      const topic = { ...freshTopic(1), addressed: true };
      const a = collector<{ n: number }>(3);
      const z = collector<{ n: number }>(2);
      const all = collector<{ n: number }>(5);
      await b.subscribe(topic, { group: 'gw-a', key: 'instance-a', latestOnly: true }, a.handler);
      await b.subscribe(topic, { group: 'gw-z', key: 'instance-z', latestOnly: true }, z.handler);
      await b.subscribe(topic, { group: 'whole' }, all.handler);
      await settle(b);
      const keys = ['instance-z', 'instance-a', 'instance-z', 'instance-a', 'instance-a'];
      for (const [n, key] of keys.entries()) await b.publish(topic, key, { n });
      await Promise.all([a.all, z.all, all.all]);
      expect(a.got.map((m) => [m.key, m.value.n])).toEqual([
        ['instance-a', 1],
        ['instance-a', 3],
        ['instance-a', 4],
      ]);
      expect(z.got.map((m) => [m.key, m.value.n])).toEqual([
        ['instance-z', 0],
        ['instance-z', 2],
      ]);
      await expect(b.subscribe(freshTopic(), { group: 'g', key: 'instance-a' }, a.handler)).rejects.toThrow(/not addressed/);
    });

    it('on an addressed topic with several partitions, each instance gets its own key', async () => {
      const b = await bus();
      const topic = { ...freshTopic(4), addressed: true };
      const ids = ['gw-0', 'gw-1', 'gw-2', 'gw-3', 'gw-4', 'gw-5'];
      const got = new Map<string, string[]>();
      const done = ids.map(() => collector<{ n: number }>(2));
      for (const [i, id] of ids.entries()) {
        await b.subscribe(topic, { group: `g-${id}`, key: id, latestOnly: true }, async (m) => {
          got.set(id, [...(got.get(id) ?? []), m.key]);
          await done[i]!.handler(m);
        });
      }
      await settle(b);
      for (let round = 0; round < 2; round++) for (const [n, id] of ids.entries()) await b.publish(topic, id, { n });
      await Promise.all(done.map((d) => d.all));
      for (const id of ids) expect(got.get(id)).toEqual([id, id]);
    });

    it('with a header filter, delivers the messages it lets through, in order, and no other (none without the header)', async () => {
      const b = await bus();
      const topic = freshTopic(1);
      const c = collector<{ n: number }>(3);
      const seen: number[] = [];
      await b.subscribe(topic, { group: 'live-only', only: { header: 'mode', values: ['live'] } }, async (m) => {
        seen.push(m.value.n);
        await c.handler(m);
      });
      await settle(b);
      const modes = ['test', 'live', 'test', undefined, 'test', 'live', 'other', 'live'];
      for (const [n, mode] of modes.entries()) await b.publish(topic, 'k', { n }, mode === undefined ? {} : { mode });
      await c.all; // the last message is let through: everything before it was delivered or skipped
      expect(seen).toEqual([1, 5, 7]);
      expect(c.got.map((m) => m.headers.mode)).toEqual(['live', 'live', 'live']);
      expect(await b.deadLetters(topic.name)).toEqual([]);
    });

    it('retries a failing handler until it succeeds, past the old attempt limit, and dead-letters nothing', async () => {
      const b = await bus();
      const topic = freshTopic();
      let calls = 0;
      const c = collector<{ n: number }>(1);
      await b.subscribe(topic, { group: 'g' }, async (m) => {
        calls++;
        if (calls <= 8) throw new Error('store unreachable'); // an outage longer than any fixed attempt budget
        await c.handler(m);
      });
      await settle(b);
      await b.publish(topic, 'k', { n: 7 });
      await c.all;
      expect(calls).toBe(9);
      expect(c.got[0]!.value).toEqual({ n: 7 });
      expect(await b.deadLetters(topic.name)).toEqual([]);
      // Each retried failure is counted for the dashboards (switch_bus_handler_retries_total).
      const counted = (await metrics.handlerRetries.get()).values.find((v) => v.labels.topic === topic.name && v.labels.group === 'g');
      expect(counted?.value).toBe(8);
    });

    it('a subscription closing while its message is being retried stops retrying, and dead-letters nothing', async () => {
      const b = await bus();
      const topic = freshTopic(1);
      let calls = 0;
      let failedTwice!: () => void;
      const twice = new Promise<void>((r) => (failedTwice = r));
      const sub = await b.subscribe(topic, { group: 'g' }, async () => {
        if (++calls === 2) failedTwice();
        throw new Error('store unreachable');
      });
      await settle(b);
      await b.publish(topic, 'k', { n: 1 });
      await twice;
      await sub.close(); // resolves: the retry loop ends instead of holding the shutdown
      const after = calls;
      expect(await b.deadLetters(topic.name)).toEqual([]);
      expect(calls).toBe(after);
    });

    it('keeps the order of one key while a message is retried: the ones behind it wait', async () => {
      const b = await bus();
      const topic = freshTopic();
      let failures = 0;
      const c = collector<{ n: number }>(5);
      await b.subscribe(topic, { group: 'g' }, async (m) => {
        if (m.value.n === 1 && failures < 4) {
          failures++;
          throw new Error('transient');
        }
        await c.handler(m);
      });
      await settle(b);
      for (let n = 0; n < 5; n++) await b.publish(topic, 'same-key', { n });
      await c.all;
      expect(failures).toBe(4);
      expect(c.got.map((m) => m.value.n)).toEqual([0, 1, 2, 3, 4]);
      expect(await b.deadLetters(topic.name)).toEqual([]);
    });

    it('dead-letters a PoisonMessage at once with its reason, and keeps the partition flowing', async () => {
      const b = await bus();
      const topic = freshTopic(1);
      let poisonCalls = 0;
      const c = collector<{ n: number }>(1);
      await b.subscribe(topic, { group: 'g' }, async (m) => {
        if (m.value.n === 0) {
          poisonCalls++;
          // What the handler does to its copy is not what was published: the dead letter keeps the latter.
          m.value.n = -1;
          m.value.note = 'changed by the handler';
          throw new PoisonMessage('cannot handle n=0');
        }
        await c.handler(m);
      });
      await settle(b);
      await b.publish(topic, 'k', { n: 0 });
      await b.publish(topic, 'k', { n: 1 });
      await c.all;
      expect(poisonCalls).toBe(1);
      expect(c.got.map((m) => m.value.n)).toEqual([1]);
      const dead = await b.deadLetters(topic.name);
      expect(dead).toHaveLength(1);
      expect(dead[0]).toMatchObject({ topic: topic.name, key: 'k', redriven: false });
      expect(dead[0]!.value).toEqual({ n: 0 });
      expect(dead[0]!.reason).toContain('cannot handle n=0');
      expect(dead[0]!.id).toMatch(/^\d+:\d+$/);
    });

    it('with the opt-in maxAttempts (best-effort listeners) dead-letters after that many attempts', async () => {
      const b = await bus();
      const topic = freshTopic(1);
      let calls = 0;
      const c = collector<{ n: number }>(1);
      await b.subscribe(topic, { group: 'g', maxAttempts: 2 }, async (m) => {
        if (m.value.n === 0) {
          calls++;
          throw new Error('listener failed');
        }
        await c.handler(m);
      });
      await settle(b);
      await b.publish(topic, 'k', { n: 0 });
      await b.publish(topic, 'k', { n: 1 });
      await c.all;
      expect(calls).toBe(2);
      const dead = await b.deadLetters(topic.name);
      expect(dead.map((d) => [d.value, d.reason])).toEqual([[{ n: 0 }, 'listener failed']]);
    });

    it('redrives dead letters to their topic with key and headers, once; refuses what the schema refuses', async () => {
      const b = await bus();
      const topic = freshTopic(1);
      let healed = false;
      const c = collector<{ n: number }>(1);
      await b.subscribe(topic, { group: 'g' }, async (m) => {
        if (!healed) throw new PoisonMessage(`refused n=${m.value.n}`);
        await c.handler(m);
      });
      await settle(b);
      await b.publish(topic, 'k0', { n: 0 }, { trace: 't0' });
      await b.publish(topic, 'k1', { n: 1, note: 'x' });
      let dead = await b.deadLetters(topic.name);
      for (let i = 0; dead.length < 2 && i < 200; i++) {
        await new Promise((r) => setTimeout(r, 50));
        dead = await b.deadLetters(topic.name);
      }
      expect(dead.map((d) => d.value)).toEqual([{ n: 0 }, { n: 1, note: 'x' }]);
      const [first, second] = dead as [DeadLetter, DeadLetter];
      expect(new Set(dead.map((d) => d.id)).size).toBe(2);

      // The topic's schema has since become stricter: an entry without `note` cannot pass it.
      const stricter = { ...topic, schema: Type.Object({ n: Type.Integer(), note: Type.String() }) };
      healed = true;
      const report = await b.redriveDeadLetters(stricter);
      expect(report.redriven).toEqual([second.id]);
      expect(report.refused).toEqual([{ id: first.id, reason: expect.stringContaining('schema') }]);
      await c.all;
      expect(c.got.map((m) => [m.key, m.value])).toEqual([['k1', { n: 1, note: 'x' }]]);

      // Redriven once only; the refused one is left as it was and can go once the schema allows it.
      expect((await b.redriveDeadLetters(topic, [second.id])).refused).toEqual([{ id: second.id, reason: 'already redriven' }]);
      expect((await b.redriveDeadLetters(topic, ['9:999'])).refused).toEqual([{ id: '9:999', reason: 'no such dead letter' }]);
      expect((await b.deadLetters(topic.name)).map((d) => [d.id, d.redriven])).toEqual([
        [first.id, false],
        [second.id, true],
      ]);
      const again = collector<{ n: number }>(1);
      await b.subscribe(topic, { group: 'other' }, again.handler); // a group that also sees the redriven copy
      await settle(b);
      expect((await b.redriveDeadLetters(topic)).redriven).toEqual([first.id]);
      await again.all;
      expect(again.got[0]).toMatchObject({ key: 'k0', value: { n: 0 } });
      expect(again.got[0]!.headers.trace).toBe('t0');
      expect((await b.redriveDeadLetters(topic)).redriven).toEqual([]);
    });
  });
}
