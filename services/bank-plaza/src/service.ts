import type { ConnectorService } from '@switch/connector-kit/service';
import type { PlazaConnectorConfig } from './config';
import { BancoPlazaConnector } from './connector';

/** Banco Plaza as a service: `banco_plaza` orders of every configured mode. */
export const plazaService: ConnectorService<PlazaConnectorConfig, BancoPlazaConnector> = {
  banco: 'banco_plaza',
  name: 'bank-plaza',
  Connector: BancoPlazaConnector,
};
