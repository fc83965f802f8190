export { panelPlugin, type PanelDeps } from './panel';
export { loadPanelConfig, type PanelConfig } from './config';
export { hashPassword } from './passwords';
export { startPanelReads } from './reads';
export { PanelSettings, PanelConfigSettings, PanelServiceSettings, panelConfig } from './config';
export { foldOverviewRound, startOverviewFold } from './overview-fold';
