import { loadTracingConfig } from '@switch/platform/config/tracing';
import { startTracing } from '@switch/platform/telemetry/tracing';
// First line, as in every service's main: modules are instrumented as they load. Honours the same
// OTEL_* variables (off unless an exporter is asked for); the one process is the service `switch`.
startTracing('switch', loadTracingConfig());
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInvite } from '@switch/usecases/panel-access';
import { createLogger } from '@switch/platform/telemetry/logger';
import { environmentSnapshot, readSettings } from '@switch/platform/config/env';
import { EmbeddedMainSettings } from './config';
import { startEmbeddedSwitch } from './switch';
import { seedDemoMerchant } from './seed';
import { emulatorsInstalled, unservedBanks } from './banks';

/**
 * `npm start`: the whole switch in one process, test mode, a demo merchant and its key printed for
 * curl. State lives in memory and is gone when the process stops. Test mode routes to the simulated
 * bank (`bnc`) and, when a request names them in `banco_preferido`, to the banks' emulators: the
 * sandbox that fails on demand (docs/sandbox.md). `SWITCH_EMULATORS=false npm start` leaves the
 * emulators out; a bank whose connector is configured in the environment (`PLAZA_TEST_URL`, …) is
 * served then.
 */
async function main(): Promise<void> {
  const env = environmentSnapshot();
  const settings = readSettings(EmbeddedMainSettings, env);
  const log = createLogger('switch', settings.logLevel);
  const adminToken = settings.adminToken ?? randomBytes(24).toString('base64url');
  const sw = await startEmbeddedSwitch({
    log,
    env,
    config: { adminToken },
    banks: { emulators: settings.emulators ?? emulatorsInstalled() },
  });
  const { switchKey, merchantId } = await seedDemoMerchant(sw.store);
  // The demo merchant's first panel user: a one-time link to choose a password (docs/panel.md).
  const { token: panelInvite } = await createInvite(sw.store, { merchantId, email: 'demo@switch.local', role: 'owner', invitedBy: null });
  const { host, port } = settings;
  const address = await sw.gateway.app.listen({ host, port });
  const baseUrl = address.replace('[::1]', 'localhost');
  // Metrics, probes and the admin API listen apart from the merchant port (loopback by default).
  const operatorAddress = await sw.gateway.operator.listen({ host: sw.config.operatorHost, port: sw.config.operatorPort });
  const operatorUrl = operatorAddress.replace('[::1]', 'localhost');
  // Webhooks may reach local receivers (loopback is allowed here), never these two ports.
  for (const listening of [address, operatorAddress]) sw.ownPorts.add(Number(new URL(listening).port));

  // The onboarding tool (`npm run switch`) finds the running switch's operator port and token here.
  const dir = settings.stateDir ?? join(process.cwd(), '.switch');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'admin.json'), JSON.stringify({ url: operatorUrl, merchantUrl: baseUrl, adminToken }, null, 2), { mode: 0o600 });

  const describe = (mode: 'test' | 'live', banco: string): string => {
    if (mode === 'test' && banco === 'bnc') return 'bnc (simulated)';
    const url = sw.emulators ? sw.banks.emulatorUrls[banco as keyof typeof sw.banks.emulatorUrls] : undefined;
    const emulated = url && ((mode === 'test' && banco !== 'bnc') || (mode === 'live' && banco === 'bnc'));
    return emulated ? `${banco} (emulator ${url})` : banco;
  };
  const unserved = unservedBanks(sw.routing, sw.banks);
  const bankLines = (['test', 'live'] as const).map((mode) => {
    const list = sw.routing[mode].map((b) => describe(mode, b.banco));
    const missing = unserved[mode].length ? `   [no connector configured: ${unserved[mode].join(', ')}]` : '';
    const idle = sw.banks.connected[mode].filter((b) => !sw.routing[mode].some((r) => r.banco === b));
    const notRouted = idle.length
      ? `   [connector ready, not in SWITCH_${mode.toUpperCase()}_BANKS: ${idle.map((b) => describe(mode, b)).join(', ')}]`
      : '';
    return `  Banks ${mode}:    ${list.length ? list.join(', ') : '(none)'}${missing}${notRouted}`;
  });
  for (const mode of ['test', 'live'] as const) {
    if (unserved[mode].length) log.warn({ mode, banks: unserved[mode] }, 'banks routed without a connector: their orders wait on the bus');
  }
  const kind = sw.emulators
    ? 'simulated bank and bank emulators'
    : sw.banks.connected.test.length
      ? 'simulated bank and bank connectors'
      : 'simulated bank';

  process.stdout.write(
    `${[
      '',
      `  Payments switch (embedded, test mode, ${kind}) listening on ${baseUrl}`,
      `  Docs:          ${baseUrl}/docs`,
      `  OpenAPI:       ${baseUrl}/openapi.json`,
      `  MCP:           ${baseUrl}/mcp   (same x-switch-key; docs/mcp.md)`,
      `  Panel:         ${baseUrl}/panel/invitacion/${panelInvite}   (once: choose a password for demo@switch.local; docs/panel.md)`,
      `  Operator:      ${operatorUrl}   (/metrics, /healthz, /readyz, /admin/v1; not for merchants)`,
      `  x-switch-key:  ${switchKey}`,
      ...bankLines,
      '',
      `  curl -s ${baseUrl}/switch/v1/bancos -H 'x-switch-key: ${switchKey}'`,
      ...(sw.config.sandboxBanks.length
        ? [`  Sandbox:       magic amounts for ${sw.config.sandboxBanks.join(', ')} in /bancos (\`sandbox\`) and docs/sandbox.md`]
        : []),
      '',
      `  Onboarding:    npm run switch -- help   (operator token in ${join(dir, 'admin.json')})`,
      '',
    ].join('\n')}\n`,
  );

  const stop = async (signal: string) => {
    log.warn({ signal }, 'stopping');
    await sw.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`switch failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
