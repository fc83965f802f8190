import { describe, expect, it } from 'vitest';
import { MemoryBus } from '../adapters/memory/bus';
import { TOPICS } from '@switch/core/contracts/topics';
import { BankHealthView } from './bank-health';

describe('bank health as the router sees it', () => {
  it('keeps test and live apart: an open breaker on one mode steers only that mode', async () => {
    const bus = new MemoryBus();
    const view = new BankHealthView();
    await view.follow(bus);
    const at = new Date().toISOString();
    await bus.publish(TOPICS.bankHealth, 'banco_plaza|test', { banco: 'banco_plaza', mode: 'test', openOperations: ['pagar'], at });
    await bus.publish(TOPICS.bankHealth, 'banco_plaza|live', { banco: 'banco_plaza', mode: 'live', openOperations: [], at });
    await bus.drained();
    expect([...view.unavailable('test')]).toEqual(['banco_plaza']);
    expect([...view.unavailable('live')]).toEqual([]);
    await bus.publish(TOPICS.bankHealth, 'banco_plaza|test', { banco: 'banco_plaza', mode: 'test', openOperations: [], at });
    await bus.drained();
    expect([...view.unavailable('test')]).toEqual([]);
    await bus.close();
  });

  it('forgets reports older than its staleness bound', async () => {
    const bus = new MemoryBus();
    const view = new BankHealthView(0);
    await view.follow(bus);
    await bus.publish(TOPICS.bankHealth, 'bnc|live', {
      banco: 'bnc',
      mode: 'live',
      openOperations: ['pagar'],
      at: new Date().toISOString(),
    });
    await bus.drained();
    expect([...view.unavailable('live')]).toEqual([]);
    await bus.close();
  });

  it('two connector replicas disagreeing: the bank stays routed around, whichever reported last', async () => {
    const bus = new MemoryBus();
    const view = new BankHealthView();
    await view.follow(bus);
    const report = (replica: string, open: boolean) =>
      bus.publish(TOPICS.bankHealth, `bnc|live|${replica}`, {
        banco: 'bnc',
        mode: 'live',
        openOperations: open ? ['pagar'] : [],
        at: new Date().toISOString(),
        replica,
      });
    // Each replica reports on its own timer: the reports interleave.
    for (const [replica, open] of [
      ['bank-bnc-a', true],
      ['bank-bnc-b', false],
      ['bank-bnc-a', true],
      ['bank-bnc-b', false],
    ] as const) {
      await report(replica, open);
      await bus.drained();
      expect([...view.unavailable('live')]).toEqual(['bnc']);
    }
    await report('bank-bnc-a', false);
    await bus.drained();
    expect([...view.unavailable('live')]).toEqual([]);
    expect(
      view
        .replicas()
        .map((r) => r.replica)
        .sort(),
    ).toEqual(['bank-bnc-a', 'bank-bnc-b']);
    await bus.close();
  });
});
