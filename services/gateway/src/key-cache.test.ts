import { describe, expect, it, vi } from 'vitest';
import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { announceKeyChange, KeyCache } from './key-cache';

async function setup() {
  const store = new MemoryStore();
  await createMerchant(store, { id: 'm1', nombre: 'Uno' });
  const { switchKey, record } = await issueKey(store, 'm1', 'test');
  const reads = vi.spyOn(store.apiKeys, 'listForMerchant');
  return { store, switchKey, keyId: record.id, reads };
}

describe('KeyCache', () => {
  it('verifies a valid key it has seen without a store round trip, and a new key at once', async () => {
    const { store, switchKey, reads } = await setup();
    const cache = new KeyCache(store, 60_000, () => 1_000);
    const merchantReads = vi.spyOn(store.merchants, 'get');
    expect(await cache.authenticate(switchKey)).toEqual({ merchantId: 'm1', mode: 'test' });
    for (let i = 0; i < 10; i++) expect(await cache.authenticate(switchKey)).toEqual({ merchantId: 'm1', mode: 'test' });
    expect(reads).toHaveBeenCalledTimes(1);
    expect(merchantReads).toHaveBeenCalledTimes(1);
    // A malformed key costs no lookup at all, whatever merchant it names.
    expect(await cache.authenticate('otro:nada')).toBeNull();
    expect(merchantReads).toHaveBeenCalledTimes(1);
    // A key issued behind the gateway's back (the operator CLI) matches nothing cached: read again, it works.
    const { switchKey: issuedElsewhere } = await issueKey(store, 'm1', 'live');
    expect(await cache.authenticate(issuedElsewhere)).toEqual({ merchantId: 'm1', mode: 'live' });
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('thrifty (an address throttled for failed keys): wrong keys naming a merchant it has seen cost one store read a second at most', async () => {
    const { store, switchKey, reads } = await setup();
    let now = 1_000;
    const cache = new KeyCache(store, 60_000, () => now);
    const merchantReads = vi.spyOn(store.merchants, 'get');
    expect(await cache.verify(switchKey, { thrifty: true })).not.toBeNull();
    for (let i = 0; i < 100; i++) expect(await cache.verify(`m1:sk_test_${String(i).padStart(32, 'x')}`, { thrifty: true })).toBeNull();
    for (let i = 0; i < 10; i++) expect(await cache.verify(`nadie:sk_test_${String(i).padStart(32, 'x')}`, { thrifty: true })).toBeNull();
    expect(reads).toHaveBeenCalledTimes(1);
    expect(merchantReads).toHaveBeenCalledTimes(2);
    // The valid key still passes, from the cache.
    expect(await cache.verify(switchKey, { thrifty: true })).not.toBeNull();
    // A second later a wrong key re-reads once (a key issued meanwhile then works).
    now += 1_000;
    const { switchKey: issuedElsewhere } = await issueKey(store, 'm1', 'test');
    expect(await cache.verify(issuedElsewhere, { thrifty: true })).not.toBeNull();
    expect(await cache.verify(`m1:sk_test_${'y'.repeat(32)}`, { thrifty: true })).toBeNull();
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it("tells which key matched: the request budget is the key's own", async () => {
    const { store, switchKey, keyId } = await setup();
    const cache = new KeyCache(store, 60_000);
    expect(await cache.verify(switchKey)).toEqual({ caller: { merchantId: 'm1', mode: 'test' }, keyId });
  });

  it('forgets a key after its time: a revocation whose event is lost takes effect within that bound', async () => {
    const { store, switchKey, keyId } = await setup();
    let now = 1_000;
    const cache = new KeyCache(store, 10_000, () => now);
    expect(await cache.authenticate(switchKey)).not.toBeNull();
    await store.apiKeys.revoke(keyId, new Date().toISOString());
    now += 9_999;
    expect(await cache.authenticate(switchKey)).not.toBeNull();
    now += 2;
    expect(await cache.authenticate(switchKey)).toBeNull();
  });

  it('a revocation announced on one gateway is forgotten at once there and by the event on every other', async () => {
    const { store, switchKey, keyId } = await setup();
    const bus = new MemoryBus();
    const here = new KeyCache(store, 60_000);
    const there = new KeyCache(store, 60_000);
    await here.follow(bus, 'gw-here');
    await there.follow(bus, 'gw-there');
    expect(await here.authenticate(switchKey)).not.toBeNull();
    expect(await there.authenticate(switchKey)).not.toBeNull();
    await store.apiKeys.revoke(keyId, new Date().toISOString());
    await announceKeyChange(bus, here, 'm1');
    expect(await here.authenticate(switchKey)).toBeNull();
    await bus.drained();
    expect(await there.authenticate(switchKey)).toBeNull();
    await here.stop();
    await there.stop();
    await bus.close();
  });

  it('with a time of 0 every request reads the key store', async () => {
    const { store, switchKey, reads } = await setup();
    const cache = new KeyCache(store, 0);
    await cache.authenticate(switchKey);
    await cache.authenticate(switchKey);
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
