import { CAPABILITIES, isBancoId, type BancoId, type Capability, type Mode } from '@switch/core/contracts/bancos';
import type { EnabledBank, RoutingTable } from '@switch/core/routing';
import type { Static } from '@sinclair/typebox';
import { ConfigError, readSettings, setting, settings, type EnvSource } from './env';

/** What each bank's connector can do when the operator does not narrow it. */
const DEFAULT_CAPABILITIES: Readonly<Record<BancoId, readonly Capability[]>> = {
  bnc: CAPABILITIES,
  banco_plaza: CAPABILITIES,
  bancaribe: ['cobrar', 'pagar', 'consultar', 'saldo', 'movimientos'],
  banco_activo: ['cobrar', 'pagar', 'token', 'consultar', 'saldo', 'movimientos'],
};

/**
 * `SWITCH_TEST_BANKS` / `SWITCH_LIVE_BANKS`: comma-separated banks in routing order, each optionally
 * narrowed to capabilities with `:`, e.g. `bnc,banco_plaza:pagar+consultar`. An empty value enables
 * no bank (every operation is then rejected with BANCO_NO_DISPONIBLE, SPEC 4.10.6).
 */
export function parseBankList(variable: string, value: string): EnabledBank[] {
  const seen = new Set<BancoId>();
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [name, caps] = entry.split(':').map((s) => s.trim());
      if (!name || !isBancoId(name)) throw new ConfigError(variable, `unknown bank "${name}"`);
      if (seen.has(name)) throw new ConfigError(variable, `bank "${name}" listed twice`);
      seen.add(name);
      if (caps === undefined) return { banco: name, capabilities: [...DEFAULT_CAPABILITIES[name]] };
      const capabilities = caps.split('+').map((c) => c.trim());
      for (const c of capabilities) {
        if (!(CAPABILITIES as readonly string[]).includes(c)) throw new ConfigError(variable, `unknown capability "${c}" for ${name}`);
      }
      return { banco: name, capabilities: capabilities as Capability[] };
    });
}

/** The banks each mode routes to (gateway, router, panel). An empty value is kept: it means no bank. */
export const RoutingSettings = settings(
  {
    test: setting.string(
      'SWITCH_TEST_BANKS',
      'bnc',
      'banks enabled for test keys, in routing order; `bank:cap+cap` narrows capabilities; empty = none',
      { keepEmpty: true },
    ),
    live: setting.string('SWITCH_LIVE_BANKS', '', 'the same for live keys', { keepEmpty: true }),
  },
  'Routing',
);

export function routingTable(s: Static<typeof RoutingSettings>): RoutingTable {
  const read = (mode: Mode) => parseBankList(`SWITCH_${mode.toUpperCase()}_BANKS`, s[mode]);
  return { test: read('test'), live: read('live') };
}

/** The routing table from `source` (by default the process environment). */
export function loadRoutingTable(source?: EnvSource): RoutingTable {
  return routingTable(readSettings(RoutingSettings, source));
}
