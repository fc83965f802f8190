import { memorySimulatedBankLedger } from './simulated-bank-ledger';
import { DuplicateRecord, type Store } from '../../ports/store';
import { laneKey, type WebhookDelivery } from '../../ports/delivery-queue';
import type { ApiKeyRecord, Merchant, MerchantAccount, WebhookEndpoint } from '../../ports/merchant-directory';
import type { AuditEntry, PanelInvite, PanelSessionRecord, PanelUser } from '../../ports/panel-access';
import type { BankOrderRecord } from '../../ports/order-journal';
import type { ClaimResult, IdempotencyClaim, ReversalClaim } from '../../ports/claims';
import { MemoryLeases } from './leases';
import { MemoryOverviewSummaries } from './overview-summaries';
import type { MovementClaim } from '../../ports/movement-claims';
import type { VerificationRecord } from '../../ports/verifications';
import type { CreditCursor, ExpectedPayment } from '../../ports/expected-payments';
import type { Mode } from '@switch/core/contracts/bancos';
import type { EstadoTransaccion } from '@switch/core/estados';
import type { Transaction } from '@switch/core/operation';
import type { DeliveryMarks, LoggedTransaction, TransactionLog } from '../../ports/transaction-log';
import type { PageCursor, TransactionFilter, TransactionReads } from '../../ports/transaction-reads';

import { clonePlain } from './clone';
import { hourFold, merchantHourKey, venezuelanHourOf } from '@switch/core/overview-hours';

const copy = clonePlain;
/** Rows an export's walk reads per list query. */
const STREAM_PAGE = 500;

/** Adds `id` to the set under `key`, creating the set. */
function addTo<K>(index: Map<K, Set<string>>, key: K, id: string): void {
  const set = index.get(key);
  if (set) set.add(id);
  else index.set(key, new Set([id]));
}

function removeFrom<K>(index: Map<K, Set<string>>, key: K, id: string): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) index.delete(key);
}

/** Newest first, ties by id (descending): the order of every merchant-facing list. */
/**
 * Newest first in code-unit order, as `after` pages and as MongoDB sorts strings (a locale's order
 * could put an id on the other side of a cursor, and costs a hundred times more on a long list).
 */
const binary = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  binary(b.createdAt, a.createdAt) || binary(b.id, a.id);
/**
 * The `limit` newest rows that `keep` accepts, in one pass (a page of a long list costs a pass, not a
 * sort of the whole list): a sorted buffer of at most `limit` rows.
 */
function newestOf<T extends { createdAt: string; id: string }>(rows: Iterable<T>, limit: number, keep: (row: T) => boolean): T[] {
  const out: T[] = [];
  if (limit <= 0) return out;
  for (const row of rows) {
    if (out.length === limit && newestFirst(row, out[limit - 1]!) >= 0) continue;
    if (!keep(row)) continue;
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newestFirst(out[mid]!, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, row);
    if (out.length > limit) out.pop();
  }
  return out;
}
const after = (cursor: PageCursor | undefined) => (r: { createdAt: string; id: string }) =>
  !cursor || r.createdAt < cursor.createdAt || (r.createdAt === cursor.createdAt && r.id < cursor.id);

/** Whether a transaction matches a merchant's list filter (the Mongo adapter's query says the same). */
export function matchesFilter(t: Transaction, f: TransactionFilter): boolean {
  return (
    t.merchantId === f.merchantId &&
    t.mode === f.mode &&
    t.estado !== null &&
    (f.kind === undefined || t.kind === f.kind) &&
    (f.estado === undefined || t.estado === f.estado) &&
    (f.banco === undefined || t.bancoUsado === f.banco) &&
    (f.desde === undefined || t.createdAt >= f.desde) &&
    (f.hasta === undefined || t.createdAt < f.hasta) &&
    (f.id === undefined || t.id === f.id) &&
    (f.idempotencyKey === undefined || t.idempotencyKey.toLowerCase() === f.idempotencyKey.toLowerCase())
  );
}

interface DueEntry {
  at: string;
  seq: number;
  id: string;
}

