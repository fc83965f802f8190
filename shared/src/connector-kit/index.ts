export * from './outcomes';
export * from './formats';
export * from './send';
export * from './connector';
export * from './references';
export * from './service';
export * from './emulator';
