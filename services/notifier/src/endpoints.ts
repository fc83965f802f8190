import { TOPICS } from '@switch/core/contracts/topics';
import type { Bus, Subscription } from '@switch/platform/ports/bus';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import type { Mode } from '@switch/core/bancos';
import type { WebhookEndpoint } from '@switch/platform/ports/merchant-directory';

/**
 * A merchant's webhook endpoints per mode, remembered for `ttlMs` so that planning and attempting
 * deliveries do not read the endpoint store for every event. A change made through the switch (an
 * endpoint added, changed or removed) is announced on the merchant-changes topic and forgotten at
 * once by every notifier; `ttlMs` bounds a change made behind the switch's back.
 */
export class EndpointBook {
  private readonly entries = new Map<string, { endpoints: WebhookEndpoint[]; until: number }>();
  private subscription: Subscription | undefined;

  constructor(
    private readonly store: Pick<MerchantDirectory, 'webhooks'>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Each notifier follows every change (a group of its own, named after its stable instance id; newest messages only). */
  async follow(bus: Bus, instanceId: string): Promise<void> {
    this.subscription = await bus.subscribe(
      TOPICS.merchantChanges,
      { group: `notifier-${instanceId}`, latestOnly: true, maxAttempts: 1 },
      async ({ value }) => {
        if (value.change === 'webhooks') this.forget(value.merchantId);
      },
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
  }

  /** `fresh`: read the store whatever is remembered (and remember what it says). */
  async list(merchantId: string, mode: Mode, options: { fresh?: boolean } = {}): Promise<WebhookEndpoint[]> {
    const key = `${merchantId}|${mode}`;
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > at && !options.fresh) return hit.endpoints;
    const endpoints = await this.store.webhooks.listForMerchant(merchantId, mode);
    if (this.ttlMs > 0) this.entries.set(key, { endpoints, until: at + this.ttlMs });
    return endpoints;
  }

  forget(merchantId: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${merchantId}|`)) this.entries.delete(key);
  }
}
