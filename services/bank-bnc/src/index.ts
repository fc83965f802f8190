export { BncConnector, BNC_PATHS, SIMF_OPERATION_TYPE, type BncConnectorConfig, type BncConnectorDeps } from './connector';
export { loadBncConfig, describeBncConfig, type BncConfig } from './config';
export { bncService } from './service';
export { BNC_CODES, classify, extractCode } from './codes';
export { BncSettings, BncProcessSettings } from './config';
