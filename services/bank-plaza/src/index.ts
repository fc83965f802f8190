export { BancoPlazaConnector, type BancoPlazaOptions, type BancoPlazaDeps } from './connector';
export { loadPlazaConfig, type PlazaConfig, type PlazaConnectorConfig } from './config';
export { plazaService } from './service';
export { PLAZA_CODES, classify } from './codes';
export { sign, plazaJson } from './protocol';
export { PlazaSettings, PlazaProcessSettings } from './config';
