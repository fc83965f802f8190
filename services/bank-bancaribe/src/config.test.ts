import { describe, expect, it } from 'vitest';
import { ConfigError } from '@switch/platform/config/env';
import { describeBancaribeConfig, loadBancaribeConfig } from './config';

const TEST_ENV = {
  BANCARIBE_TEST_URL: 'http://127.0.0.1:8243/',
  BANCARIBE_TEST_CONSUMER_KEY: 'key',
  BANCARIBE_TEST_CONSUMER_SECRET: 'very-secret',
  BANCARIBE_TEST_MERCHANT_RIF: 'J12114',
  BANCARIBE_TEST_MERCHANT_PHONE: '04141000114',
  BANCARIBE_TEST_MERCHANT_ACCOUNT: '01140111122222233333',
  BANCARIBE_TEST_CLIENT_HASH: 'hash-guid',
};

const load = (env: Record<string, string>) => loadBancaribeConfig(env);

describe('Bancaribe configuration', () => {
  it('builds a connector config per mode whose URL is set, and none for the other', () => {
    const config = load(TEST_ENV);
    expect(config.live).toBeUndefined();
    expect(config.test).toMatchObject({
      baseUrl: 'http://127.0.0.1:8243',
      consumerKey: 'key',
      consumerSecret: 'very-secret',
      comercio: { rif: 'J12114', telefono: '04141000114', cuenta: '01140111122222233333', hash: 'hash-guid', nombre: 'Comercio' },
      timeoutMs: 30_000,
    });
    expect(load({}).test).toBeUndefined();
  });

  it('names the missing or bad variable', () => {
    const { BANCARIBE_TEST_CONSUMER_SECRET: _s, ...withoutSecret } = TEST_ENV;
    expect(() => load(withoutSecret)).toThrow(
      new ConfigError('BANCARIBE_TEST_CONSUMER_SECRET', 'is required when BANCARIBE_TEST_URL is set'),
    );
    expect(() => load({ ...TEST_ENV, BANCARIBE_TEST_MERCHANT_PHONE: '4141000114' })).toThrow(/BANCARIBE_TEST_MERCHANT_PHONE/);
    expect(() => load({ ...TEST_ENV, BANCARIBE_TEST_MERCHANT_ACCOUNT: '01020111122222233333' })).toThrow(/BANCARIBE_TEST_MERCHANT_ACCOUNT/);
    expect(() => load({ ...TEST_ENV, BANCARIBE_TEST_URL: 'not a url' })).toThrow(/BANCARIBE_TEST_URL/);
    expect(() => load({ ...TEST_ENV, BANCARIBE_TEST_TIMEOUT_MS: 'soon' })).toThrow(/BANCARIBE_TEST_TIMEOUT_MS/);
    expect(() => load({ BANCARIBE_LIVE_URL: 'https://api.bancaribe.example:8243' })).toThrow(/BANCARIBE_LIVE_CONSUMER_KEY/);
  });

  it('describes itself without secrets', () => {
    const text = JSON.stringify(describeBancaribeConfig(load(TEST_ENV)));
    expect(text).toContain('127.0.0.1:8243');
    expect(text).not.toContain('very-secret');
    expect(text).not.toContain('hash-guid');
  });
});
