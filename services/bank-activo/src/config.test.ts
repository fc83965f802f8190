import { describe, expect, it } from 'vitest';
import { ConfigError } from '@switch/platform/config/env';
import { loadActivoConfig } from './config';

const load = (env: Record<string, string>) => loadActivoConfig(env);
const base = { ACTIVO_TEST_URL: 'http://127.0.0.1:8243/', ACTIVO_TEST_API_KEY: 'secret-key-1', ACTIVO_TEST_RIF: 'J-08006622-7' };

describe('Banco Activo config', () => {
  it('a mode without URL has no connector', () => {
    expect(load({})).toEqual({});
    const c = load(base);
    expect(c.live).toBeUndefined();
    expect(c.test).toMatchObject({ baseUrl: 'http://127.0.0.1:8243', apiKey: 'secret-key-1', rif: 'J080066227', timeoutMs: 30_000 });
  });

  it('reads the merchant account and phone per mode', () => {
    const c = load({
      ...base,
      ACTIVO_TEST_ACCOUNT: '01710001000000000001',
      ACTIVO_TEST_PHONE: '04141234567',
      ACTIVO_TIMEOUT_MS: '5000',
      ACTIVO_BREAKER_RESET_MS: '200',
    });
    expect(c.test).toMatchObject({
      cuenta: '01710001000000000001',
      telefono: '04141234567',
      timeoutMs: 5000,
      breaker: { resetTimeoutMs: 200 },
    });
  });

  it('names the variable of a bad or missing value, never the secret', () => {
    const expectError = (env: Record<string, string>, variable: string) => {
      try {
        load(env);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        expect((e as ConfigError).variable).toBe(variable);
        expect((e as Error).message).not.toContain('secret-key-1');
      }
    };
    expectError({ ACTIVO_LIVE_URL: 'https://portalapis.bancoactivo.com:8243' }, 'ACTIVO_LIVE_API_KEY');
    expectError({ ...base, ACTIVO_TEST_URL: 'portalapis' }, 'ACTIVO_TEST_URL');
    expectError({ ACTIVO_TEST_URL: base.ACTIVO_TEST_URL, ACTIVO_TEST_API_KEY: 'secret-key-1' }, 'ACTIVO_TEST_RIF');
    expectError({ ...base, ACTIVO_TEST_ACCOUNT: '123' }, 'ACTIVO_TEST_ACCOUNT');
    expectError({ ...base, ACTIVO_TEST_PHONE: '4141234567' }, 'ACTIVO_TEST_PHONE');
    expectError({ ...base, ACTIVO_TIMEOUT_MS: 'soon' }, 'ACTIVO_TIMEOUT_MS');
  });
});
