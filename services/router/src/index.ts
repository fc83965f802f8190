export { TransactionActor, type ActorDeps } from './actor';
export { startRouter, type RouterHandle } from './service';
export { RouterSettings, RouterServiceSettings } from './config';
