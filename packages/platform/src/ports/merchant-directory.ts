import type { BancoId, Mode } from '@switch/core/contracts/bancos';
import type { WebhookEvent } from '@switch/core/contracts/webhook';
import type { Sealer } from '../runtime/secret-box';

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
   * The signing secret, sealed under the secrets key (packages/platform/src/runtime/secret-box.ts): the store
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

/** What a merchant may change on an endpoint (packages/usecases/src/webhook-endpoints.ts). */
export type WebhookEndpointPatch = Partial<
  Pick<WebhookEndpoint, 'events' | 'sealedSecret' | 'previousSecret' | 'active' | 'deletedAt' | 'updatedAt'>
>;

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

/**
 * Who the merchants are and how they are reached: merchants, their API keys, their accounts and
 * their webhook endpoints. Owned by onboarding (the operator's tool), the gateway and the panel (the
 * merchant's own changes); read by the notifier (endpoints) and the router (a live merchant's accounts).
 */
export interface MerchantDirectory {
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
}

/**
 * The secrets a delivery is signed with now, opened: the current one first, then the previous one
 * while its overlap lasts (docs/webhooks.md "Rotating the secret"): the
 * rotation and the notifier's signing read the record the same way.
 */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date, secrets: Pick<Sealer, 'open'>): string[] {
  const previous = endpoint.previousSecret;
  const sealed = previous && previous.until > now.toISOString() ? [endpoint.sealedSecret, previous.sealedSecret] : [endpoint.sealedSecret];
  return sealed.map((s) => secrets.open(s));
}
