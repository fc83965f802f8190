export { startReconciler, loadReconcilerConfig, type ReconcilerHandle, type ReconcilerServiceConfig } from './service';
export { reconcileRound, observeBacklog, type ReconcilerConfig, type RoundResult } from './poller';
export { ReconcilerSettings } from './service';
export { ReconcilerServiceSettings } from './config';
