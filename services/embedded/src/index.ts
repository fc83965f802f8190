export { startEmbeddedSwitch, type EmbeddedSwitch } from './switch';
export { seedDemoMerchant } from './seed';
export { EMULATOR_DEMO, EMULATOR_TEST_BANKS, type EmbeddedBanks, type EmbeddedBanksOptions, type EmbeddedEmulators } from './banks';
export { EmbeddedMainSettings } from './config';
export { EmbeddedSwitchSettings } from './switch';
export { EmulatorSettings } from './banks';
