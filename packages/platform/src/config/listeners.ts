/**
 * Where each service listens: the variable that moves it and its default. The defaults keep every
 * service of one machine apart (`npm run stack`), and the Kubernetes manifests open the same ports
 * (test/deploy/manifests.test.ts reads them from here).
 */
export const LISTENERS = {
  /** The merchants' API. */
  gateway: { variable: 'PORT', port: 3000 },
  /** The gateway's operator listener: /metrics, /healthz, /readyz, /admin/v1 (never exposed to merchants). */
  'gateway-operator': { variable: 'OPERATOR_PORT', port: 9100 },
  /** The panel's web pages for merchants' teams. */
  'panel-web': { variable: 'PANEL_PORT', port: 3100 },
  // Each service's /healthz, /readyz and /metrics.
  router: { variable: 'HEALTH_PORT', port: 9101 },
  'bank-sim': { variable: 'HEALTH_PORT', port: 9102 },
  notifier: { variable: 'HEALTH_PORT', port: 9103 },
  reconciler: { variable: 'HEALTH_PORT', port: 9104 },
  'bank-plaza': { variable: 'HEALTH_PORT', port: 9105 },
  'bank-bancaribe': { variable: 'HEALTH_PORT', port: 9106 },
  'bank-activo': { variable: 'HEALTH_PORT', port: 9107 },
  'bank-bnc': { variable: 'HEALTH_PORT', port: 9108 },
  panel: { variable: 'HEALTH_PORT', port: 9109 },
} as const satisfies Record<string, { variable: string; port: number }>;

export type Listener = keyof typeof LISTENERS;

/**
 * The default listening ports of every service of the switch (the table above): merchant 3000,
 * panel 3100, operator 9100, the services' health and metrics ports 9101–9109. In a deployment each
 * process sees only its own `PORT`/`HEALTH_PORT`, so the defaults are always in the set and
 * `SWITCH_OWN_PORTS` adds any port moved elsewhere.
 */
export const SWITCH_DEFAULT_PORTS: readonly number[] = Object.values(LISTENERS).map((l) => l.port);
