export { buildGateway, type Gateway, type GatewayDeps } from './app';
export { loadGatewayConfig, type GatewayConfig } from './config';
export { validationDetail } from './errors';
export { announceKeyChange, KeyCache } from './key-cache';
export { GatewaySettings, GatewayConfigSettings, GatewayServiceSettings, gatewayConfig } from './config';
export { McpSettings } from './mcp/config';
