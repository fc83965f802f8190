/** The bank's emulator: for tests and local runs only, never part of what ships (package export `@switch/bank-activo/emulator`). */
export { startEmulator, type Emulator, type EmulatorOptions } from './server';
export { ActivoEmulatorSettings } from './config';
