import { randomUUID } from 'node:crypto';
import { MongoLeases } from './leases';
import { MongoOverviewSummaries } from './overview-summaries';
import { STORE_SELECTION_TIMEOUT_MS } from '../../config/timings';
import {
  MongoClient,
  type Collection,
  type CommandFailedEvent,
  type CommandSucceededEvent,
  type Db,
  type Document,
  type Filter,
  type MongoClientOptions,
  type WriteConcernSettings,
} from 'mongodb';
import { metrics } from '../../telemetry/metrics';
import { durableDatabase } from './concerns';
import { DuplicateRecord, type Store } from '../../ports/store';
import type { ApiKeyRecord, Merchant, MerchantAccount, WebhookEndpoint } from '../../ports/merchant-directory';
import type { AuditEntry, PanelInvite, PanelUser } from '../../ports/panel-access';
import type { BankOrderRecord } from '../../ports/order-journal';
import type { ClaimResult, IdempotencyClaim, ReversalClaim, ReversalClaimResult } from '../../ports/claims';
import type { WebhookDelivery } from '../../ports/delivery-queue';
import type { Transaction } from '@switch/core/operation';
import type { DeliveryMarks, LoggedTransaction, TransactionLog } from '../../ports/transaction-log';
import type { DueCursor, PageCursor, TransactionFilter, TransactionReads } from '../../ports/transaction-reads';

/**
 * A transaction's document: the record and its delivery marks as separate fields of one document, so
 * a commit (record and marks) is one atomic compare-and-set.
 */
type TransactionDocument = Transaction & DeliveryMarks;

function recordOf(doc: TransactionDocument): Transaction {
  const { announcedVersion: _a, writtenBy: _w, replyTo: _r, ...tx } = doc;
  return tx;
}

function loggedOf(doc: TransactionDocument): LoggedTransaction {
  const { announcedVersion, writtenBy, replyTo, ...tx } = doc;
  return { tx, marks: { announcedVersion, writtenBy: writtenBy ?? null, replyTo: replyTo ?? [] } };
}
import { venezuelanDayOf } from '@switch/core/overview';
import { hourFold, merchantDayKey, merchantHourKey, venezuelanHourOf } from '@switch/core/overview-hours';
import { insertNew } from './inserts';
import type { MovementClaim, MovementClaimResult } from '../../ports/movement-claims';
import type { VerificationRecord, VerificationSaveResult } from '../../ports/verifications';
import type { CreditCursor, ExpectedPayment } from '../../ports/expected-payments';
import { ConditionalCollection, createIndexesOneByOne } from './conditional';
import { asText, fromText } from './records';
import { decodeDocument, encodeDocument } from './keys';
import { countStoreCommands } from './command-metrics';
import { mongoSimulatedBankLedger } from './simulated-bank-ledger';

export interface MongoStoreOptions {
  url: string;
  database: string;
  client?: MongoClientOptions;
  /** Milliseconds since the epoch, for the counters' sweep (tests move it); default `Date.now`. */
  clock?: () => number;
  /** Rows of a bank reference sequence kept (default 1000; see `bankReferences`). */
  referenceRowsKept?: number;
}

/** FerretDB names itself in `buildInfo` (tests check what only its PostgreSQL plans can show). */
export async function isFerretDb(client: MongoClient): Promise<boolean> {
  const info = await client.db('admin').command({ buildInfo: 1 });
  return 'ferretdbVersion' in info || 'ferretdb' in info;
}

/** A plain record: its own key (`id`, or `scope` for claims) is the primary key `_id`, not kept twice. */
type Row = Document & { _id: string };

function toRow(key: string, record: object): Row {
  const { [key]: id, ...rest } = record as Record<string, unknown>;
  return { _id: id as string, ...rest };
}

function fromRow<T>(key: string, row: Row | null): T | null {
  if (!row) return null;
  const { _id, ...rest } = row;
  return { [key]: _id, ...rest } as T;
}

/** An expected payment's document: the payment and the flags its two queries lead with. */
function expectedRow(p: ExpectedPayment): Row {
  return { ...toRow('id', p), _open: p.estado === 'ESPERADO' || p.estado === 'PAGO_PARCIAL', _unannounced: p.announcedVersion < p.version };
}

function expectedOf(row: Row | null): ExpectedPayment | null {
  if (!row) return null;
  const { _open, _unannounced, ...rest } = row;
  return fromRow<ExpectedPayment>('id', rest as Row);
}

