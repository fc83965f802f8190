/** The bank's emulator: for tests and local runs only, never part of what ships (package export `@switch/bank-bnc/emulator`). */
export { startEmulator, type Emulator, type EmulatorControls, type EmulatorCredentials, type EmulatorOptions } from './server';
export type { EmulatedMerchant } from './ledger';
export { BncEmulatorSettings } from './config';
