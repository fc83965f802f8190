import { TOPICS } from '@switch/core/contracts/topics';
import type { Bus } from '../ports/bus';
import type { MerchantDirectory } from '../ports/merchant-directory';

/**
 * Tells every service that caches a merchant's configuration that it changed: `keys` (gateways'
 * authenticated keys) or `webhooks` (notifiers' endpoints). Whoever makes the change announces it.
 */
export async function announceMerchantChange(bus: Bus, merchantId: string, change: 'keys' | 'webhooks'): Promise<void> {
  await bus.publish(TOPICS.merchantChanges, merchantId, { merchantId, change, at: new Date().toISOString() });
}

/**
 * The store as a service that changes merchants' keys or endpoints should hold it: every such change
 * that succeeds is announced (`keys` for a revoked key or a merchant switched on or off, `webhooks` for
 * an endpoint added or changed), whichever route made it (admin API, merchant API, panel). Everything
 * else is the store itself.
 */
export function announcingChanges<S extends MerchantDirectory>(
  store: S,
  bus: Bus,
  here?: (merchantId: string, change: 'keys' | 'webhooks') => void,
): S {
  // `here`: this process's own caches, told at once (the event reaches them a moment later too).
  const announce = (merchantId: string, change: 'keys' | 'webhooks') => {
    here?.(merchantId, change);
    return announceMerchantChange(bus, merchantId, change);
  };
  const apiKeys: MerchantDirectory['apiKeys'] = {
    ...bound(store.apiKeys),
    // A new key is a change too: gateways that remember the merchant's keys learn it at once.
    insert: async (key) => {
      await store.apiKeys.insert(key);
      await announce(key.merchantId, 'keys');
    },
    revoke: async (id, at) => {
      const revoked = await store.apiKeys.revoke(id, at);
      const key = revoked ? await keyOwner(store, id) : null;
      if (key) await announce(key, 'keys');
      return revoked;
    },
  };
  const merchants: MerchantDirectory['merchants'] = {
    ...bound(store.merchants),
    setActive: async (id, active) => {
      const changed = await store.merchants.setActive(id, active);
      if (changed) await announce(id, 'keys');
      return changed;
    },
  };
  const webhooks: MerchantDirectory['webhooks'] = {
    ...bound(store.webhooks),
    insert: async (endpoint) => {
      await store.webhooks.insert(endpoint);
      await announce(endpoint.merchantId, 'webhooks');
    },
    update: async (id, patch, expected) => {
      const updated = await store.webhooks.update(id, patch, expected);
      const endpoint = updated ? await store.webhooks.get(id) : null;
      if (endpoint) await announce(endpoint.merchantId, 'webhooks');
      return updated;
    },
    deactivate: async (id) => {
      const done = await store.webhooks.deactivate(id);
      const endpoint = done ? await store.webhooks.get(id) : null;
      if (endpoint) await announce(endpoint.merchantId, 'webhooks');
      return done;
    },
  };
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'apiKeys') return apiKeys;
      if (prop === 'merchants') return merchants;
      if (prop === 'webhooks') return webhooks;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A namespace's methods bound to it, to spread into a wrapper. */
function bound<T extends object>(namespace: T): T {
  return Object.fromEntries(
    Object.entries(namespace).map(([k, v]) => [k, typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(namespace) : v]),
  ) as T;
}

async function keyOwner(store: Pick<MerchantDirectory, 'apiKeys'>, keyId: string): Promise<string | null> {
  return (await store.apiKeys.get(keyId))?.merchantId ?? null;
}
