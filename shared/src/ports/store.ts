import type { Mode } from '../domain/bancos';
import type { ReferenceBook } from '../connector-kit/references';
import type { EstadoTransaccion } from '../domain/estados';
import type { BankOutcome, OperationKind, Transaction } from '../domain/operation';
import type { BancoId } from '../domain/bancos';
import type { WebhookEvent } from '../contracts/webhook';

export interface Merchant {
  id: string;
  nombre: string;
  active: boolean;
  createdAt: string;
}

/** API keys are kept as a SHA-256 of the secret; the secret itself is shown once and never stored. */
export interface ApiKeyRecord {
  id: string;
  merchantId: string;
  mode: Mode;
  secretHash: string;
  /** Last 4 characters, so an operator can tell keys apart. */
  hint: string;
  active: boolean;
  createdAt: string;
  revokedAt: string | null;
  /** When the key last authenticated a request (recorded at most once a minute per key); absent when never. */
  lastUsedAt?: string | null;
}

export interface WebhookEndpoint {
  id: string;
  merchantId: string;
  mode: Mode;
  url: string;
  events: WebhookEvent[];
  /**
   * The signing secret, sealed under the secrets key (shared/src/runtime/secret-box.ts): the store
   * never holds it in clear. Shown once, when it is issued; the notifier opens it to sign.
   */
  sealedSecret: string;
  /**
   * The secret before the last rotation (sealed too), still signing beside the new one until `until`
   * (docs/webhooks.md "Rotating the secret"); null or absent when there is none.
   */
  previousSecret?: { sealedSecret: string; until: string } | null;
  /** Disabled endpoints get no new deliveries; a disabled endpoint can be enabled again. */
  active: boolean;
  /** Set when the merchant deleted it: it is no longer listed, found or delivered to. */
  deletedAt?: string | null;
  createdAt: string;
  updatedAt?: string;
}

/** What a merchant may change on an endpoint (shared/src/domain/webhook-endpoints.ts). */
export type WebhookEndpointPatch = Partial<
  Pick<WebhookEndpoint, 'events' | 'sealedSecret' | 'previousSecret' | 'active' | 'deletedAt' | 'updatedAt'>
>;

/**
 * The filters of a merchant's transaction list (GET /switch/v1/transacciones, the panel): always one
 * merchant and one mode; each other field narrows when given. `desde`/`hasta` bound `createdAt`
 * (ISO 8601 instants, `hasta` exclusive).
 */
export interface TransactionFilter {
  merchantId: string;
  mode: Mode;
  kind?: OperationKind;
  estado?: EstadoTransaccion;
  banco?: BancoId;
  desde?: string;
  hasta?: string;
  id?: string;
  idempotencyKey?: string;
}

/** Where a newest-first page stopped: the last item's creation time and id. */
export interface PageCursor {
  createdAt: string;
  id: string;
}

export const PANEL_ROLES = ['owner', 'developer', 'viewer'] as const;
export type PanelRole = (typeof PANEL_ROLES)[number];

/** A person who signs in to the merchant panel; `id` is the e-mail address in lower case (unique). */
export interface PanelUser {
  id: string;
  merchantId: string;
  role: PanelRole;
  /** argon2id PHC string; never leaves the store except to be verified. */
  passwordHash: string;
  active: boolean;
  invitedBy: string | null;
  createdAt: string;
  /**
   * Raised at every password change (absent: 0). A session remembers the one it signed in with and
   * ends when they differ, so a change or a reset ends every other session of the user.
   */
  passwordVersion?: number;
}

/** An invitation to the panel: the token is sent once (a link) and kept only as its SHA-256. */
export interface PanelInvite {
  tokenHash: string;
  merchantId: string;
  email: string;
  role: PanelRole;
  invitedBy: string | null;
  expiresAt: string;
  createdAt: string;
  /**
   * `reset`: a one-time link to set a new password for the existing user `email` (`invitedBy` is who
   * issued it); absent: an invitation. The two tokens have different prefixes and are hashed whole.
   */
  purpose?: 'reset';
}

/** A signed-in panel session, kept in the store so every panel replica knows it. */
export interface PanelSessionRecord {
  id: string;
  data: Record<string, unknown>;
  expiresAt: string;
}

