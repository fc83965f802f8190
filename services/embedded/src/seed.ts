import { createMerchant, issueKey } from '@switch/usecases/onboarding';
import type { Store } from '@switch/platform/ports/store';

/** A ready merchant for a first curl: `demo` with one test key. */
export async function seedDemoMerchant(store: Store, merchantId = 'demo'): Promise<{ merchantId: string; switchKey: string }> {
  await createMerchant(store, { id: merchantId, nombre: 'Comercio de demostración' });
  const { switchKey } = await issueKey(store, merchantId, 'test');
  return { merchantId, switchKey };
}
