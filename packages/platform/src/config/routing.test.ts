import { describe, expect, it } from 'vitest';
import { loadRoutingTable, parseBankList } from './routing';
import { ConfigError } from './env';
import { CAPABILITIES } from '@switch/core/contracts/bancos';

const VAR = 'SWITCH_TEST_BANKS';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('parseBankList', () => {
  it('gives each listed bank its default capabilities, in the listed order', () => {
    expect(parseBankList(VAR, 'bnc')).toEqual([{ banco: 'bnc', capabilities: [...CAPABILITIES] }]);
    const list = parseBankList(VAR, 'bancaribe, bnc');
    expect(list.map((b) => b.banco)).toEqual(['bancaribe', 'bnc']);
    // bancaribe has no token capability by default.
    expect(list[0]!.capabilities).toEqual(['cobrar', 'pagar', 'consultar', 'saldo', 'movimientos']);
  });

  it('narrows a bank to the capabilities after ":" joined by "+"', () => {
    expect(parseBankList(VAR, 'bnc,banco_plaza:pagar+consultar')).toEqual([
      { banco: 'bnc', capabilities: [...CAPABILITIES] },
      { banco: 'banco_plaza', capabilities: ['pagar', 'consultar'] },
    ]);
    expect(parseBankList(VAR, ' banco_activo : saldo ')).toEqual([{ banco: 'banco_activo', capabilities: ['saldo'] }]);
  });

  it('an empty string enables no bank', () => {
    expect(parseBankList(VAR, '')).toEqual([]);
    expect(parseBankList(VAR, ' , ')).toEqual([]);
  });

  it('refuses an unknown bank, naming the variable and the bank', () => {
    const e = configError(() => parseBankList(VAR, 'bnc,banco_inventado'));
    expect(e.variable).toBe(VAR);
    expect(e.message).toContain(VAR);
    expect(e.message).toContain('banco_inventado');
  });

  it('refuses an unknown capability, naming the variable and the capability', () => {
    const e = configError(() => parseBankList('SWITCH_LIVE_BANKS', 'bnc:pagar+volar'));
    expect(e.variable).toBe('SWITCH_LIVE_BANKS');
    expect(e.message).toContain('SWITCH_LIVE_BANKS');
    expect(e.message).toContain('volar');
  });

  it('refuses a bank listed twice', () => {
    const e = configError(() => parseBankList(VAR, 'bnc,banco_plaza,bnc:pagar'));
    expect(e.variable).toBe(VAR);
    expect(e.message).toContain('bnc');
  });

  it('refuses an empty bank name or an empty capability', () => {
    expect(configError(() => parseBankList(VAR, ':pagar')).variable).toBe(VAR);
    expect(configError(() => parseBankList(VAR, 'bnc:')).variable).toBe(VAR);
    expect(configError(() => parseBankList(VAR, 'bnc:pagar+')).variable).toBe(VAR);
  });
});

describe('loadRoutingTable', () => {
  it('defaults to the simulated bank in test mode and no bank in live mode', () => {
    expect(loadRoutingTable({})).toEqual({ test: [{ banco: 'bnc', capabilities: [...CAPABILITIES] }], live: [] });
  });

  it('an empty variable means no bank, not the default', () => {
    expect(loadRoutingTable({ SWITCH_TEST_BANKS: '' }).test).toEqual([]);
  });

  it('reads both modes from their own variables', () => {
    const table = loadRoutingTable({ SWITCH_TEST_BANKS: 'banco_plaza', SWITCH_LIVE_BANKS: 'bnc:pagar' });
    expect(table).toEqual({
      test: [{ banco: 'banco_plaza', capabilities: [...CAPABILITIES] }],
      live: [{ banco: 'bnc', capabilities: ['pagar'] }],
    });
    expect(configError(() => loadRoutingTable({ SWITCH_LIVE_BANKS: 'nope' })).variable).toBe('SWITCH_LIVE_BANKS');
  });
});
