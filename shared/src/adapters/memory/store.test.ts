import { storeContract } from '../../../test/store-contract';
import { MemoryStore } from './store';

storeContract('memory', async () => new MemoryStore());
import { deliveryContract } from '../../../test/delivery-contract';

deliveryContract('memory', async () => new MemoryStore());
import { counterContract } from '../../../test/delivery-contract';

counterContract('memory', async () => new MemoryStore());
import { gatewayReplicasContract } from '../../../test/delivery-contract';

gatewayReplicasContract('memory', async () => new MemoryStore());
import { merchantObjectsContract } from '../../../test/merchant-objects-contract';

merchantObjectsContract('memory', async () => new MemoryStore());
