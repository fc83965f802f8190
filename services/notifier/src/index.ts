export { startNotifier, loadNotifierConfig, type NotifierConfig, type NotifierHandle } from './service';
export { Dispatcher, type AttemptResult } from './dispatcher';
export { planDeliveries } from './deliveries';
export { SPEC_SCHEDULE_MS, nextAttemptAt } from './dispatcher';
export { NotifierSettings, NotifierConfigSettings, notifierConfig } from './service';
export { NotifierServiceSettings } from './config';
