import { storeContract } from '../../../test/store-contract';
import { MemoryStore } from './store';

storeContract('memory', async () => new MemoryStore());
