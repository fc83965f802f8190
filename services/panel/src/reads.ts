import { randomUUID } from 'node:crypto';
import { accountReads, BankReadClient, type AccountReads, type Bus, type RoutingTable, type Store } from '@switch/shared';

/**
 * The merchant API's balance and statement reads for the panel as its own process: it asks the bank
 * connectors over the bus itself, as a gateway does, under an instance id of its own (the connectors
 * answer to `gatewayId`), with a latest-only replies subscription of its own group.
 */
export async function startPanelReads(deps: {
  bus: Bus;
  store: Store;
  routing: RoutingTable;
  readTimeoutMs: number;
}): Promise<{ reads: AccountReads; instanceId: string; close(): Promise<void> }> {
  const instanceId = `panel-${randomUUID().slice(0, 8)}`;
  const client = new BankReadClient(deps.bus, instanceId, instanceId);
  await client.start();
  return {
    reads: accountReads({ routing: deps.routing, store: deps.store, client, readTimeoutMs: deps.readTimeoutMs }),
    instanceId,
    close: () => client.stop(),
  };
}
