import { createHash } from 'node:crypto';
import { announceMerchantChange, authenticate, TOPICS, type Bus, type Store, type Subscription } from '@switch/shared';
import type { Caller } from './auth';

const MAX_ENTRIES = 50_000;

/**
 * Authenticated keys, remembered for `ttlMs` so a merchant's requests do not read the key store each
 * time. Only successes are kept (a wrong key is looked up every time, and throttled before that).
 * A revocation or a merchant's deactivation takes effect at once on the gateway that made it, on
 * every other gateway as soon as the key-change event reaches it, and within `ttlMs` in any case
 * (the bound if the event is lost). Entries are keyed by a hash of the header, never the secret itself.
 */
export class KeyCache {
  private readonly entries = new Map<string, { caller: Caller; until: number }>();
  private subscription: Subscription | undefined;

  constructor(
    private readonly store: Store,
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
    if (this.ttlMs <= 0 || header === undefined) return authenticate(this.store, header);
    const id = createHash('sha256').update(header).digest('base64');
    const at = this.now();
    const hit = this.entries.get(id);
    if (hit && hit.until > at) return hit.caller;
    const caller = await authenticate(this.store, header);
    if (caller) {
      this.entries.delete(id);
      this.entries.set(id, { caller, until: at + this.ttlMs });
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    } else {
      this.entries.delete(id);
    }
    return caller;
  }

  forgetMerchant(merchantId: string): void {
    for (const [id, entry] of this.entries) if (entry.caller.merchantId === merchantId) this.entries.delete(id);
  }
}

/** Tells every gateway that a merchant's keys changed (revoked key, deactivated merchant). */
export async function announceKeyChange(bus: Bus, cache: KeyCache | undefined, merchantId: string): Promise<void> {
  cache?.forgetMerchant(merchantId);
  await announceMerchantChange(bus, merchantId, 'keys');
}
