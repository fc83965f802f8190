import { TOPICS } from '../contracts/topics';
import type { Bus } from '../ports/bus';

/**
 * Tells every service that caches a merchant's configuration that it changed: `keys` (gateways'
 * authenticated keys) or `webhooks` (notifiers' endpoints). Whoever makes the change announces it.
 */
export async function announceMerchantChange(bus: Bus, merchantId: string, change: 'keys' | 'webhooks'): Promise<void> {
  await bus.publish(TOPICS.merchantChanges, merchantId, { merchantId, change, at: new Date().toISOString() });
}
