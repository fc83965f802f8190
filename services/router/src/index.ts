export { TransactionActor, type ActorDeps } from './actor';
export { startRouter, type RouterHandle } from './service';
