import { timingSafeEqual } from 'node:crypto';
import { announceMerchantChange } from '@switch/platform/runtime/merchant-changes';
import { hashSecret, parseSwitchKey } from '@switch/usecases/onboarding';
import { TOPICS } from '@switch/core/contracts/topics';
import type { Bus, Subscription } from '@switch/platform/ports/bus';
import type { Mode } from '@switch/core/contracts/bancos';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';

const MAX_ENTRIES = 50_000;

/** How stale a key's last-use time may get: one write per key per minute at most, off the request path. */
const LAST_USE_RESOLUTION_MS = 60_000;

/**
 * A key that matches nothing re-reads the merchant's keys (a key issued where no event tells this
 * gateway, by the operator CLI writing to the store, works at once). From an address that spent its
 * budget of failed keys (`thrifty`), at most this often: a flood of wrong keys naming one merchant
 * then costs at most one store read per merchant in this time.
 */
const REREAD_ON_MISMATCH_MS = 1_000;

/** A merchant's active keys as the store had them (none when the merchant is unknown or inactive). */
interface MerchantKeys {
  keys: { id: string; mode: Mode; hash: Buffer; lastUsedAt: number }[];
  loadedAt: number;
  until: number;
}

/** Who an accepted key speaks for: one merchant in one mode. */
export interface Caller {
  merchantId: string;
  mode: Mode;
}

/** A verified key: who calls, and which key (the request budget is the key's own). */
export interface VerifiedKey {
  caller: Caller;
  keyId: string;
}

const DUMMY_HASH = Buffer.from(hashSecret('sk_test_no-such-key-exists-here'), 'hex');

/** The merchant's active key of `mode` whose hash is `presented`; every hash is compared (a dummy one when there is none), in constant time. */
function matching(merchant: MerchantKeys, presented: Buffer, mode: Mode): MerchantKeys['keys'][number] | null {
  let match: MerchantKeys['keys'][number] | null = null;
  for (const key of merchant.keys.length ? merchant.keys : [null]) {
    const stored = key?.hash ?? DUMMY_HASH;
    const equal = stored.length === presented.length && timingSafeEqual(stored, presented);
    if (equal && key && key.mode === mode) match = key;
  }
  return match;
}

/**
 * Each merchant's active keys (their hashes), remembered for `ttlMs`, so verifying a key costs no
 * store round trip in the common case: a right key and a wrong one naming a merchant seen recently
 * are both decided from memory (docs/decisions/0007-throttling-by-key-verdict.md).
 * A merchant id the store does not know (or an inactive merchant) is remembered as having no keys.
 * A malformed key is refused without any lookup; a well-formed key that matches nothing re-reads the
 * merchant's keys, from an address throttled for failed keys at most once a second per merchant.
 *
 * A revocation or a merchant's deactivation takes effect at once on the gateway that made it, on
 * every other gateway as soon as the key-change event reaches it, and within `ttlMs` in any case
 * (the bound if the event is lost). Only hashes of secrets are held, never a secret.
 */
export class KeyCache {
  private readonly entries = new Map<string, MerchantKeys>();
  private subscription: Subscription | undefined;

  constructor(
    private readonly store: Pick<MerchantDirectory, 'apiKeys' | 'merchants'>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Follows the key changes every gateway announces (a group of its own, `group`: each gateway sees them all). */
  async follow(bus: Bus, group: string): Promise<void> {
    this.subscription = await bus.subscribe(TOPICS.merchantChanges, { group, latestOnly: true, maxAttempts: 1 }, async ({ value }) => {
      if (value.change === 'keys') this.forgetMerchant(value.merchantId);
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
  }

  async authenticate(header: string | undefined): Promise<Caller | null> {
    return (await this.verify(header))?.caller ?? null;
  }

  /**
   * The key behind `<merchant>:<secret>`, or null when no active key of that merchant and mode matches.
   * `thrifty`: a key matching nothing re-reads the store at most once a second per merchant.
   */
  async verify(header: string | undefined, options: { thrifty?: boolean } = {}): Promise<VerifiedKey | null> {
    const parsed = parseSwitchKey(header);
    if (!parsed) return null;
    const presented = Buffer.from(hashSecret(parsed.secret), 'hex');
    const cached = this.cached(parsed.merchantId);
    let match = cached && matching(cached, presented, parsed.mode);
    const reread = !cached || !options.thrifty || this.now() - cached.loadedAt >= REREAD_ON_MISMATCH_MS;
    if (!match && reread) match = matching(await this.load(parsed.merchantId), presented, parsed.mode);
    if (!match) return null;
    this.markUsed(match);
    return { caller: { merchantId: parsed.merchantId, mode: parsed.mode }, keyId: match.id };
  }

  /** The merchant's keys as remembered, while they are within their time. */
  private cached(merchantId: string): MerchantKeys | undefined {
    const hit = this.entries.get(merchantId);
    return hit && hit.until > this.now() ? hit : undefined;
  }

  /** Reads the merchant's active keys from the store and remembers them. */
  private async load(merchantId: string): Promise<MerchantKeys> {
    const at = this.now();
    const merchant = await this.store.merchants.get(merchantId);
    const records = merchant?.active ? await this.store.apiKeys.listForMerchant(merchantId) : [];
    const entry: MerchantKeys = {
      keys: records
        .filter((key) => key.active)
        .map((key) => ({
          id: key.id,
          mode: key.mode,
          hash: Buffer.from(key.secretHash, 'hex'),
          lastUsedAt: key.lastUsedAt ? Date.parse(key.lastUsedAt) : 0,
        })),
      loadedAt: at,
      until: at + this.ttlMs,
    };
    if (this.ttlMs > 0) {
      this.entries.delete(merchantId);
      this.entries.set(merchantId, entry);
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    return entry;
  }

  /** Records the key's use at most once a minute; not awaited and never failing the request (the time shown is informative only). */
  private markUsed(key: MerchantKeys['keys'][number]): void {
    const at = Date.now();
    if (at - key.lastUsedAt < LAST_USE_RESOLUTION_MS) return;
    key.lastUsedAt = at;
    this.store.apiKeys.markUsed(key.id, new Date(at).toISOString()).catch(() => undefined);
  }

  forgetMerchant(merchantId: string): void {
    this.entries.delete(merchantId);
  }
}

/** Tells every gateway that a merchant's keys changed (revoked key, deactivated merchant). */
export async function announceKeyChange(bus: Bus, cache: KeyCache | undefined, merchantId: string): Promise<void> {
  cache?.forgetMerchant(merchantId);
  await announceMerchantChange(bus, merchantId, 'keys');
}
