import type { ConnectorService } from '@switch/connector-kit/service';
import { describeBancaribeConfig } from './config';
import { BancaribeConnector, type BancaribeConnectorConfig } from './connector';

/** Bancaribe as a service: `bancaribe` orders and reads of every configured mode. */
export const bancaribeService: ConnectorService<BancaribeConnectorConfig, BancaribeConnector> = {
  banco: 'bancaribe',
  name: 'bank-bancaribe',
  Connector: BancaribeConnector,
  describe: describeBancaribeConfig,
};