function accountOf(row: Row): MerchantAccount {
  const { _id: _key, ...account } = row;
  return account as unknown as MerchantAccount;
}

/**
 * `switch_store_command_duration_seconds` by collection and command, from the driver's command
 * monitoring: where the store's time goes (a query the server scans shows up here first).
 */
function observeCommandLatency(client: MongoClient, listeners: Set<CommandListener>): void {
  const collections = new Map<number, string>();
  client.on('commandStarted', (e) => {
    const target: unknown = e.commandName === 'getMore' ? e.command.collection : e.command[e.commandName];
    const collection = typeof target === 'string' ? target : 'none';
    collections.set(e.requestId, collection);
    for (const listener of listeners) listener({ collection, command: e.commandName });
  });
  const observe = (e: CommandSucceededEvent | CommandFailedEvent, outcome: 'ok' | 'error') => {
    const collection = collections.get(e.requestId) ?? 'none';
    collections.delete(e.requestId);
    metrics.storeCommandDuration.observe({ collection, command: e.commandName, outcome }, e.duration / 1000);
  };
  client.on('commandSucceeded', (e) => observe(e, 'ok'));
  client.on('commandFailed', (e) => observe(e, 'error'));
}

/** One command sent to the server (see `MongoStore.onCommand`). */
export type CommandListener = (command: { collection: string; command: string }) => void;

const BY_CREATION = { createdAt: 1, _id: 1 } as const;

/**
 * Every query a service runs in a loop (polls, gauges), in one place: each leads with an equality on
 * an indexed field, which MongoDB serves from the index and FerretDB evaluates in PostgreSQL (pushed
 * down) rather than in Go. `store-queries.test.ts` checks each with `explain` on the real server.
 */
export const LOOP_QUERIES = {
  /** The reconciler's walk: due operations, earliest first, after a cursor. */
  transactionsDue: (now: string, after?: DueCursor): Document => {
    const due: Document = { _due: true, nextCheckAt: { $lte: now } };
    return after ? { ...due, $or: [{ nextCheckAt: { $gt: after.at } }, { nextCheckAt: after.at, _id: { $gt: after.id } }] } : due;
  },
  /** The router's outbox relay: writes not marked announced, written at or before `before`. */
  transactionsUnannounced: (before: string): Document => ({ _unannounced: true, updatedAt: { $lte: before } }),
  /** The reconciler's backlog gauges and the admin list of open operations, one state at a time. */
  transactionsByEstado: (estado: string): Document => ({ estado }),
  /** The notifier's poll: pending deliveries due now whose lease (if any) ran out. */
  deliveriesDue: (now: string): Document => ({
    status: 'pending',
    nextAttemptAt: { $ne: null, $lte: now },
    $or: [{ lease: null }, { 'lease.until': { $lt: now } }],
  }),
  /** The notifier's queue gauges. */
  deliveriesByStatus: (status: 'pending' | 'exhausted'): Document => ({ status }),
} as const;

/** Newest first after a cursor, on records whose key is `_id`. */
function afterCursor(cursor: PageCursor | undefined): Document {
  return cursor ? { $or: [{ createdAt: { $lt: cursor.createdAt } }, { createdAt: cursor.createdAt, _id: { $lt: cursor.id } }] } : {};
}

/** The query of a merchant's transaction list (same rule as the memory store's `matchesFilter`). */
function transactionQuery(f: TransactionFilter, cursor: PageCursor | undefined): Document {
  const q: Document = { merchantId: f.merchantId, mode: f.mode, estado: f.estado ?? { $type: 'string' } };
  if (f.kind !== undefined) q.kind = f.kind;
  if (f.banco !== undefined) q.bancoUsado = f.banco;
  if (f.id !== undefined) q._id = f.id;
  if (f.idempotencyKey !== undefined) q.idempotencyKey = f.idempotencyKey;
  if (f.desde !== undefined || f.hasta !== undefined)
    q.createdAt = { ...(f.desde !== undefined ? { $gte: f.desde } : {}), ...(f.hasta !== undefined ? { $lt: f.hasta } : {}) };
  return cursor ? { $and: [q, afterCursor(cursor)] } : q;
}

/** Whether a delivery can be leased at `now` (same rule as the memory store). */
const leasable = (d: WebhookDelivery, now: string) =>
  d.status === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= now && (d.lease === null || d.lease.until < now);

/**
 * The fields kept as JSON text (./records.ts, `RecordCodec`): read and written whole, never queried
 * into. A transaction's request, bank answers, attempts, history and evidence; a delivery's attempts
 * and trace context (its `lease` stays a document: the notifier's poll and `complete` filter on it).
 */
