import { busContract } from '../../../test/bus-contract';
import { MemoryBus } from './bus';

busContract('memory', async () => new MemoryBus());
