export { ActivoConnector, type ActivoConnectorDeps } from './connector';
export { loadActivoConfig, type ActivoConfig, type ActivoConnectorConfig } from './config';
export { activoService } from './service';
export { ACTIVO_CODES, meaningOf } from './codes';
export { ActivoSettings, ActivoProcessSettings } from './config';
