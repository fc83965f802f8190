export { startEmbeddedSwitch, type EmbeddedSwitch } from './switch';
export { seedDemoMerchant } from './seed';