/** One line of a merchant's audit log: who did what in the panel (or the operator for them). */
export interface AuditEntry {
  id: string;
  merchantId: string;
  at: string;
  /** The user's e-mail, or `operator` for the onboarding tool. */
  actor: string;
  action: string;
  mode: Mode | null;
  target: string | null;
  ip: string | null;
  detail?: Record<string, string>;
}

/**
 * An account a merchant collects into and pays from, at one bank, in one mode. In live mode only a
 * registered account of the caller may be `ordenante`, `cobrador` or the `cuenta` of /saldo and
 * /movimientos; an account number belongs to one merchant per mode.
 */
export interface MerchantAccount {
  merchantId: string;
  mode: Mode;
  /** Routing id of the bank that holds the account (the bank that debits it and reports on it). */
  banco: BancoId;
  /** 20 digits. */
  cuenta: string;
  /** The merchant's pago móvil phone at that bank, when it has one (11 digits). */
  telefono: string | null;
  /**
   * RIF of the account's holder (`J123456789`): who the merchant is at the bank. Banks that serve
   * sub-merchants under the switch's one credential (BNC's `ChildClientID`) act for this RIF, so the
   * money moves in the merchant's own books. Absent on accounts registered without one.
   */
  rif?: string;
  createdAt: string;
}

/** Idempotency scope: merchant + mode + operation kind + key (DESIGN rule 5). */
export interface IdempotencyClaim {
  scope: string;
  merchantId: string;
  mode: Mode;
  kind: OperationKind;
  key: string;
  fingerprint: string;
  txnId: string;
  createdAt: string;
}

/**
 * The one reverso an original may have (DESIGN rule 9), keyed by the original's id: of concurrent
 * claims exactly one wins, on every replica sharing the store.
 */
export interface ReversalClaim {
  /** The operation reversed. */
  originalId: string;
  /** The reverso transaction that holds the original. */
  reversoId: string;
  /** The idempotency scope of the request that claimed it: a repeat of that request joins it. */
  scope: string;
  createdAt: string;
}

export type ReversalClaimResult = { claimed: true } | { claimed: false; existing: ReversalClaim };

