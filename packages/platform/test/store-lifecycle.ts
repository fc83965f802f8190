import { afterEach } from 'vitest';
import type { Store } from '../src/ports/store';

/**
 * A contract suite's store factory: every store it opens is closed after each test, so a failing
 * test leaves no connection behind. Call inside the suite's `describe`.
 */
export function storesClosedAfterEach(makeStore: () => Promise<Store>): () => Promise<Store> {
  const open: Store[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async () => {
    const s = await makeStore();
    open.push(s);
    return s;
  };
}
