import { busContract } from '../../../test/bus-contract';
import { MemoryBus } from './bus';

// A small backoff keeps the retry cases fast; the semantics do not depend on it.
busContract('memory', async () => new MemoryBus({ retryBackoffMs: 1, retryBackoffMaxMs: 5 }));