const TRANSACTION_TEXT_FIELDS = ['request', 'raw', 'attempts', 'history', 'merchantAccounts', 'evidence'] as const;
const DELIVERY_TEXT_FIELDS = ['attempts', 'traceContext'] as const;

const HOUR_MS = 3_600_000;

/** Rows an export's walk holds at once (a driver batch, or a page of the list's query). */
const EXPORT_BATCH = 500;

/** The Venezuelan day before `day` (`YYYY-MM-DD`). */
const dayBefore = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * MongoDB adapter of the Store port, for MongoDB 7 and the FerretDB 1.24 build of infra/fetch.sh on
 * PostgreSQL (tests, `npm run stack`, the drills and the benchmark where Docker is missing).
 *
 * Merchants, keys, endpoints and claims are plain documents: inserts are atomic through the unique
 * `_id`, and their few updates are single-field flags. Transactions and webhook deliveries change by
 * compare-and-set, a conditional `replaceOne` (./conditional.ts).
 * Collections: merchants, api_keys, webhook_endpoints, merchant_accounts, idempotency_claims, reversal_claims, movement_claims, verifications,
 * transactions, webhook_deliveries, and the others of README.md's layout.
 */
export class MongoStore implements Store {
  private readonly client: MongoClient;
  private readonly merchantRows: Collection<Row>;
  private readonly keyRows: Collection<Row>;
  private readonly webhookRows: Collection<Row>;
  private readonly claimRows: Collection<Row>;
  private readonly reversalRows: Collection<Row>;
  private readonly movementClaimRows: Collection<Row>;
  private readonly verificationRows: Collection<Row>;
  private readonly expectedRows: Collection<Row>;
  private readonly cursorRows: Collection<Row>;
  private readonly accountRows: Collection<Row>;
  private readonly counterEntries: Collection<Row>;
  private readonly gatewayBeatRows: Collection<Row>;
  readonly leases: Store['leases'];
  readonly overviewSummaries: MongoOverviewSummaries;
  private readonly orderRows: Collection<Row>;
  private readonly referenceSeqRows: Collection<Row>;
  private readonly referenceRows: Collection<Row>;
  private readonly txs: ConditionalCollection<TransactionDocument>;
  private readonly deliveryDocs: ConditionalCollection<WebhookDelivery>;
  private readonly clock: () => number;
  private readonly referenceRowsKept: number;
  readonly simulatedBank: ReturnType<typeof mongoSimulatedBankLedger>;

  private readonly commandListeners = new Set<CommandListener>();
  /** The database every collection of the store comes from (its concerns: ./concerns.ts). */
  private readonly db: Db;

  private readonly userRows: Collection<Row>;
  private readonly inviteRows: Collection<Row>;
  private readonly sessionRows: Collection<Row>;
  private readonly auditRows: Collection<Row>;

