import { describe, expect, it } from 'vitest';
import { ConfigError } from '@switch/platform/config/env';
import { loadPlazaConfig } from './config';

const full = {
  PLAZA_TEST_URL: 'http://127.0.0.1:8585/',
  PLAZA_TEST_API_KEY: 'key',
  PLAZA_TEST_API_SECRET: 'very-secret-value',
  PLAZA_TEST_RIF: 'j123456789',
  PLAZA_TEST_ACCOUNT: '01380000000000000001',
};

describe('Banco Plaza configuration', () => {
  it('has no connector for a mode without a URL', () => {
    expect(loadPlazaConfig({})).toEqual({});
    expect(Object.keys(loadPlazaConfig(full))).toEqual(['test']);
  });

  it('reads a mode with its defaults', () => {
    const c = loadPlazaConfig({ ...full, PLAZA_TIMEOUT_MS: '5000', PLAZA_TEST_PHONE: '04141234567' }).test!;
    expect(c).toMatchObject({
      baseUrl: 'http://127.0.0.1:8585',
      rif: 'J123456789',
      phone: '04141234567',
      clientIp: '127.0.0.1',
      timeoutMs: 5000,
    });
    expect(c.breaker.resetTimeoutMs).toBe(30_000);
  });

  it('names the missing or bad variable without echoing secrets', () => {
    const missing = () => loadPlazaConfig({ ...full, PLAZA_TEST_API_SECRET: '' });
    expect(missing).toThrow(ConfigError);
    expect(missing).toThrow(/PLAZA_TEST_API_SECRET/);
    expect(() => loadPlazaConfig({ ...full, PLAZA_TEST_ACCOUNT: '123' })).toThrow(/PLAZA_TEST_ACCOUNT/);
    expect(() => loadPlazaConfig({ ...full, PLAZA_TEST_URL: 'ftp://x' })).toThrow(/PLAZA_TEST_URL/);
    expect(() => loadPlazaConfig({ ...full, PLAZA_LIVE_URL: 'https://api.bancoplaza.com' })).toThrow(/PLAZA_LIVE_API_KEY/);
    try {
      loadPlazaConfig({ ...full, PLAZA_TEST_API_SECRET: 'has space' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toMatch(/PLAZA_TEST_API_SECRET/);
      expect(String(error)).not.toMatch(/has space/);
    }
  });
});
