import { describe, expect, it, afterEach } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { SchemaViolation, type Bus, type Delivered, type Topic } from '../src';

/**
 * The guarantees of the Bus port (shared/src/ports/bus.ts), run against every adapter so the
 * in-memory bus and Kafka cannot drift apart. `makeBus` gives a fresh bus; topics are unique per test.
 */
export function busContract(name: string, makeBus: () => Promise<Bus>, settle: (bus: Bus) => Promise<void> = async () => {}): void {
  const Ping = Type.Object({ n: Type.Integer(), note: Type.Optional(Type.String()) });
  const freshTopic = (partitions = 3): Topic<typeof Ping> => ({ name: `contract.${randomUUID().slice(0, 8)}.v1`, schema: Ping, partitions });

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

    it('redelivers after a handler failure (at least once)', async () => {
      const b = await bus();
      const topic = freshTopic();
      let calls = 0;
      const c = collector<{ n: number }>(1);
      await b.subscribe(topic, { group: 'g', maxAttempts: 5 }, async (m) => {
        calls++;
        if (calls < 3) throw new Error('transient');
        await c.handler(m);
      });
      await settle(b);
      await b.publish(topic, 'k', { n: 7 });
      await c.all;
      expect(calls).toBe(3);
      expect(c.got[0]!.value).toEqual({ n: 7 });
    });

    it('dead-letters a poison message with its reason and keeps the partition flowing', async () => {
      const b = await bus();
      const topic = freshTopic(1);
      const c = collector<{ n: number }>(1);
      await b.subscribe(topic, { group: 'g', maxAttempts: 2 }, async (m) => {
        if (m.value.n === 0) throw new Error('poison: cannot handle n=0');
        await c.handler(m);
      });
      await settle(b);
      await b.publish(topic, 'k', { n: 0 });
      await b.publish(topic, 'k', { n: 1 });
      await c.all;
      expect(c.got.map((m) => m.value.n)).toEqual([1]);
      const dead = await b.deadLetters(topic.name);
      expect(dead).toHaveLength(1);
      expect(dead[0]).toMatchObject({ topic: topic.name, key: 'k', value: { n: 0 } });
      expect(dead[0]!.reason).toContain('poison');
    });
  });
}
