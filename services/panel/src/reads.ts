import { accountReads, BankReadClient, type AccountReads } from '@switch/platform/runtime/account-reads';
import { instanceId as hostInstanceId } from '@switch/platform/config/instance';
import type { Bus } from '@switch/platform/ports/bus';
import type { RoutingTable } from '@switch/core/routing';
import type { PanelStore } from './ports';

/**
 * The merchant API's balance and statement reads for the panel as its own process: it asks the bank
 * connectors over the bus itself, as a gateway does, under an instance id of its own (the connectors
 * answer to `gatewayId`), reading only the replies addressed to it, in a group named after that id
 * (stable across restarts: `panel-` and `SWITCH_INSTANCE_ID`, or the host name).
 */
export async function startPanelReads(deps: {
  bus: Bus;
  store: PanelStore;
  routing: RoutingTable;
  readTimeoutMs: number;
  /** Default `panel-` and the host name. */
  instanceId?: string;
}): Promise<{ reads: AccountReads; instanceId: string; close(): Promise<void> }> {
  const instanceId = deps.instanceId ?? `panel-${hostInstanceId()}`;
  const client = new BankReadClient(deps.bus, instanceId, `${instanceId}-reads`);
  await client.start();
  return {
    reads: accountReads({ routing: deps.routing, store: deps.store, client, readTimeoutMs: deps.readTimeoutMs }),
    instanceId,
    close: () => client.stop(),
  };
}