/** One attempt to deliver a webhook (SPEC 6.3); every attempt is kept. */
export interface DeliveryAttempt {
  n: number;
  at: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/**
 * A webhook delivery: one state change to one endpoint. The body bytes are fixed when it is created
 * and sent unchanged on every attempt, so the signature is always over the body actually sent.
 */
/** Whose deliveries share one fair share of the notifier's attempts: one merchant in one mode. */
export interface DeliveryLane {
  merchantId: string;
  mode: Mode;
}

/** A lane as one string (`mode|merchantId`), for maps and sets of lanes. */
export const laneKey = (lane: DeliveryLane): string => `${lane.mode}|${lane.merchantId}`;

export interface WebhookDelivery {
  /** `<txnId>.v<version>.<endpointId>`: a redelivered event cannot create a second delivery. */
  id: string;
  merchantId: string;
  mode: Mode;
  endpointId: string;
  url: string;
  txnId: string;
  event: WebhookEvent;
  body: string;
  status: 'pending' | 'delivered' | 'exhausted';
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  /** W3C trace context of the state change, so every attempt (retries too) joins the operation's trace. */
  traceContext?: Record<string, string>;
  /** Which notifier replica holds it, until when: two replicas never attempt it at the same time. */
  lease: { owner: string; until: string } | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The bank side's journal of one order (an attempt's execute): claimed before the bank is called,
 * its outcome recorded before it is published. A redelivered order that finds the claim is never sent
 * again (issue: send once per attempt, whatever is redelivered, retried, crashed or rebalanced).
 */
export interface BankOrderRecord {
  /** `<txnId>#<attempt>`. */
  id: string;
  txnId: string;
  attempt: number;
  banco: BancoId;
  orderRef: string;
  /** Which worker process claimed it (diagnosis). */
  claimedBy: string;
  claimedAt: string;
  /** The bank's answer as the connector read it; null while unknown to the journal. */
  outcome: BankOutcome | null;
  recordedAt: string | null;
}

/** Where a walk of due transactions stopped: the last one's due time and id. */
export interface DueCursor {
  at: string;
  id: string;
}

export const bankOrderId = (txnId: string, attempt: number): string => `${txnId}#${attempt}`;

export type BankOrderClaim = { claimed: true } | { claimed: false; existing: BankOrderRecord };

export type ClaimResult = { claimed: true } | { claimed: false; existing: IdempotencyClaim };

export class DuplicateRecord extends Error {
  constructor(
    readonly collection: string,
    readonly id: string,
  ) {
    super(`${collection} ${id} already exists`);
  }
}

/**
 * Durable state. Guarantees every adapter keeps (shared/test/store-contract.ts): reads return copies;
 * `claim` is atomic (exactly one of concurrent claims of a scope wins); `transactions.replace` writes
 * only when the stored version is the expected one, so two writers can never both win.
 */
export interface Store {
  merchants: {
    insert(merchant: Merchant): Promise<void>;
    get(id: string): Promise<Merchant | null>;
    list(): Promise<Merchant[]>;
    setActive(id: string, active: boolean): Promise<boolean>;
  };
  apiKeys: {
    insert(key: ApiKeyRecord): Promise<void>;
    listForMerchant(merchantId: string): Promise<ApiKeyRecord[]>;
    get(id: string): Promise<ApiKeyRecord | null>;
    revoke(id: string, at: string): Promise<boolean>;
    /** Records that the key authenticated a request at `at`. */
    markUsed(id: string, at: string): Promise<void>;
  };
  webhooks: {
    insert(endpoint: WebhookEndpoint): Promise<void>;
    listForMerchant(merchantId: string, mode?: Mode): Promise<WebhookEndpoint[]>;
    deactivate(id: string): Promise<boolean>;
    get(id: string): Promise<WebhookEndpoint | null>;
    /**
     * Sets the given fields; `false` when there is no such endpoint, or when `expected` is given and
     * the stored sealed secret is another (re-sealing never overwrites a rotation made meanwhile).
     */
    update(id: string, patch: WebhookEndpointPatch, expected?: { sealedSecret: string }): Promise<boolean>;
  };
  accounts: {
    /** Registers an account; `false` when that account number is registered already in that mode (to anyone). */
    register(account: MerchantAccount): Promise<boolean>;
    /** A merchant's accounts (of one mode when given), oldest first. */
    list(merchantId: string, mode?: Mode): Promise<MerchantAccount[]>;
    /** Who holds an account number in a mode, or null. */
    find(mode: Mode, cuenta: string): Promise<MerchantAccount | null>;
  };
  idempotency: {
    claim(claim: IdempotencyClaim): Promise<ClaimResult>;
    get(scope: string): Promise<IdempotencyClaim | null>;
    /**
     * Deletes the claim of `scope` if it still names `txnId` (its claimer's operation), so a retry with
     * the key runs the operation: only for a claim whose operation certainly never started.
     */
    release(scope: string, txnId: string): Promise<void>;
  };
  reversals: {
    /** Atomic: of concurrent claims of one original, exactly one wins; the others get the holder. */
    claim(claim: ReversalClaim): Promise<ReversalClaimResult>;
    get(originalId: string): Promise<ReversalClaim | null>;
    /**
     * Frees the original for a later reverso, only while `reversoId` holds it (a reverso refused before
     * any bank saw it); `false` when another reverso, or none, holds it.
     */
    release(originalId: string, reversoId: string): Promise<boolean>;
  };
  transactions: {
    /** Inserts a new transaction; `false` when one with that id exists already. */
    insert(tx: Transaction): Promise<boolean>;
    get(id: string): Promise<Transaction | null>;
    /** Writes `tx` only if the stored version is `expectedVersion` (optimistic concurrency). */
    replace(tx: Transaction, expectedVersion: number): Promise<boolean>;
    /**
     * Records that `version` was announced, if it is still the stored version: a mark, not a new
     * version (one plain update, no compare-and-set of the whole record).
     */
    markAnnounced(id: string, version: number): Promise<void>;
    /** Transactions whose stored version is not marked announced, written at or before `before`, least recently written first (the outbox relay). */
    listUnannounced(before: string, limit: number): Promise<Transaction[]>;
    /** Oldest first. */
    listByEstado(estados: EstadoTransaccion[], limit: number): Promise<Transaction[]>;
    /**
     * Transactions whose `nextCheckAt` is at or before `now`, earliest first (ties by id), starting
     * after `after` when given: the reconciler's walk, by an index.
     */
    listDue(now: string, limit: number, after?: DueCursor): Promise<Transaction[]>;
    /** One merchant's transactions of one mode matching `filter`, newest first (ties by id), after `after` when given. */
    listForMerchant(filter: TransactionFilter, limit: number, after?: PageCursor): Promise<Transaction[]>;
  };
  bankOrders: {
    /** Atomic: of concurrent claims of one id, exactly one wins; the others get the record as it is. */
    claim(record: BankOrderRecord): Promise<BankOrderClaim>;
    /** Records the outcome of a claimed order (only its claimer writes it). */
    recordOutcome(id: string, outcome: BankOutcome, at: string): Promise<void>;
    get(id: string): Promise<BankOrderRecord | null>;
  };
  bankReferences: ReferenceBook;
  counters: {
    /**
     * Adds to a named counter atomically and returns its new totals (amount and count). Counters
     * count within a window (the key names it): `keepUntil` (ISO 8601) is when that window is over
     * and nobody reads the counter any more; from then on the store may forget it.
     */
    add(key: string, amount: number, count: number, keepUntil: string): Promise<{ amount: number; count: number }>;
  };
  gatewayReplicas: {
    /**
     * Records that gateway `id` is alive at `at` (ISO 8601) and returns how many gateways (itself
     * included) were alive within `windowMs` before `at`: what each replica divides a deployment-wide
     * limit by (docs/decisions.md "Throttling that never locks out a valid key").
     */
    beat(id: string, at: string, windowMs: number): Promise<number>;
  };
  deliveries: {
    /** Creates a delivery; `false` when one with that id exists (the event was seen before). */
    insert(delivery: WebhookDelivery): Promise<boolean>;
    get(id: string): Promise<WebhookDelivery | null>;
    listForTransaction(txnId: string): Promise<WebhookDelivery[]>;
    /** An endpoint's deliveries, newest first (ties by id), after `after` when given. */
    listForEndpoint(endpointId: string, limit: number, after?: PageCursor): Promise<WebhookDelivery[]>;
    /**
     * Leases one of the pending deliveries due earliest (nextAttemptAt ≤ now) whose lease is free or
     * expired, atomically: of replicas asking at once, one gets it. Null when none is due, or (a
     * shared store) when concurrent callers took every early candidate: ask again at the next poll.
     * Deliveries of the `busy` lanes (merchant and mode) are passed over: a merchant whose attempts
     * fill its share waits alone, the others' deliveries are leased meanwhile (docs/webhooks.md).
     */
    claimDue(now: string, owner: string, leaseUntil: string, busy?: readonly DeliveryLane[]): Promise<WebhookDelivery | null>;
    /** Records an attempt's result and releases the lease; only the lease owner may. */
    complete(
      id: string,
      owner: string,
      update: Pick<WebhookDelivery, 'status' | 'attempts' | 'nextAttemptAt' | 'updatedAt'>,
    ): Promise<boolean>;
    /** A manual redelivery: pending again, due now, its attempts kept. */
    requeue(id: string, now: string): Promise<boolean>;
    /**
     * Deliveries waiting (pending) and given up (exhausted): the queue gauges. Delivered ones are the
     * history, counted by the attempt counters instead, so the gauges cost the same at any age.
     */
    countByStatus(): Promise<Record<'pending' | 'exhausted', number>>;
  };
  panelUsers: {
    /** `false` when a user with that e-mail exists already (in any merchant). */
    insert(user: PanelUser): Promise<boolean>;
    get(id: string): Promise<PanelUser | null>;
    listForMerchant(merchantId: string): Promise<PanelUser[]>;
    update(id: string, patch: Partial<Pick<PanelUser, 'role' | 'passwordHash' | 'active' | 'passwordVersion'>>): Promise<boolean>;
  };
  panelInvites: {
    insert(invite: PanelInvite): Promise<void>;
    /** Reads an invitation without taking it (to check a request before the one-time token is spent). */
    get(tokenHash: string): Promise<PanelInvite | null>;
    /** Takes an invitation once: of concurrent takers exactly one gets it; null when unknown or taken. */
    take(tokenHash: string): Promise<PanelInvite | null>;
  };
  panelSessions: {
    /** The session, or null when unknown or expired at `now`. */
    get(id: string, now: string): Promise<PanelSessionRecord | null>;
    set(session: PanelSessionRecord): Promise<void>;
    destroy(id: string): Promise<void>;
  };
  audit: {
    append(entry: AuditEntry): Promise<void>;
    /** Newest first. */
    listForMerchant(merchantId: string, limit: number): Promise<AuditEntry[]>;
  };
  ping(): Promise<void>;
  close(): Promise<void>;
}
