import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config';

describe('gateway configuration: HTTP edge and throttling', () => {
  it('has bounded defaults (no timeout is 0, a connection cap is set)', () => {
    const c = loadGatewayConfig({});
    expect(c.requestTimeoutMs).toBe(10_000);
    expect(c.headersTimeoutMs).toBe(5_000);
    expect(c.keepAliveTimeoutMs).toBe(72_000);
    expect(c.connectionTimeoutMs).toBe(60_000);
    expect(c.maxConnections).toBe(4096);
    expect(c.failureLimitPerIpPerMinute).toBe(120);
    expect(c.gatewayReplicas).toBe('auto');
    expect(c.trustProxy).toBe(false);
  });

  it('SWITCH_TRUST_PROXY: a number of hops or addresses and CIDRs', () => {
    expect(loadGatewayConfig({ SWITCH_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadGatewayConfig({ SWITCH_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadGatewayConfig({ SWITCH_TRUST_PROXY: 'everyone' })).toThrow(/SWITCH_TRUST_PROXY: "everyone" is not an address/);
  });

  it('SWITCH_SANDBOX_BANKS: the emulated banks whose magic amounts /bancos lists (none by default)', () => {
    expect(loadGatewayConfig({}).sandboxBanks).toEqual([]);
    expect(loadGatewayConfig({ SWITCH_SANDBOX_BANKS: 'banco_plaza, bancaribe,banco_activo' }).sandboxBanks).toEqual([
      'banco_plaza',
      'bancaribe',
      'banco_activo',
    ]);
    expect(() => loadGatewayConfig({ SWITCH_SANDBOX_BANKS: 'bnc' })).toThrow(/SWITCH_SANDBOX_BANKS: "bnc" has no emulator sandbox/);
  });

  it('reads every variable', () => {
    const c = loadGatewayConfig({
      SWITCH_HTTP_REQUEST_TIMEOUT_MS: '20000',
      SWITCH_HTTP_HEADERS_TIMEOUT_MS: '3000',
      SWITCH_HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000',
      SWITCH_HTTP_CONNECTION_TIMEOUT_MS: '90000',
      SWITCH_HTTP_MAX_CONNECTIONS: '100',
      SWITCH_FAILURE_LIMIT_PER_IP_PER_MINUTE: '10',
      SWITCH_GATEWAY_REPLICAS: '4',
    });
    expect(c).toMatchObject({
      requestTimeoutMs: 20_000,
      headersTimeoutMs: 3_000,
      keepAliveTimeoutMs: 75_000,
      connectionTimeoutMs: 90_000,
      maxConnections: 100,
      failureLimitPerIpPerMinute: 10,
      gatewayReplicas: 4,
    });
  });

  it.each([
    [{ SWITCH_HTTP_REQUEST_TIMEOUT_MS: 'soon' }, /SWITCH_HTTP_REQUEST_TIMEOUT_MS: "soon" is not an integer/],
    [{ SWITCH_HTTP_MAX_CONNECTIONS: '0' }, /SWITCH_HTTP_MAX_CONNECTIONS: 0 is below the minimum 1/],
    [{ SWITCH_GATEWAY_REPLICAS: '0' }, /SWITCH_GATEWAY_REPLICAS/],
    [{ SWITCH_GATEWAY_REPLICAS: 'many' }, /SWITCH_GATEWAY_REPLICAS: "many" is not an integer/],
    [{ SWITCH_HTTP_HEADERS_TIMEOUT_MS: '20000' }, /SWITCH_HTTP_HEADERS_TIMEOUT_MS: 20000 must not exceed SWITCH_HTTP_REQUEST_TIMEOUT_MS/],
    [{ SWITCH_HTTP_CONNECTION_TIMEOUT_MS: '30000' }, /SWITCH_HTTP_CONNECTION_TIMEOUT_MS: 30000 must exceed the longest answer wait/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadGatewayConfig(env)).toThrow(message);
  });
});
