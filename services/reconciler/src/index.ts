export { startReconciler, loadReconcilerConfig, type ReconcilerHandle, type ReconcilerServiceConfig } from './service';
export { reconcileRound, nextQueryAt, DEFAULT_BACKOFF_MS, type ReconcilerConfig } from './poller';
