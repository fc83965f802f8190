import { randomUUID } from 'node:crypto';
import {
  MongoClient,
  type Collection,
  type CommandFailedEvent,
  type CommandSucceededEvent,
  type Document,
  type MongoClientOptions,
} from 'mongodb';
import { metrics } from '../../telemetry/metrics';
import {
  DuplicateRecord,
  type ApiKeyRecord,
  type BankOrderRecord,
  type ClaimResult,
  type IdempotencyClaim,
  type Merchant,
  type MerchantAccount,
  type Store,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../ports/store';
import type { Transaction } from '../../domain/operation';
import { createIndexesOneByOne, insertNew, VersionedCollection } from './versioned';
import { decodeDocument, encodeDocument } from './keys';
import { countStoreCommands } from './command-metrics';

export interface MongoStoreOptions {
  url: string;
  database: string;
  client?: MongoClientOptions;
}

/** A plain record: its own key (`id`, or `scope` for claims) is the primary key `_id`, not kept twice. */
type Row = Document & { _id: string };

function toRow(key: string, record: object): Row {
  const { [key]: id, ...rest } = record as Record<string, unknown>;
  return { ...rest, _id: id as string };
}

function fromRow<T>(key: string, row: Row | null): T | null {
  if (!row) return null;
  const { _id, ...rest } = row;
  return { [key]: _id, ...rest } as T;
}

function accountOf(row: Row): MerchantAccount {
  const { _id: _key, ...account } = row;
  return account as unknown as MerchantAccount;
}

/**
 * `switch_store_command_duration_seconds` by collection and command, from the driver's command
 * monitoring: where the store's time goes (a query the server scans shows up here first).
 */
function observeCommandLatency(client: MongoClient): void {
  const collections = new Map<number, string>();
  client.on('commandStarted', (e) => {
    const target: unknown = e.commandName === 'getMore' ? e.command.collection : e.command[e.commandName];
    collections.set(e.requestId, typeof target === 'string' ? target : 'none');
  });
  const observe = (e: CommandSucceededEvent | CommandFailedEvent, outcome: 'ok' | 'error') => {
    const collection = collections.get(e.requestId) ?? 'none';
    collections.delete(e.requestId);
    metrics.storeCommandDuration.observe({ collection, command: e.commandName, outcome }, e.duration / 1000);
  };
  client.on('commandSucceeded', (e) => observe(e, 'ok'));
  client.on('commandFailed', (e) => observe(e, 'error'));
}

/** Whether a delivery can be leased at `now` (same rule as the memory store). */
const leasable = (d: WebhookDelivery, now: string) =>
  d.status === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= now && (d.lease === null || d.lease.until < now);

/**
 * MongoDB adapter of the Store port, for MongoDB 7 and FerretDB 1.24 on SQLite (CI).
 *
 * Merchants, keys, endpoints and claims are plain documents: inserts are atomic through the unique
 * `_id`, and their few updates are single-field flags. Transactions and webhook deliveries change by
 * compare-and-set, which FerretDB cannot do with a filtered update; see ./versioned.ts.
 * Collections: merchants, api_keys, webhook_endpoints, merchant_accounts, idempotency_claims, transactions (+
 * transactions_revisions), webhook_deliveries (+ webhook_deliveries_revisions).
 */
export class MongoStore implements Store {
  private readonly client: MongoClient;
  private readonly merchantRows: Collection<Row>;
  private readonly keyRows: Collection<Row>;
  private readonly webhookRows: Collection<Row>;
  private readonly claimRows: Collection<Row>;
  private readonly accountRows: Collection<Row>;
  private readonly counterEntries: Collection<Row>;
  private readonly gatewayBeatRows: Collection<Row>;
  private readonly orderRows: Collection<Row>;
  private readonly referenceSeqRows: Collection<Row>;
  private readonly referenceRows: Collection<Row>;
  private readonly txs: VersionedCollection<Transaction>;
  private readonly deliveryDocs: VersionedCollection<WebhookDelivery>;

  /** Not connected yet: prefer `MongoStore.connect`, which also creates the indexes. */
  constructor(options: MongoStoreOptions) {
    // ignoreUndefined: an optional field holding `undefined` (Attempt.outcome while an order is in
    // flight) must read back as absent, as from the memory store, not as `null`.
    // Every command is bounded: a server that stops answering (paused, partitioned) fails the command
    // after `socketTimeoutMS` instead of holding its caller for ever (a notifier round waited on one
    // for good after a 20 s store pause). Callers retry: bus handlers until success, loops next round.
    this.client = new MongoClient(options.url, {
      socketTimeoutMS: 30_000,
      serverSelectionTimeoutMS: 15_000,
      ...options.client,
      ignoreUndefined: true,
      monitorCommands: true,
    });
    observeCommandLatency(this.client);
    countStoreCommands(this.client);
    const db = this.client.db(options.database);
    this.merchantRows = db.collection('merchants');
    this.keyRows = db.collection('api_keys');
    this.webhookRows = db.collection('webhook_endpoints');
    this.claimRows = db.collection('idempotency_claims');
    // `_id` = mode|cuenta: an account number belongs to one merchant per mode, by the unique key.
    this.accountRows = db.collection('merchant_accounts');
    this.counterEntries = db.collection('counter_entries');
    this.gatewayBeatRows = db.collection('gateway_beats');
    this.orderRows = db.collection('bank_orders');
    this.referenceSeqRows = db.collection('bank_reference_numbers');
    this.referenceRows = db.collection('bank_references');
    // `_unannounced`: FerretDB cannot index (or push down) `announcedVersion < version`, so it is stored.
    this.txs = new VersionedCollection(db, 'transactions', {
      key: 'id',
      derived: (tx) => ({ _unannounced: tx.announcedVersion < tx.version }),
    });
    this.deliveryDocs = new VersionedCollection(db, 'webhook_deliveries', { key: 'id' });
  }

  static async connect(options: MongoStoreOptions): Promise<MongoStore> {
    const store = new MongoStore(options);
    try {
      await store.client.connect();
      await store.ensureIndexes();
    } catch (e) {
      await store.client.close();
      throw e;
    }
    return store;
  }

  /** Idempotent (see createIndexesOneByOne); `connect` runs it. */
  async ensureIndexes(): Promise<void> {
    await createIndexesOneByOne(this.keyRows, [{ key: { merchantId: 1 } }]);
    await createIndexesOneByOne(this.webhookRows, [{ key: { merchantId: 1, mode: 1 } }]);
    await createIndexesOneByOne(this.accountRows, [{ key: { merchantId: 1, mode: 1 } }]);
    await createIndexesOneByOne(this.counterEntries, [{ key: { key: 1 } }]);
    await createIndexesOneByOne(this.orderRows, [{ key: { txnId: 1 } }]);
    await createIndexesOneByOne(this.referenceSeqRows, [{ key: { scope: 1, n: -1 } }]);
    await this.txs.ensureIndexes([
      { key: { estado: 1, createdAt: 1 } },
      { key: { _unannounced: 1, updatedAt: 1 } },
      { key: { nextCheckAt: 1 } },
    ]);
    await this.deliveryDocs.ensureIndexes([{ key: { status: 1, nextAttemptAt: 1 } }, { key: { txnId: 1 } }]);
  }

  readonly merchants: Store['merchants'] = {
    insert: async (m) => {
      if (!(await insertNew(this.merchantRows, toRow('id', m)))) throw new DuplicateRecord('merchants', m.id);
    },
    get: async (id) => fromRow<Merchant>('id', await this.merchantRows.findOne({ _id: id })),
    list: async () => (await this.merchantRows.find().sort({ createdAt: 1, _id: 1 }).toArray()).map((r) => fromRow<Merchant>('id', r)!),
    setActive: async (id, active) => (await this.merchantRows.updateOne({ _id: id }, { $set: { active } })).matchedCount === 1,
  };

  // revoke/deactivate only ever set a flag off; on FerretDB two racing calls may both answer true.
  readonly apiKeys: Store['apiKeys'] = {
    insert: async (k) => {
      if (!(await insertNew(this.keyRows, toRow('id', k)))) throw new DuplicateRecord('apiKeys', k.id);
    },
    listForMerchant: async (merchantId) =>
      (await this.keyRows.find({ merchantId }).sort({ createdAt: 1, _id: 1 }).toArray()).map((r) => fromRow<ApiKeyRecord>('id', r)!),
    revoke: async (id, at) =>
      (await this.keyRows.updateOne({ _id: id, active: true }, { $set: { active: false, revokedAt: at } })).matchedCount === 1,
  };

  readonly webhooks: Store['webhooks'] = {
    insert: async (e) => {
      if (!(await insertNew(this.webhookRows, toRow('id', e)))) throw new DuplicateRecord('webhooks', e.id);
    },
    listForMerchant: async (merchantId, mode) =>
      (
        await this.webhookRows
          .find(mode === undefined ? { merchantId } : { merchantId, mode })
          .sort({ createdAt: 1, _id: 1 })
          .toArray()
      ).map((r) => fromRow<WebhookEndpoint>('id', r)!),
    deactivate: async (id) => (await this.webhookRows.updateOne({ _id: id, active: true }, { $set: { active: false } })).matchedCount === 1,
  };

  readonly accounts: Store['accounts'] = {
    register: async (a) => insertNew(this.accountRows, { ...a, _id: `${a.mode}|${a.cuenta}` }),
    list: async (merchantId, mode) =>
      (
        await this.accountRows
          .find(mode === undefined ? { merchantId } : { merchantId, mode })
          .sort({ createdAt: 1, _id: 1 })
          .toArray()
      ).map(accountOf),
    find: async (mode, cuenta) => {
      const row = await this.accountRows.findOne({ _id: `${mode}|${cuenta}` });
      return row ? accountOf(row) : null;
    },
  };

  readonly idempotency: Store['idempotency'] = {
    // `_id` = scope: the unique-key insert is the atomic claim on both servers.
    claim: async (claim): Promise<ClaimResult> => {
      if (await insertNew(this.claimRows, toRow('scope', claim))) return { claimed: true };
      const existing = await this.idempotency.get(claim.scope);
      if (!existing) throw new Error(`idempotency claim ${claim.scope} conflicted but cannot be read`);
      return { claimed: false, existing };
    },
    get: async (scope) => fromRow<IdempotencyClaim>('scope', await this.claimRows.findOne({ _id: scope })),
  };

  readonly transactions: Store['transactions'] = {
    insert: (tx) => this.txs.insert(tx),
    get: (id) => this.txs.get(id),
    replace: async (tx, expectedVersion) =>
      (await this.txs.update(tx.id, (current) => (current.version === expectedVersion ? tx : null))) !== null,
    listByEstado: async (estados, limit) =>
      estados.length === 0 ? [] : this.txs.find({ estado: { $in: estados } }, { createdAt: 1, _id: 1 }, limit),
    listUnannounced: (limit) => this.txs.find({ _unannounced: true }, { updatedAt: 1, _id: 1 }, limit),
    // `$type: string` keeps null (nothing owed) out by the query itself, not after reading.
    listDue: (now, limit, after) => {
      const due: Document = { nextCheckAt: { $type: 'string', $lte: now } };
      const filter: Document = after
        ? { $and: [due, { $or: [{ nextCheckAt: { $gt: after.at } }, { nextCheckAt: after.at, _id: { $gt: after.id } }] }] }
        : due;
      return this.txs.find(filter, { nextCheckAt: 1, _id: 1 }, limit);
    },
  };

  /**
   * One plain document per order: the unique `_id` insert is the atomic claim on both servers, and
   * only the claimer sets the outcome, so no compare-and-set is needed. The outcome goes through the
   * key codec: a bank's raw answer may have any keys.
   */
  readonly bankOrders: Store['bankOrders'] = {
    claim: async (record) => {
      const { outcome, ...rest } = record;
      if (await insertNew(this.orderRows, { ...toRow('id', rest), outcome: outcome === null ? null : encodeDocument(outcome) } as Row))
        return { claimed: true };
      const existing = await this.bankOrders.get(record.id);
      if (!existing) throw new Error(`bank order ${record.id} conflicted but cannot be read`);
      return { claimed: false, existing };
    },
    recordOutcome: async (id, outcome, at) => {
      const r = await this.orderRows.updateOne({ _id: id }, { $set: { outcome: encodeDocument(outcome), recordedAt: at } });
      if (r.matchedCount !== 1) throw new Error(`bank order ${id} was never claimed`);
    },
    get: async (id) => {
      const row = fromRow<BankOrderRecord>('id', await this.orderRows.findOne({ _id: id }));
      return row && { ...row, outcome: row.outcome === null ? null : (decodeDocument(row.outcome) as BankOrderRecord['outcome']) };
    },
  };

  /**
   * A counter is the sum of its entries. Each addition is one insert (atomic on FerretDB, where a
   * read-modify-write `$inc` is not) and the total is read after it, so the last of concurrent adders
   * sees every earlier addition: a limit can be refused twice but never passed twice. Amounts are
   * kept in integer cents so sums do not drift.
   */
  /**
   * A scope's sequence is a set of rows `<scope>#<n>`: a number is taken by inserting its row (atomic
   * by the unique _id, also on FerretDB where `$inc` is not), after reading the highest taken. A
   * concurrent taker of the same number loses the insert and tries the next one.
   */
  readonly bankReferences: Store['bankReferences'] = {
    assign: async (scope, key) => {
      const id = `${scope}|${key}`;
      const found = await this.bankReferences.find(scope, key);
      if (found !== null) return found;
      for (;;) {
        const top = await this.referenceSeqRows.find({ scope }).sort({ n: -1 }).limit(1).toArray();
        const n = (typeof top[0]?.n === 'number' ? (top[0].n as number) : 0) + 1;
        if (!(await insertNew(this.referenceSeqRows, { _id: `${scope}#${n}`, scope, n, key } as Row))) continue;
        if (await insertNew(this.referenceRows, { _id: id, scope, key, n } as Row)) return n;
        // Another replica assigned this key meanwhile: its number stands (ours stays unused).
        const other = await this.bankReferences.find(scope, key);
        if (other !== null) return other;
      }
    },
    find: async (scope, key) => {
      const row = await this.referenceRows.findOne({ _id: `${scope}|${key}` });
      return typeof row?.n === 'number' ? (row.n as number) : null;
    },
  };

  readonly counters: Store['counters'] = {
    add: async (key, amount, count) => {
      if (amount !== 0 || count !== 0) {
        await this.counterEntries.insertOne({ _id: `${key}#${randomUUID()}`, key, cents: Math.round(amount * 100), count } as Row);
      }
      let cents = 0;
      let total = 0;
      for await (const e of this.counterEntries.find({ key }, { projection: { cents: 1, count: 1 } })) {
        cents += (e as { cents?: number }).cents ?? 0;
        total += (e as { count?: number }).count ?? 0;
      }
      return { amount: cents / 100, count: total };
    },
  };

  readonly gatewayReplicas: Store['gatewayReplicas'] = {
    beat: async (id, at, windowMs) => {
      // One document per gateway, replaced whole (no $inc or $max: FerretDB runs them unatomically).
      await this.gatewayBeatRows.replaceOne({ _id: id }, { _id: id, at } as Row, { upsert: true });
      const since = new Date(Date.parse(at) - windowMs).toISOString();
      // Gateways gone for a day are forgotten; the collection stays as small as the fleet.
      await this.gatewayBeatRows.deleteMany({ at: { $lt: new Date(Date.parse(at) - 86_400_000).toISOString() } });
      return this.gatewayBeatRows.countDocuments({ at: { $gte: since } });
    },
  };

  readonly deliveries: Store['deliveries'] = {
    insert: (d) => this.deliveryDocs.insert(d),
    get: (id) => this.deliveryDocs.get(id),
    listForTransaction: (txnId) => this.deliveryDocs.find({ txnId }, { createdAt: 1, _id: 1 }),
    claimDue: async (now, owner, leaseUntil) => {
      const query = { status: 'pending', nextAttemptAt: { $ne: null, $lte: now }, $or: [{ lease: null }, { 'lease.until': { $lt: now } }] };
      const candidates = await this.deliveryDocs.find(query, { nextAttemptAt: 1, _id: 1 }, 10);
      // Workers and replicas polling together see the same candidates; starting each at a random one
      // spreads them instead of all racing for the first.
      const start = Math.floor(Math.random() * candidates.length);
      for (const c of [...candidates.slice(start), ...candidates.slice(0, start)]) {
        // Re-checked on the current state: of replicas leasing the same delivery, one write wins.
        const leased = await this.deliveryDocs.update(c.id, (d) =>
          leasable(d, now) ? { ...d, lease: { owner, until: leaseUntil } } : null,
        );
        if (leased) return leased;
      }
      // Nothing due, or every candidate went to another worker: this worker rests until the next poll
      // (looking again at once made idle workers re-read the collection in a loop).
      return null;
    },
    complete: async (id, owner, update) =>
      (await this.deliveryDocs.update(id, (d) => (d.lease?.owner === owner ? { ...d, ...update, lease: null } : null))) !== null,
    requeue: async (id, now) =>
      (await this.deliveryDocs.update(id, (d) => ({ ...d, status: 'pending', nextAttemptAt: now, lease: null, updatedAt: now }))) !== null,
    countByStatus: async () => {
      const [pending, delivered, exhausted] = await Promise.all(
        (['pending', 'delivered', 'exhausted'] as const).map((status) => this.deliveryDocs.count({ status })),
      );
      return { pending: pending!, delivered: delivered!, exhausted: exhausted! };
    },
  };

  async ping(): Promise<void> {
    await this.client.db('admin').command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
