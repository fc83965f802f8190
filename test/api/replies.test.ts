import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankRequests, TOPICS, type BankRequestMessage } from '@switch/core/contracts/topics';
import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import type { Bus } from '@switch/platform/ports/bus';
import type { RoutingTable } from '@switch/core/routing';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { buildGateway, loadGatewayConfig, type Gateway } from '@switch/gateway';
import { startRouter, type RouterHandle } from '@switch/router';
import { seedDemoMerchant } from '@switch/embedded';
import { pagarBody } from './helpers';

const log = createLogger('replies-test', 'silent');
const BNC: RoutingTable = { test: [{ banco: 'bnc', capabilities: [...CAPABILITIES] }], live: [] };

/** What one gateway's subscriptions were handed, by topic (the bus it was given, recording). */
function recording(bus: Bus, seen: { topic: string; value: unknown }[]): Bus {
  return new Proxy(bus, {
    get(target, name, receiver) {
      if (name === 'subscribe')
        return (async (topic, options, handler) =>
          target.subscribe(topic, options, async (m) => {
            seen.push({ topic: topic.name, value: m.value });
            await handler(m);
          })) satisfies Bus['subscribe'];
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Whether a delivered payload is about transaction `txnId` (an event, an answer, a command). */
const about = (value: unknown, txnId: string): boolean => {
  const v = value as { txnId?: string; event?: { txnId?: string } };
  return v.txnId === txnId || v.event?.txnId === txnId;
};

/**
 * Two gateway instances on one bus and store, the router, and a bank that answers only when the test
 * says: an answer goes to the gateway that asked, and only there; a repeat of the key at the other
 * gateway, while the first is in flight, still gets the same answer (DESIGN rule 5).
 */
describe('answers go to the gateway that asked', () => {
  const bus = new MemoryBus();
  const store = new MemoryStore();
  const seenA: { topic: string; value: unknown }[] = [];
  const seenB: { topic: string; value: unknown }[] = [];
  const orders: BankRequestMessage[] = [];
  const orderArrived: (() => void)[] = [];
  const executes: { txnId: string; replyTo: string | undefined }[] = [];
  const executeArrived: (() => void)[] = [];
  let router: RouterHandle;
  let a: Gateway;
  let b: Gateway;
  let key: string;

  beforeAll(async () => {
    router = await startRouter({ bus, store, routing: BNC, log, instanceId: 'router-0' });
    // The bank: takes orders and answers nothing by itself.
    await bus.subscribe(bankRequests('bnc'), { group: 'held-bank' }, async ({ value }) => {
      orders.push(value);
      for (const f of orderArrived.splice(0)) f();
    });
    await bus.subscribe(TOPICS.routerInbox, { group: 'probe' }, async ({ value }) => {
      if (value.type !== 'execute') return;
      executes.push({ txnId: value.txnId, replyTo: value.replyTo });
      for (const f of executeArrived.splice(0)) f();
    });
    const config = { ...loadGatewayConfig({}), gatewayReplicas: 1 as const };
    const secrets = SecretBox.ephemeral();
    a = await buildGateway({ store, bus: recording(bus, seenA), routing: BNC, log, config: { ...config, instanceId: 'gw-a' }, secrets });
    b = await buildGateway({ store, bus: recording(bus, seenB), routing: BNC, log, config: { ...config, instanceId: 'gw-b' }, secrets });
    key = (await seedDemoMerchant(store)).switchKey;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await router?.stop();
    await bus.close();
  });

  const until = (list: (() => void)[], done: () => boolean) =>
    done() ? Promise.resolve() : new Promise<void>((resolve) => list.push(() => done() && resolve()));

  const post = (gw: Gateway, body: unknown) =>
    gw.app.inject({ method: 'POST', url: '/switch/v1/pagar', headers: { 'x-switch-key': key }, payload: body as object });
  /** The order the bank holds for the next operation (waits until it arrives). */
  const nextOrder = async (n: number) => {
    await until(orderArrived, () => orders.length === n);
    const order = orders[n - 1]!;
    if (order.op !== 'execute') throw new Error(`expected an order, got ${order.op}`);
    return order;
  };
  const settle = (txnId: string) =>
    bus.publish(TOPICS.routerInbox, txnId, {
      type: 'bank_result',
      txnId,
      attempt: 1,
      op: 'execute',
      outcome: { type: 'settled', referencia: `REF-${txnId.slice(-4)}`, endtoend: null, raw: { codigo: '00' } },
    });

  it('the asking gateway gets the answer; the other gateway is handed nothing about it', async () => {
    const asked = post(a, pagarBody({ via: 'pago_movil' }));
    const order = await nextOrder(1);
    expect(executes.filter((e) => e.txnId === order.txnId)).toEqual([{ txnId: order.txnId, replyTo: 'gw-a' }]);
    await settle(order.txnId);
    const res = await asked;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: order.txnId, estado: 'LIQUIDADA' });
    await bus.drained();
    // A read the answer addressed to it; B was handed nothing about this transaction (no event, no answer).
    expect(seenA.filter((s) => s.topic === TOPICS.gatewayAnswers.name && about(s.value, order.txnId)).length).toBeGreaterThan(0);
    expect(seenB.filter((s) => about(s.value, order.txnId))).toEqual([]);
    // Neither gateway follows the transaction events topic any more.
    expect([...seenA, ...seenB].filter((s) => s.topic === TOPICS.transactions.name)).toEqual([]);
  });

  it('a repeat of the key at the other gateway, while the first is in flight, gets the same answer', async () => {
    const body = pagarBody({ via: 'pago_movil' });
    const first = post(a, body);
    const order = await nextOrder(2);
    // The same key at gateway B while the order is in flight at the bank.
    const repeat = post(b, body);
    await until(executeArrived, () => executes.some((e) => e.txnId === order.txnId && e.replyTo === 'gw-b'));
    await bus.drained();
    await settle(order.txnId);

    const [one, two] = await Promise.all([first, repeat]);
    expect(one.statusCode, one.body).toBe(200);
    expect(two.statusCode, two.body).toBe(200);
    expect(one.json()).toMatchObject({ id: order.txnId, estado: 'LIQUIDADA' });
    expect(two.body).toBe(one.body);
    expect(two.headers['idempotent-replayed']).toBe('true');
    expect(orders.filter((o) => o.op === 'execute' && o.txnId === order.txnId)).toHaveLength(1);
    await bus.drained();
    // B asked too: it was handed the answer addressed to it, and nothing addressed to A.
    const toB = seenB.filter((s) => about(s.value, order.txnId));
    expect(toB.length).toBeGreaterThan(0);
    expect(toB.every((s) => s.topic === TOPICS.gatewayAnswers.name && (s.value as { gatewayId: string }).gatewayId === 'gw-b')).toBe(true);
  });
});
