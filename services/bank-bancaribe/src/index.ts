export { BancaribeConnector, type BancaribeConnectorConfig, type BancaribeConnectorDeps } from './connector';
export { loadBancaribeConfig, describeBancaribeConfig, type BancaribeConfig } from './config';
export { bancaribeService } from './service';
export type { Comercio } from './requests';
export { BancaribeSettings, BancaribeProcessSettings } from './config';