  /** Not connected yet: prefer `MongoStore.connect`, which also creates the indexes. */
  constructor(options: MongoStoreOptions) {
    // ignoreUndefined: an optional field holding `undefined` (Attempt.outcome while an order is in
    // flight) must read back as absent, as from the memory store, not as `null`.
    // Every command is bounded: a server that stops answering (paused, partitioned) fails the command
    // after `socketTimeoutMS` instead of holding its caller for ever (a notifier round waited on one
    // for good after a 20 s store pause). Callers retry: bus handlers until success, loops next round.
    this.client = new MongoClient(options.url, {
      socketTimeoutMS: 30_000,
      serverSelectionTimeoutMS: STORE_SELECTION_TIMEOUT_MS,
      ...options.client,
      ignoreUndefined: true,
      monitorCommands: true,
    });
    observeCommandLatency(this.client, this.commandListeners);
    countStoreCommands(this.client);
    // Write and read concerns: ./concerns.ts, the one place they are stated.
    const db = durableDatabase(this.client, options.database);
    this.db = db;
    this.merchantRows = db.collection('merchants');
    this.keyRows = db.collection('api_keys');
    this.webhookRows = db.collection('webhook_endpoints');
    this.claimRows = db.collection('idempotency_claims');
    // `_id` = the original's id: the unique key makes "one original, one reverso" atomic on both servers.
    this.reversalRows = db.collection('reversal_claims');
    // `_id` = movementClaimId: the unique key makes "one bank movement, one claimant" atomic on both servers.
    this.movementClaimRows = db.collection('movement_claims');
    // `_id` = the request's idempotency scope: one kept answer per key.
    this.verificationRows = db.collection('verifications');
    // Expected payments (`_id` = id, derived from the idempotency scope), and the matcher's cursor per
    // receiving account (`_id` = creditCursorKey).
    this.expectedRows = db.collection('expected_payments');
    this.cursorRows = db.collection('credit_cursors');
    // `_id` = mode|cuenta: an account number belongs to one merchant per mode, by the unique key.
    this.accountRows = db.collection('merchant_accounts');
    this.counterEntries = db.collection('counter_entries');
    this.gatewayBeatRows = db.collection('gateway_beats');
    this.leases = new MongoLeases(db.collection('leases'));
    this.overviewSummaries = new MongoOverviewSummaries(db.collection('overview_hours'));
    this.orderRows = db.collection('bank_orders');
    this.referenceSeqRows = db.collection('bank_reference_numbers');
    this.referenceRows = db.collection('bank_references');
    this.simulatedBank = mongoSimulatedBankLedger(db);
    // The merchant panel: users (`_id` = e-mail), invitations (`_id` = token hash), sessions, audit log.
    this.userRows = db.collection('panel_users');
    this.inviteRows = db.collection('panel_invites');
    this.sessionRows = db.collection('panel_sessions');
    this.auditRows = db.collection('audit_log');
    this.clock = options.clock ?? Date.now;
    this.referenceRowsKept = options.referenceRowsKept ?? 1000;
    // `_due`: owed a check (nextCheckAt set). The due walk leads with this equality, which both servers
    // evaluate where the data is; only open operations come back, however long the history.
    // `_unannounced`: the outbox relay's equality (`announcedVersion < version` is no index's query).
    // `_merchantDay`, `_merchantHour`: merchant, mode and Venezuelan day (hour) of creation as one value
    // (`merchantDayKey`, `merchantHourKey`), the export's (the overview's) equality: FerretDB's index then
    // reads that day's (hour's) rows only, where (merchantId, mode, createdAt range) reads the merchant's
    // every row and filters the range in Go.
    this.txs = new ConditionalCollection<TransactionDocument>(db, 'transactions', {
      key: 'id',
      derived: (tx) => ({
        _due: tx.nextCheckAt !== null,
        _unannounced: tx.announcedVersion < tx.version,
        _merchantDay: merchantDayKey(tx.merchantId, tx.mode, venezuelanDayOf(tx.createdAt)),
        _merchantHour: merchantHourKey(tx.merchantId, tx.mode, venezuelanHourOf(tx.createdAt)),
      }),
      asText: TRANSACTION_TEXT_FIELDS,
    });
    this.deliveryDocs = new ConditionalCollection<WebhookDelivery>(db, 'webhook_deliveries', {
      key: 'id',
      asText: DELIVERY_TEXT_FIELDS,
    });
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
    await createIndexesOneByOne(this.expectedRows, [
      { key: { merchantId: 1, mode: 1, createdAt: -1, _id: -1 } },
      { key: { _open: 1 } },
      { key: { _unannounced: 1 } },
    ]);
    await createIndexesOneByOne(this.counterEntries, [{ key: { key: 1 } }, { key: { expires: 1 } }]);
    await createIndexesOneByOne(this.orderRows, [{ key: { txnId: 1 } }]);
    await createIndexesOneByOne(this.referenceSeqRows, [{ key: { scope: 1, n: -1 } }]);
    await this.simulatedBank.ensureIndexes();
    await this.txs.ensureIndexes([
      { key: { estado: 1, createdAt: 1 } },
      { key: { _due: 1, nextCheckAt: 1, _id: 1 } },
      { key: { _unannounced: 1, updatedAt: 1 } },
      { key: { merchantId: 1, mode: 1, createdAt: -1 } },
      { key: { _merchantDay: 1, createdAt: -1, _id: -1 } },
      { key: { _merchantHour: 1 } },
    ]);
    await this.overviewSummaries.ensureIndexes();
    await this.deliveryDocs.ensureIndexes([
      { key: { status: 1, nextAttemptAt: 1 } },
      { key: { txnId: 1 } },
      { key: { endpointId: 1, createdAt: -1 } },
    ]);
    await createIndexesOneByOne(this.userRows, [{ key: { merchantId: 1 } }]);
    await createIndexesOneByOne(this.inviteRows, [{ key: { merchantId: 1, createdAt: -1 } }]);
    await createIndexesOneByOne(this.sessionRows, [{ key: { expiresAt: 1 } }]);
    await createIndexesOneByOne(this.auditRows, [{ key: { merchantId: 1, at: -1 } }]);
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
    get: async (id) => fromRow<ApiKeyRecord>('id', await this.keyRows.findOne({ _id: id })),
    revoke: async (id, at) =>
      (await this.keyRows.updateOne({ _id: id, active: true }, { $set: { active: false, revokedAt: at } })).matchedCount === 1,
    markUsed: async (id, at) => {
      await this.keyRows.updateOne({ _id: id }, { $set: { lastUsedAt: at } });
    },
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
    get: async (id) => fromRow<WebhookEndpoint>('id', await this.webhookRows.findOne({ _id: id })),
    update: async (id, patch, expected) =>
      (await this.webhookRows.updateOne(expected ? { _id: id, sealedSecret: expected.sealedSecret } : { _id: id }, { $set: { ...patch } }))
        .matchedCount === 1,
  };