const earlier = (a: DueEntry, b: DueEntry): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/** A binary min-heap of due entries by (at, seq). */
class DueHeap {
  private readonly items: DueEntry[] = [];

  peek(): DueEntry | undefined {
    return this.items[0];
  }

  push(entry: DueEntry): void {
    const items = this.items;
    let i = items.push(entry) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!earlier(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): DueEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && earlier(items[l]!, items[m]!)) m = l;
        if (r < items.length && earlier(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** In-memory store for the embedded default and fast tests; same contract as the MongoDB adapter. */
export class MemoryStore implements Store {
  readonly simulatedBank: Store['simulatedBank'] = memorySimulatedBankLedger();
  private readonly merchantRows = new Map<string, Merchant>();
  private readonly keyRows = new Map<string, ApiKeyRecord>();
  private readonly webhookRows = new Map<string, WebhookEndpoint>();
  private readonly claimRows = new Map<string, IdempotencyClaim>();
  private readonly txRows = new Map<string, Transaction>();
  private readonly deliveryRows = new Map<string, WebhookDelivery>();
  private readonly accountRows = new Map<string, MerchantAccount>();

  readonly merchants: Store['merchants'] = {
    insert: async (m) => {
      if (this.merchantRows.has(m.id)) throw new DuplicateRecord('merchants', m.id);
      this.merchantRows.set(m.id, copy(m));
    },
    get: async (id) => copy(this.merchantRows.get(id) ?? null),
    list: async () => [...this.merchantRows.values()].map(copy),
    setActive: async (id, active) => {
      const m = this.merchantRows.get(id);
      if (!m) return false;
      m.active = active;
      return true;
    },
  };

  readonly apiKeys: Store['apiKeys'] = {
    insert: async (k) => {
      if (this.keyRows.has(k.id)) throw new DuplicateRecord('apiKeys', k.id);
      this.keyRows.set(k.id, copy(k));
    },
    listForMerchant: async (merchantId) => [...this.keyRows.values()].filter((k) => k.merchantId === merchantId).map(copy),
    get: async (id) => {
      const k = this.keyRows.get(id);
      return k ? { ...k } : null;
    },
    revoke: async (id, at) => {
      const k = this.keyRows.get(id);
      if (!k?.active) return false;
      k.active = false;
      k.revokedAt = at;
      return true;
    },
    markUsed: async (id, at) => {
      const k = this.keyRows.get(id);
      if (k) k.lastUsedAt = at;
    },
  };

  readonly webhooks: Store['webhooks'] = {
    insert: async (e) => {
      if (this.webhookRows.has(e.id)) throw new DuplicateRecord('webhooks', e.id);
      this.webhookRows.set(e.id, copy(e));
    },
    listForMerchant: async (merchantId, mode?: Mode) =>
      [...this.webhookRows.values()].filter((e) => e.merchantId === merchantId && (mode === undefined || e.mode === mode)).map(copy),
    deactivate: async (id) => {
      const e = this.webhookRows.get(id);
      if (!e?.active) return false;
      e.active = false;
      return true;
    },
    get: async (id) => copy(this.webhookRows.get(id) ?? null),
    update: async (id, patch, expected) => {
      const e = this.webhookRows.get(id);
      if (!e || (expected && e.sealedSecret !== expected.sealedSecret)) return false;
      Object.assign(e, copy(patch));
      return true;
    },
  };

  readonly accounts: Store['accounts'] = {
    register: async (a) => {
      const id = `${a.mode}|${a.cuenta}`;
      if (this.accountRows.has(id)) return false;
      this.accountRows.set(id, copy(a));
      return true;
    },
    list: async (merchantId, mode?: Mode) =>
      [...this.accountRows.values()].filter((a) => a.merchantId === merchantId && (mode === undefined || a.mode === mode)).map(copy),
    find: async (mode, cuenta) => copy(this.accountRows.get(`${mode}|${cuenta}`) ?? null),
  };

  readonly idempotency: Store['idempotency'] = {
    claim: async (claim): Promise<ClaimResult> => {
      const existing = this.claimRows.get(claim.scope);
      if (existing) return { claimed: false, existing: copy(existing) };
      this.claimRows.set(claim.scope, copy(claim));
      return { claimed: true };
    },
    get: async (scope) => copy(this.claimRows.get(scope) ?? null),
    release: async (scope, txnId) => {
      if (this.claimRows.get(scope)?.txnId === txnId) this.claimRows.delete(scope);
    },
  };

  private readonly movementClaimRows = new Map<string, MovementClaim>();
  readonly movementClaims: Store['movementClaims'] = {
    claim: async (claim) => {
      const existing = this.movementClaimRows.get(claim.id);
      if (existing) return { claimed: false, existing: copy(existing) };
      this.movementClaimRows.set(claim.id, copy(claim));
      return { claimed: true };
    },
    get: async (id) => copy(this.movementClaimRows.get(id) ?? null),
  };

  private readonly verificationRows = new Map<string, VerificationRecord>();
  readonly verifications: Store['verifications'] = {
    save: async (record) => {
      const existing = this.verificationRows.get(record.scope);
      if (existing) return { saved: false, existing: copy(existing) };
      this.verificationRows.set(record.scope, copy(record));
      return { saved: true };
    },
    get: async (scope) => copy(this.verificationRows.get(scope) ?? null),
  };

  private readonly expectedRows = new Map<string, ExpectedPayment>();
  readonly expectedPayments: Store['expectedPayments'] = {
    create: async (p) => {
      const existing = this.expectedRows.get(p.id);
      if (existing) return { created: false, existing: copy(existing) };
      this.expectedRows.set(p.id, copy(p));
      return { created: true };
    },
    get: async (id) => copy(this.expectedRows.get(id) ?? null),
    list: async (filter, limit, after) =>
      [...this.expectedRows.values()]
        .filter((p) => p.merchantId === filter.merchantId && p.mode === filter.mode && (!filter.estado || p.estado === filter.estado))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
        .filter((p) => !after || p.createdAt < after.createdAt || (p.createdAt === after.createdAt && p.id < after.id))
        .slice(0, limit)
        .map(copy),
    listOpen: async () => [...this.expectedRows.values()].filter((p) => p.estado === 'ESPERADO' || p.estado === 'PAGO_PARCIAL').map(copy),
    listUnannounced: async () => [...this.expectedRows.values()].filter((p) => p.announcedVersion < p.version).map(copy),
    replace: async (p, expectedVersion) => {
      const stored = this.expectedRows.get(p.id);
      if (!stored || stored.version !== expectedVersion) return false;
      this.expectedRows.set(p.id, copy(p));
      return true;
    },
  };

  private readonly cursorRows = new Map<string, CreditCursor>();
  readonly creditCursors: Store['creditCursors'] = {
    get: async (key) => copy(this.cursorRows.get(key) ?? null),
    set: async (cursor) => {
      this.cursorRows.set(cursor.key, copy(cursor));
    },
  };

  private readonly reversalRows = new Map<string, ReversalClaim>();
  readonly reversals: Store['reversals'] = {
    claim: async (claim) => {
      const existing = this.reversalRows.get(claim.originalId);
      if (existing) return { claimed: false, existing: copy(existing) };
      this.reversalRows.set(claim.originalId, copy(claim));
      return { claimed: true };
    },
    get: async (originalId) => copy(this.reversalRows.get(originalId) ?? null),
    release: async (originalId, reversoId) =>
      this.reversalRows.get(originalId)?.reversoId === reversoId && this.reversalRows.delete(originalId),
  };

  /*
   * The loop queries (outbox relay, deadlines, open states) and the merchant lists read indexes, not
   * every transaction: a long-running embedded switch holds every payout it ever made. Each index is
   * a set of ids kept in step with the rows by `indexTx` at every write.
   */
  private readonly txUnannounced = new Set<string>();
  private readonly txDue = new Set<string>();
  private readonly txByEstado = new Map<EstadoTransaccion, Set<string>>();
  private readonly txByMerchant = new Map<string, Set<string>>();
  /** By `merchantHourKey`: the overview's hour reads. */
  private readonly txByMerchantHour = new Map<string, Set<string>>();

  private indexTx(before: Transaction | undefined, after: Transaction, marks: DeliveryMarks): void {
    const id = after.id;
    if (marks.announcedVersion < after.version) this.txUnannounced.add(id);
    else this.txUnannounced.delete(id);
    if (after.nextCheckAt !== null && after.nextCheckAt !== undefined) this.txDue.add(id);
    else this.txDue.delete(id);
    if (before?.estado !== after.estado) {
      if (before?.estado != null) removeFrom(this.txByEstado, before.estado, id);
      if (after.estado !== null) addTo(this.txByEstado, after.estado, id);
    }
    if (!before) {
      addTo(this.txByMerchant, `${after.merchantId}|${after.mode}`, id);
      addTo(this.txByMerchantHour, merchantHourKey(after.merchantId, after.mode, venezuelanHourOf(after.createdAt)), id);
    }
  }

  /** An export's walk: pages of the merchant's list, newest first. */
  private async *streamTransactions(filter: TransactionFilter): AsyncGenerator<Transaction> {
    let cursor: PageCursor | undefined;
    for (;;) {
      const page = await this.transactions.listForMerchant(filter, STREAM_PAGE, cursor);
      yield* page;
      if (page.length < STREAM_PAGE) return;
      const last = page[page.length - 1]!;
      cursor = { createdAt: last.createdAt, id: last.id };
    }
  }

  private txFrom(ids: Iterable<string>): Transaction[] {
    const out: Transaction[] = [];
    for (const id of ids) {
      const t = this.txRows.get(id);
      if (t) out.push(t);
    }
    return out;
  }

  readonly transactions: TransactionReads = {
    get: async (id) => copy(this.txRows.get(id) ?? null),
    listByEstado: async (estados: EstadoTransaccion[], limit) =>
      [...new Set(estados)]
        .flatMap((e) => this.txFrom(this.txByEstado.get(e) ?? []))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .slice(0, limit)
        .map(copy),
    listDue: async (now, limit, after) =>
      this.txFrom(this.txDue)
        .filter((t) => t.nextCheckAt !== null && t.nextCheckAt !== undefined && t.nextCheckAt <= now)
        .filter((t) => !after || t.nextCheckAt! > after.at || (t.nextCheckAt === after.at && t.id > after.id))
        .sort((a, b) => a.nextCheckAt!.localeCompare(b.nextCheckAt!) || a.id.localeCompare(b.id))
        .slice(0, limit)
        .map(copy),
    overviewOfHour: async (merchantId, mode, hour) => {
      const fold = hourFold(hour);
      for (const t of this.txFrom(this.txByMerchantHour.get(merchantHourKey(merchantId, mode, hour)) ?? [])) fold.add(copy(t));
      return fold.result();
    },
    streamForMerchant: (filter) => this.streamTransactions(filter),
    listForMerchant: async (filter, limit, cursor) => {
      const past = after(cursor);
      const rows = this.txFrom(this.txByMerchant.get(`${filter.merchantId}|${filter.mode}`) ?? []);
      return newestOf(rows, limit, (t) => matchesFilter(t, filter) && past(t)).map(copy);
    },
  };

  /** The delivery marks of each transaction, beside its row (one map write with it: atomic here). */
  private readonly txMarks = new Map<string, DeliveryMarks>();
  private logged(id: string): LoggedTransaction | null {
    const tx = this.txRows.get(id);
    const marks = this.txMarks.get(id);
    return tx && marks ? { tx: copy(tx), marks: copy(marks) } : null;
  }

  readonly transactionLog: TransactionLog = {
    load: async (id) => this.logged(id),
    commit: async (next, expectedVersion, marks) => {
      const current = this.txRows.get(next.id);
      if (expectedVersion === null ? current !== undefined : current?.version !== expectedVersion) return false;
      const row = copy(next);
      this.txRows.set(next.id, row);
      this.txMarks.set(next.id, copy(marks));
      this.indexTx(current, row, marks);
      return true;
    },
    updateMarks: async (id, version, marks) => {
      if (this.txRows.get(id)?.version !== version) return false;
      this.txMarks.set(id, copy(marks));
      if (marks.announcedVersion < version) this.txUnannounced.add(id);
      else this.txUnannounced.delete(id);
      return true;
    },
    markAnnounced: async (id, version) => {
      const marks = this.txMarks.get(id);
      if (marks && this.txRows.get(id)?.version === version && marks.announcedVersion < version) {
        marks.announcedVersion = version;
        this.txUnannounced.delete(id);
      }
    },
    listUnannounced: async (before, limit) =>
      this.txFrom(this.txUnannounced)
        .filter((t) => t.updatedAt <= before)
        .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.id.localeCompare(b.id))
        .slice(0, Math.max(0, limit))
        .map((t) => this.logged(t.id)!),
  };

  private readonly orderRows = new Map<string, BankOrderRecord>();
  readonly bankOrders: Store['bankOrders'] = {
    claim: async (record) => {
      const existing = this.orderRows.get(record.id);
      if (existing) return { claimed: false, existing: copy(existing) };
      this.orderRows.set(record.id, copy(record));
      return { claimed: true };
    },
    recordOutcome: async (id, outcome, at) => {
      const r = this.orderRows.get(id);
      if (!r) throw new Error(`bank order ${id} was never claimed`);
      Object.assign(r, { outcome: copy(outcome), recordedAt: at });
    },
    get: async (id) => copy(this.orderRows.get(id) ?? null),
  };

  private readonly counterRows = new Map<string, { amount: number; count: number; keepUntil: string }>();
  private readonly referenceRows = new Map<string, number>();
  private readonly referenceSeq = new Map<string, number>();
  readonly bankReferences: Store['bankReferences'] = {
    assign: async (scope, key) => {
      const id = `${scope}|${key}`;
      const existing = this.referenceRows.get(id);
      if (existing !== undefined) return existing;
      const n = (this.referenceSeq.get(scope) ?? 0) + 1;
      this.referenceSeq.set(scope, n);
      this.referenceRows.set(id, n);
      return n;
    },
    find: async (scope, key) => this.referenceRows.get(`${scope}|${key}`) ?? null,
  };

  readonly counters: Store['counters'] = {
    add: async (key, amount, count, keepUntil) => {
      // Counters of windows over for an hour (the MongoDB store's margin) go at the next addition, so
      // only the live windows' are left to scan.
      const over = new Date(Date.now() - 3_600_000).toISOString();
      for (const [k, row] of this.counterRows) if (row.keepUntil < over) this.counterRows.delete(k);
      const c = this.counterRows.get(key) ?? { amount: 0, count: 0, keepUntil };
      if (keepUntil > c.keepUntil) c.keepUntil = keepUntil;
      // Amounts are kept in cents so repeated additions do not drift.
      c.amount = Math.round((c.amount + amount) * 100) / 100;
      c.count += count;
      this.counterRows.set(key, c);
      return { amount: c.amount, count: c.count };
    },
  };

  readonly leases: Store['leases'] = new MemoryLeases();
  readonly overviewSummaries: Store['overviewSummaries'] = new MemoryOverviewSummaries();

  private readonly gatewayBeats = new Map<string, number>();
  readonly gatewayReplicas: Store['gatewayReplicas'] = {
    beat: async (id, at, windowMs) => {
      const now = Date.parse(at);
      this.gatewayBeats.set(id, now);
      let alive = 0;
      for (const [other, seen] of this.gatewayBeats) {
        if (seen >= now - windowMs) alive++;
        else if (seen < now - 86_400_000) this.gatewayBeats.delete(other);
      }
      return alive;
    },
  };

  /*
   * Deliveries by transaction and by endpoint, and the open ones (pending or exhausted) apart from the
   * delivered history: the notifier's poll and queue gauges read only what is still open. `seq` is
   * each delivery's insertion rank, the tie-break a scan of the rows in insertion order gave. A
   * pending delivery under a lease is in `leasedDeliveries` (few: the attempts under way and those of
   * a replica that died); an unleased one is in its lane's heap (`freeDeliveries`, one per merchant and
   * mode) by (nextAttemptAt, seq), whose stale entries are dropped as they surface. A claim looks at the
   * top of each lane that is not busy: no scan of a backlog, however large one merchant's grows.
   */
  private readonly deliverySeq = new Map<string, number>();
  private readonly deliveriesByTxn = new Map<string, Set<string>>();
  private readonly deliveriesByEndpoint = new Map<string, Set<string>>();
  private readonly pendingDeliveries = new Set<string>();
  private readonly exhaustedDeliveries = new Set<string>();
  private readonly leasedDeliveries = new Set<string>();
  private readonly freeDeliveries = new Map<string, DueHeap>();

  private indexDeliveryStatus(d: WebhookDelivery): void {
    if (d.status === 'pending') this.pendingDeliveries.add(d.id);
    else this.pendingDeliveries.delete(d.id);
    if (d.status === 'exhausted') this.exhaustedDeliveries.add(d.id);
    else this.exhaustedDeliveries.delete(d.id);
    if (d.status === 'pending' && d.lease !== null) this.leasedDeliveries.add(d.id);
    else this.leasedDeliveries.delete(d.id);
    if (d.status === 'pending' && d.lease === null && d.nextAttemptAt !== null) {
      const lane = laneKey(d);
      let heap = this.freeDeliveries.get(lane);
      if (!heap) {
        heap = new DueHeap();
        this.freeDeliveries.set(lane, heap);
      }
      heap.push({ at: d.nextAttemptAt, seq: this.deliverySeq.get(d.id)!, id: d.id });
    }
  }

  private deliveriesFrom(ids: Iterable<string> | undefined): WebhookDelivery[] {
    const out: WebhookDelivery[] = [];
    for (const id of ids ?? []) {
      const d = this.deliveryRows.get(id);
      if (d) out.push(d);
    }
    return out;
  }

  /** Whether a heap entry still says what its delivery is: pending, unleased, due at that time. */
  private freeEntryCurrent(entry: DueEntry): boolean {
    const d = this.deliveryRows.get(entry.id);
    return d !== undefined && d.status === 'pending' && d.lease === null && d.nextAttemptAt === entry.at;
  }

  readonly deliveries: Store['deliveries'] = {
    insert: async (d) => {
      if (this.deliveryRows.has(d.id)) return false;
      const row = copy(d);
      this.deliveryRows.set(d.id, row);
      this.deliverySeq.set(d.id, this.deliverySeq.size);
      addTo(this.deliveriesByTxn, row.txnId, row.id);
      addTo(this.deliveriesByEndpoint, row.endpointId, row.id);
      this.indexDeliveryStatus(row);
      return true;
    },
    get: async (id) => copy(this.deliveryRows.get(id) ?? null),
    listForTransaction: async (txnId) =>
      this.deliveriesFrom(this.deliveriesByTxn.get(txnId))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map(copy),
    pageForTransaction: async (txnId, limit, cursor) =>
      this.deliveriesFrom(this.deliveriesByTxn.get(txnId)).filter(after(cursor)).sort(newestFirst).slice(0, Math.max(0, limit)).map(copy),
    listForEndpoint: async (endpointId, limit, cursor) =>
      this.deliveriesFrom(this.deliveriesByEndpoint.get(endpointId))
        .filter(after(cursor))
        .sort(newestFirst)
        .slice(0, Math.max(0, limit))
        .map(copy),
    claimDue: async (now, owner, leaseUntil, busy = []) => {
      const busyLanes = new Set(busy.map(laneKey));
      const passedOver = (d: WebhookDelivery) => busyLanes.has(laneKey(d));
      // The earliest due (ties: the first inserted) of a lane not busy: the first current entry of
      // each such lane's heap, or a pending delivery whose lease ran out.
      let top: DueEntry | undefined;
      for (const [lane, heap] of this.freeDeliveries) {
        while (heap.peek() && !this.freeEntryCurrent(heap.peek()!)) heap.pop();
        const first = heap.peek();
        if (!first) {
          this.freeDeliveries.delete(lane);
          continue;
        }
        if (!busyLanes.has(lane) && first.at <= now && (!top || earlier(first, top))) top = first;
      }
      let due = top ? this.deliveryRows.get(top.id) : undefined;
      let dueSeq = top?.seq ?? 0;
      for (const id of this.leasedDeliveries) {
        const d = this.deliveryRows.get(id)!;
        if (d.nextAttemptAt === null || d.nextAttemptAt > now || d.lease!.until >= now || passedOver(d)) continue;
        const seq = this.deliverySeq.get(id)!;
        const order = due ? d.nextAttemptAt.localeCompare(due.nextAttemptAt!) : -1;
        if (order < 0 || (order === 0 && seq < dueSeq)) {
          due = d;
          dueSeq = seq;
        }
      }
      if (!due) return null;
      due.lease = { owner, until: leaseUntil };
      this.indexDeliveryStatus(due);
      return copy(due);
    },
    complete: async (id, owner, update) => {
      const d = this.deliveryRows.get(id);
      if (!d || d.lease?.owner !== owner) return false;
      Object.assign(d, copy(update), { lease: null });
      this.indexDeliveryStatus(d);
      return true;
    },
    requeue: async (id, now) => {
      const d = this.deliveryRows.get(id);
      if (!d) return false;
      Object.assign(d, { status: 'pending', nextAttemptAt: now, lease: null, updatedAt: now });
      this.indexDeliveryStatus(d);
      return true;
    },
    countByStatus: async () => ({ pending: this.pendingDeliveries.size, exhausted: this.exhaustedDeliveries.size }),
  };

  private readonly userRows = new Map<string, PanelUser>();
  readonly panelUsers: Store['panelUsers'] = {
    insert: async (u) => {
      if (this.userRows.has(u.id)) return false;
      this.userRows.set(u.id, copy(u));
      return true;
    },
    get: async (id) => copy(this.userRows.get(id) ?? null),
    listForMerchant: async (merchantId) =>
      [...this.userRows.values()]
        .filter((u) => u.merchantId === merchantId)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
        .map(copy),
    update: async (id, patch) => {
      const u = this.userRows.get(id);
      if (!u) return false;
      Object.assign(u, copy(patch));
      return true;
    },
  };

  private readonly inviteRows = new Map<string, PanelInvite>();
  readonly panelInvites: Store['panelInvites'] = {
    insert: async (i) => {
      if (this.inviteRows.has(i.tokenHash)) throw new DuplicateRecord('panelInvites', i.tokenHash);
      this.inviteRows.set(i.tokenHash, copy(i));
    },
    get: async (tokenHash) => copy(this.inviteRows.get(tokenHash) ?? null),
    take: async (tokenHash) => {
      const i = this.inviteRows.get(tokenHash);
      if (!i) return null;
      this.inviteRows.delete(tokenHash);
      return copy(i);
    },
    listForMerchant: async (merchantId) =>
      [...this.inviteRows.values()]
        .filter((i) => i.merchantId === merchantId)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .map((i) => copy(i)),
  };

  private readonly sessionRows = new Map<string, PanelSessionRecord>();
  readonly panelSessions: Store['panelSessions'] = {
    get: async (id, now) => {
      const s = this.sessionRows.get(id);
      return s && s.expiresAt > now ? copy(s) : null;
    },
    set: async (session) => {
      this.sessionRows.set(session.id, copy(session));
    },
    destroy: async (id) => {
      this.sessionRows.delete(id);
    },
  };

  private readonly auditRows: AuditEntry[] = [];
  readonly audit: Store['audit'] = {
    append: async (entry) => {
      this.auditRows.push(copy(entry));
    },
    listForMerchant: async (merchantId, limit, f = {}) =>
      this.auditRows
        .filter(
          (e) =>
            e.merchantId === merchantId &&
            (f.action === undefined || e.action === f.action) &&
            (f.actor === undefined || e.actor === f.actor) &&
            (f.from === undefined || e.at >= f.from) &&
            (f.to === undefined || e.at < f.to) &&
            (f.before === undefined || e.at < f.before.at || (e.at === f.before.at && e.id < f.before.id)),
        )
        .sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id))
        .slice(0, Math.max(0, limit))
        .map(copy),
  };

  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}
