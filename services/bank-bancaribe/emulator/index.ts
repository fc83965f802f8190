/** The bank's emulator: for tests and local runs only, never part of what ships (package export `@switch/bank-bancaribe/emulator`). */
export { startEmulator, DEFAULT_MERCHANT, type Emulator, type EmulatorOptions, type EmulatorControls } from './server';
export { BancaribeEmulatorSettings } from './config';
