import type { MongoClient } from 'mongodb';
import { Counter } from 'prom-client';
import { registry } from '../../telemetry/metrics';

/**
 * `switch_store_commands_total{command,collection}`: every command the store sends, counted as the
 * driver starts it (retries and cursor `getMore`s included). Divided by the payouts served, it is the
 * store's cost per payout, which the benchmark reports (docs/benchmarks.md).
 */
export const storeCommands = new Counter({
  name: 'switch_store_commands_total',
  help: 'MongoDB commands the store sent, by command and collection (driver command monitoring)',
  labelNames: ['command', 'collection'],
  registers: [registry],
});

/** Counts `client`'s commands; the client must be created with `monitorCommands: true`. */
export function countStoreCommands(client: MongoClient): void {
  client.on('commandStarted', (e) => {
    // The collection is the command's first field (`find: "transactions"`), `getMore`'s is beside it;
    // admin commands (`ping: 1`, `endSessions: [...]`) have none.
    const target: unknown = e.commandName === 'getMore' ? e.command.collection : e.command[e.commandName];
    storeCommands.inc({ command: e.commandName, collection: typeof target === 'string' ? target : 'none' });
  });
}
