/** The bank's emulator: for tests and local runs only, never part of what ships (package export `@switch/bank-plaza/emulator`). */

export { startEmulator, type Emulator, type EmulatorOptions, type EmulatorControls } from './server';
export { PlazaEmulatorSettings } from './config';
