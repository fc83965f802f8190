import type { ConnectorService } from '@switch/connector-kit/service';
import type { ActivoConnectorConfig } from './config';
import { ActivoConnector } from './connector';

/** Banco Activo as a service: `banco_activo` orders of every configured mode. */
export const activoService: ConnectorService<ActivoConnectorConfig, ActivoConnector> = {
  banco: 'banco_activo',
  name: 'bank-activo',
  Connector: ActivoConnector,
};