  readonly accounts: Store['accounts'] = {
    register: async (a) => insertNew(this.accountRows, { _id: `${a.mode}|${a.cuenta}`, ...a }),
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
    release: async (scope, txnId) => {
      await this.claimRows.deleteOne({ _id: scope, txnId });
    },
  };

  readonly movementClaims: Store['movementClaims'] = {
    claim: async (claim): Promise<MovementClaimResult> => {
      if (await insertNew(this.movementClaimRows, toRow('id', claim))) return { claimed: true };
      const existing = await this.movementClaims.get(claim.id);
      if (!existing) throw new Error(`movement claim ${claim.id} conflicted but cannot be read`);
      return { claimed: false, existing };
    },
    get: async (id) => fromRow<MovementClaim>('id', await this.movementClaimRows.findOne({ _id: id })),
  };

  readonly verifications: Store['verifications'] = {
    save: async (record): Promise<VerificationSaveResult> => {
      if (await insertNew(this.verificationRows, toRow('scope', record))) return { saved: true };
      const existing = await this.verifications.get(record.scope);
      if (!existing) throw new Error(`verification ${record.scope} conflicted but cannot be read`);
      return { saved: false, existing };
    },
    get: async (scope) => fromRow<VerificationRecord>('scope', await this.verificationRows.findOne({ _id: scope })),
  };

