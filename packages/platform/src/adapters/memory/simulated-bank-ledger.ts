import type { SimulatedLedger, SimulatedOrder } from '@switch/connector-kit/simulated-ledger';

/** The simulated bank's ledger in this process (the memory store's): one per store, shared by its users. */
export function memorySimulatedBankLedger(): SimulatedLedger {
  const orders = new Map<string, SimulatedOrder>();
  const received = new Map<string, number>();
  const copy = (o: SimulatedOrder): SimulatedOrder => structuredClone(o);
  return {
    take: async (order) => {
      received.set(order.orderRef, (received.get(order.orderRef) ?? 0) + 1);
      const held = orders.get(order.orderRef);
      if (held) return { first: false, order: copy(held) };
      orders.set(order.orderRef, copy(order));
      return { first: true, order: copy(order) };
    },
    get: async (orderRef) => {
      const o = orders.get(orderRef);
      return o ? copy(o) : null;
    },
    postings: async (merchantId, cuenta) =>
      [...orders.values()].filter((o) => o.merchantId === merchantId && o.posting?.cuenta === cuenta).map(copy),
    all: async () => [...orders.values()].map((o) => ({ order: copy(o), received: received.get(o.orderRef) ?? 0 })),
  };
}
