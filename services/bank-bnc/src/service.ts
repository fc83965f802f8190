import type { ConnectorService } from '@switch/connector-kit/service';
import { describeBncConfig } from './config';
import { BncConnector, type BncConnectorConfig } from './connector';

/**
 * BNC as a service: live `bnc` orders only (group `bank-bnc`); test-mode `bnc` belongs to the
 * simulated bank's group (`BncConfig` has no test mode).
 */
export const bncService: ConnectorService<BncConnectorConfig, BncConnector> = {
  banco: 'bnc',
  name: 'bank-bnc',
  Connector: BncConnector,
  describe: describeBncConfig,
};