  readonly expectedPayments: Store['expectedPayments'] = {
    create: async (p) => {
      if (await insertNew(this.expectedRows, expectedRow(p))) return { created: true };
      const existing = await this.expectedPayments.get(p.id);
      if (!existing) throw new Error(`expected payment ${p.id} conflicted but cannot be read`);
      return { created: false, existing };
    },
    get: async (id) => expectedOf(await this.expectedRows.findOne({ _id: id })),
    list: async (filter, limit, after) => {
      const query: Document = { merchantId: filter.merchantId, mode: filter.mode };
      if (filter.estado) query.estado = filter.estado;
      if (after) query.$or = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: after.id } }];
      const rows = await this.expectedRows.find(query).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray();
      return rows.map((r) => expectedOf(r)!);
    },
    listOpen: async () => (await this.expectedRows.find({ _open: true }).toArray()).map((r) => expectedOf(r)!),
    listUnannounced: async () => (await this.expectedRows.find({ _unannounced: true }).toArray()).map((r) => expectedOf(r)!),
    // A filtered replace by the unique `_id` and the version read: one writer wins (atomic on both servers).
    replace: async (p, expectedVersion) =>
      (await this.expectedRows.replaceOne({ _id: p.id, version: expectedVersion }, expectedRow(p))).matchedCount === 1,
  };

  readonly creditCursors: Store['creditCursors'] = {
    get: async (key) => fromRow<CreditCursor>('key', await this.cursorRows.findOne({ _id: key })),
    set: async (cursor) => {
      await this.cursorRows.replaceOne({ _id: cursor.key }, toRow('key', cursor), { upsert: true });
    },
  };

  readonly reversals: Store['reversals'] = {
    claim: async (claim): Promise<ReversalClaimResult> => {
      if (await insertNew(this.reversalRows, toRow('originalId', claim))) return { claimed: true };
      const existing = await this.reversals.get(claim.originalId);
      if (!existing) throw new Error(`reversal claim ${claim.originalId} conflicted but cannot be read`);
      return { claimed: false, existing };
    },
    get: async (originalId) => fromRow<ReversalClaim>('originalId', await this.reversalRows.findOne({ _id: originalId })),
    // A filtered delete by the unique `_id`: only the holder's release matches (one document, atomic on both servers).
    release: async (originalId, reversoId) => (await this.reversalRows.deleteOne({ _id: originalId, reversoId })).deletedCount === 1,
  };

  readonly transactions: TransactionReads = {
    get: async (id) => {
      const doc = await this.txs.get(id);
      return doc && recordOf(doc);
    },
    // One equality query per state (FerretDB evaluates an equality in PostgreSQL, an `$in` in Go).
    listByEstado: async (estados, limit) => {
      const lists = await Promise.all(
        estados.map((estado) => this.txs.find(LOOP_QUERIES.transactionsByEstado(estado), BY_CREATION, limit)),
      );
      return lists
        .flat()
        .map(recordOf)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
        .slice(0, Math.max(0, limit));
    },
    listDue: async (now, limit, after) =>
      (await this.txs.find(LOOP_QUERIES.transactionsDue(now, after), { _due: 1, nextCheckAt: 1, _id: 1 }, limit)).map(recordOf),
    listForMerchant: async (filter, limit, cursor) =>
      (await this.txs.find(transactionQuery(filter, cursor), { createdAt: -1, _id: -1 }, limit)).map(recordOf),
    overviewOfHour: async (merchantId, mode, hour) => {
      const fold = hourFold(hour);
      await this.txs.each({ _merchantHour: merchantHourKey(merchantId, mode, hour) }, (t) => fold.add(recordOf(t)));
      return fold.result();
    },
    streamForMerchant: (filter) => this.streamTransactions(filter),
  };

  /**
   * An export's walk, newest first: one Venezuelan day at a time from the newest day the filter
   * allows back to the merchant's creation (or `desde`), each day one equality on `_merchantDay`
   * with the filter's other fields, streamed in batches. A lookup by id or key, or a merchant not on
   * record, reads the list's own query a page at a time.
   */
  private async *streamTransactions(f: TransactionFilter): AsyncGenerator<Transaction> {
    const merchant = await this.merchantRows.findOne({ _id: f.merchantId });
    const since = f.desde ?? (typeof merchant?.createdAt === 'string' ? merchant.createdAt : undefined);
    if (f.id !== undefined || f.idempotencyKey !== undefined || since === undefined) {
      let cursor: PageCursor | undefined;
      for (;;) {
        const page = await this.transactions.listForMerchant(f, EXPORT_BATCH, cursor);
        yield* page;
        if (page.length < EXPORT_BATCH) return;
        const last = page[page.length - 1]!;
        cursor = { createdAt: last.createdAt, id: last.id };
      }
    }
    const first = venezuelanDayOf(since);
    // The day after today's: a writer whose clock runs ahead files an operation there.
    const until = f.hasta ?? new Date(this.clock() + 86_400_000).toISOString();
    for (let day = venezuelanDayOf(until); day >= first; day = dayBefore(day)) {
      // The list's own conditions (state, kind, bank, the `desde`/`hasta` range) within the day.
      const { merchantId: _m, mode: _o, ...rest } = transactionQuery(f, undefined);
      const q: Document = { _merchantDay: merchantDayKey(f.merchantId, f.mode, day), ...rest };
      for await (const tx of this.txs.stream(q, { createdAt: -1, _id: -1 }, EXPORT_BATCH)) yield recordOf(tx);
    }
  }

  readonly transactionLog: TransactionLog = {
    load: async (id) => {
      const doc = await this.txs.get(id);
      return doc && loggedOf(doc);
    },
    commit: async (next, expectedVersion, marks) => {
      const doc: TransactionDocument = { ...next, ...marks };
      if (expectedVersion === null) return this.txs.insert(doc);
      return (await this.txs.update(next.id, (current) => (current.version === expectedVersion ? doc : null))) !== null;
    },
    updateMarks: async (id, version, marks) =>
      (await this.txs.update(id, (current) => (current.version === version ? { ...current, ...marks } : null))) !== null,
    markAnnounced: async (id, version) => {
      await this.txs.mark(id, { version }, { announcedVersion: version }, { _unannounced: false });
    },
    listUnannounced: async (before, limit) =>
      (await this.txs.find(LOOP_QUERIES.transactionsUnannounced(before), { _unannounced: 1, updatedAt: 1, _id: 1 }, limit)).map(loggedOf),
  };

  /**
   * One plain document per order: the unique `_id` insert is the atomic claim on both servers, and
   * only the claimer sets the outcome, so no compare-and-set is needed. The outcome is kept as JSON
   * text (./records.ts, `asText`): a bank's raw answer may have any keys, and it is only read whole.
   */
  readonly bankOrders: Store['bankOrders'] = {
    claim: async (record) => {
      const { outcome, ...rest } = record;
      if (await insertNew(this.orderRows, Object.assign(toRow('id', rest), { outcome: asText(outcome) }))) return { claimed: true };
      const existing = await this.bankOrders.get(record.id);
      if (!existing) throw new Error(`bank order ${record.id} conflicted but cannot be read`);
      return { claimed: false, existing };
    },
    recordOutcome: async (id, outcome, at) => {
      const r = await this.orderRows.updateOne({ _id: id }, { $set: { outcome: asText(outcome), recordedAt: at } });
      if (r.matchedCount !== 1) throw new Error(`bank order ${id} was never claimed`);
    },
    get: async (id) => {
      const row = fromRow<BankOrderRecord>('id', await this.orderRows.findOne({ _id: id }));
      return row && { ...row, outcome: fromText(row.outcome) as BankOrderRecord['outcome'] };
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
   * concurrent taker of the same number loses the insert and tries the next one. Only the newest
   * `referenceRowsKept` rows of a scope are kept (the taker of `n` deletes row `n - referenceRowsKept`):
   * a row is needed only while a taker that read an older highest number could still try it, a few
   * milliseconds, during which that many numbers are never taken; the highest row always stays.
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
        const old = n - this.referenceRowsKept;
        if (old > 0) await this.referenceSeqRows.deleteOne({ _id: `${scope}#${old}` });
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

  /** Hours (since the epoch) whose expired counter entries this process has deleted, up to this one. */
  private countersSweptThrough: number | undefined;

  /**
   * Deletes the entries of counters whose windows ended in hours not yet swept by this process: one
   * equality delete per hour (pushed down to PostgreSQL by FerretDB), so at most one per hour after
   * the first addition, which looks back a day (entries of windows that ended while no process added
   * to any counter for longer stay).
   */
  private async sweepCounters(): Promise<void> {
    const hour = Math.floor(this.clock() / HOUR_MS);
    if (this.countersSweptThrough !== undefined && this.countersSweptThrough >= hour) return;
    const from = Math.max((this.countersSweptThrough ?? hour - 24) + 1, hour - 24);
    for (let h = from; h <= hour; h++) await this.counterEntries.deleteMany({ expires: h });
    this.countersSweptThrough = hour;
  }

  readonly counters: Store['counters'] = {
    add: async (key, amount, count, keepUntil) => {
      await this.sweepCounters();
      if (amount !== 0 || count !== 0) {
        // `expires`: the hour whose sweep deletes the entry, one after the window's end (a margin for clocks).
        const expires = Math.ceil(Date.parse(keepUntil) / HOUR_MS) + 1;
        await this.counterEntries.insertOne({ _id: `${key}#${randomUUID()}`, key, cents: Math.round(amount * 100), count, expires } as Row);
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
    pageForTransaction: (txnId, limit, cursor) =>
      this.deliveryDocs.find(cursor ? { $and: [{ txnId }, afterCursor(cursor)] } : { txnId }, { createdAt: -1, _id: -1 }, limit),
    listForEndpoint: (endpointId, limit, cursor) =>
      this.deliveryDocs.find(cursor ? { $and: [{ endpointId }, afterCursor(cursor)] } : { endpointId }, { createdAt: -1, _id: -1 }, limit),
    claimDue: async (now, owner, leaseUntil, busy = []) => {
      // Busy lanes (merchant and mode) are passed over by the query itself.
      const query = LOOP_QUERIES.deliveriesDue(now);
      if (busy.length > 0) query.$nor = busy.map((l) => ({ merchantId: l.merchantId, mode: l.mode }));
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
    // Only the lease's owner records an attempt, and the lease was taken by compare-and-set (one of
    // several replicas gets it): recording is one plain update filtered on the lease, no read and no
    // compare-and-set. A lease that ran out and was taken again, or a manual requeue, makes it match nothing.
    complete: (id, owner, update) => this.deliveryDocs.mark(id, { 'lease.owner': owner }, { ...update, lease: null }),
    requeue: async (id, now) =>
      (await this.deliveryDocs.update(id, (d) => ({ ...d, status: 'pending', nextAttemptAt: now, lease: null, updatedAt: now }))) !== null,
    countByStatus: async () => {
      const [pending, exhausted] = await Promise.all(
        (['pending', 'exhausted'] as const).map((status) => this.deliveryDocs.count(LOOP_QUERIES.deliveriesByStatus(status))),
      );
      return { pending: pending!, exhausted: exhausted! };
    },
  };

  /** The write concern, read concern and read preference every command of this store inherits (./concerns.ts). */
  concerns(): { writeConcern: WriteConcernSettings | undefined; readConcern: string | undefined; readPreference: string } {
    const { db } = this;
    return {
      writeConcern: db.writeConcern ? { w: db.writeConcern.w, journal: db.writeConcern.journal } : undefined,
      readConcern: db.readConcern?.level,
      readPreference: db.readPreference.mode,
    };
  }

  /** Calls `listener` for every command this store sends (the store-call budget counts them); returns the unsubscribe. */
  onCommand(listener: CommandListener): () => void {
    this.commandListeners.add(listener);
    return () => this.commandListeners.delete(listener);
  }

  readonly panelUsers: Store['panelUsers'] = {
    // `_id` = e-mail: one account per address, by the unique key.
    insert: async (u) => insertNew(this.userRows, toRow('id', u)),
    get: async (id) => fromRow<PanelUser>('id', await this.userRows.findOne({ _id: id })),
    listForMerchant: async (merchantId) =>
      (await this.userRows.find({ merchantId }).sort({ createdAt: 1, _id: 1 }).toArray()).map((r) => fromRow<PanelUser>('id', r)!),
    update: async (id, patch) => (await this.userRows.updateOne({ _id: id }, { $set: { ...patch } })).matchedCount === 1,
  };

  readonly panelInvites: Store['panelInvites'] = {
    insert: async (i) => {
      if (!(await insertNew(this.inviteRows, toRow('tokenHash', i)))) throw new DuplicateRecord('panelInvites', i.tokenHash);
    },
    get: async (tokenHash) => fromRow<PanelInvite>('tokenHash', await this.inviteRows.findOne({ _id: tokenHash })),
    // Read, then delete by key: of concurrent takers only one deletes the document (deletedCount 1).
    take: async (tokenHash) => {
      const invite = fromRow<PanelInvite>('tokenHash', await this.inviteRows.findOne({ _id: tokenHash }));
      if (!invite) return null;
      return (await this.inviteRows.deleteOne({ _id: tokenHash })).deletedCount === 1 ? invite : null;
    },
    listForMerchant: async (merchantId) =>
      (await this.inviteRows.find({ merchantId }).sort({ createdAt: -1 }).toArray()).map((r) => fromRow<PanelInvite>('tokenHash', r)!),
  };

  readonly panelSessions: Store['panelSessions'] = {
    get: async (id, now) => {
      const row = await this.sessionRows.findOne({ _id: id });
      if (!row || (row.expiresAt as string) <= now) return null;
      return { id, data: decodeDocument(row.data) as Record<string, unknown>, expiresAt: row.expiresAt as string };
    },
    // Whole-document replace (no partial update needed); expired sessions are swept on each write.
    set: async (session) => {
      await this.sessionRows.replaceOne(
        { _id: session.id },
        { _id: session.id, data: encodeDocument(session.data), expiresAt: session.expiresAt } as Row,
        { upsert: true },
      );
      await this.sessionRows.deleteMany({ expiresAt: { $lt: new Date(Date.now() - 3_600_000).toISOString() } });
    },
    destroy: async (id) => {
      await this.sessionRows.deleteOne({ _id: id });
    },
  };

  readonly audit: Store['audit'] = {
    append: async (entry) => {
      await this.auditRows.insertOne(toRow('id', entry));
    },
    listForMerchant: async (merchantId, limit, f = {}) => {
      if (limit <= 0) return [];
      const query: Filter<Row> = { merchantId };
      if (f.action !== undefined) query.action = f.action;
      if (f.actor !== undefined) query.actor = f.actor;
      const at: Record<string, string> = {};
      if (f.from !== undefined) at.$gte = f.from;
      if (f.to !== undefined) at.$lt = f.to;
      if (Object.keys(at).length > 0) query.at = at;
      if (f.before) query.$or = [{ at: { $lt: f.before.at } }, { at: f.before.at, _id: { $lt: f.before.id } }];
      // The (merchantId, at) index orders the scan; the other conditions filter it.
      return (await this.auditRows.find(query).sort({ at: -1, _id: -1 }).limit(limit).toArray()).map((r) => fromRow<AuditEntry>('id', r)!);
    },
  };

  async ping(): Promise<void> {
    await this.client.db('admin').command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
