export { SimulatedBank, OPENING_BALANCE } from './connector';
export { startSimulatedBank } from './service';
export { BankSimServiceSettings } from './config';
