import { describe, expect, it } from 'vitest';
import { labelTopicsIn, measured, registry } from './metrics';

async function loopBusySeconds(): Promise<number> {
  const text = await registry.getSingleMetricAsString('switch_event_loop_busy_seconds_total');
  const line = text.split('\n').find((l) => l.startsWith('switch_event_loop_busy_seconds_total '));
  return Number(line?.split(' ')[1]);
}

describe('switch_event_loop_busy_seconds_total', () => {
  it('counts the time the event loop ran callbacks, and never goes down', async () => {
    const before = await loopBusySeconds();
    // 200 ms of callback work, in slices that let the loop turn between them.
    for (let i = 0; i < 10; i++) {
      const end = performance.now() + 20;
      while (performance.now() < end);
      await new Promise((r) => setImmediate(r));
    }
    const after = await loopBusySeconds();
    expect(after - before).toBeGreaterThanOrEqual(0.19);
    expect(await loopBusySeconds()).toBeGreaterThanOrEqual(after);
  });
});

describe('switch_message_processing_duration_seconds', () => {
  it("labels a topic as on the cluster, in the deployment's namespace, like the consumer-lag metric", async () => {
    const count = async (topic: string) => {
      const text = await registry.getSingleMetricAsString('switch_message_processing_duration_seconds');
      const line = text
        .split('\n')
        .find((l) => l.startsWith('switch_message_processing_duration_seconds_count') && l.includes(`topic="${topic}"`));
      return Number(line?.split(' ')[1] ?? 0);
    };
    labelTopicsIn('ns-unit');
    try {
      await measured('label-test', 'switch.router.inbox.v2', async () => undefined)(undefined);
    } finally {
      labelTopicsIn('');
    }
    await measured('label-test', 'switch.router.inbox.v2', async () => undefined)(undefined);
    expect(await count('ns-unit.switch.router.inbox.v2')).toBe(1);
    expect(await count('switch.router.inbox.v2')).toBeGreaterThanOrEqual(1);
  });
});
