import { describe, expect, it } from 'vitest';
import { storeContract } from '../../../test/store-contract';
import { MemoryStore } from './store';
import { leaseContract } from '../../../test/lease-contract';

storeContract('memory', async () => new MemoryStore());
leaseContract('memory', async () => new MemoryStore());
import { deliveryContract, counterContract, gatewayReplicasContract } from '../../../test/delivery-contract';

deliveryContract('memory', async () => new MemoryStore());

counterContract('memory', async () => new MemoryStore());

gatewayReplicasContract('memory', async () => new MemoryStore());
import { merchantObjectsContract } from '../../../test/merchant-objects-contract';
import { expectedPaymentsContract } from '../../../test/expected-payments-contract';
import { overviewSummariesContract } from '../../../test/overview-summaries-contract';
import { movementClaimsContract } from '../../../test/movement-claims-contract';

merchantObjectsContract('memory', async () => new MemoryStore());
movementClaimsContract('memory', async () => new MemoryStore());
expectedPaymentsContract('memory', async () => new MemoryStore());
overviewSummariesContract('memory', async () => new MemoryStore());

describe('MemoryStore counters', () => {
  it('forgets a counter once its window is over', async () => {
    const s = new MemoryStore();
    const past = new Date(Date.now() - 3_660_000).toISOString(); // over for more than an hour
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(await s.counters.add('over', 5, 1, past)).toEqual({ amount: 5, count: 1 });
    expect(await s.counters.add('live', 5, 1, future)).toEqual({ amount: 5, count: 1 });
    expect(await s.counters.add('over', 0, 0, future)).toEqual({ amount: 0, count: 0 });
    expect(await s.counters.add('live', 0, 0, future)).toEqual({ amount: 5, count: 1 });
  });
});
