import { ConfigError } from '@switch/platform/config/env';
import { describe, expect, it } from 'vitest';
import { describeBncConfig, loadBncConfig } from './config';

const full = {
  BNC_LIVE_URL: 'https://servicios.bncenlinea.com:16000/api/',
  BNC_LIVE_CLIENT_GUID: '4A074C46-DD4E-4E54-8010-B80A6A8758F4',
  BNC_LIVE_MASTER_KEY: 's3cr3t-master',
  BNC_LIVE_CLIENT_ID: 'J000121532',
  BNC_LIVE_ACCOUNT: '01910001482101010049',
  BNC_LIVE_TERMINAL: 'TERM0001',
};

describe('BNC configuration', () => {
  it('has no connector when BNC_LIVE_URL is absent', () => {
    expect(loadBncConfig({})).toEqual({});
  });

  it('reads the live connector with defaults', () => {
    const live = loadBncConfig(full).live!;
    expect(live).toMatchObject({
      baseUrl: 'https://servicios.bncenlinea.com:16000/api',
      clientId: 'J000121532',
      timeoutMs: 30_000,
      lookbackDays: 3,
    });
    expect(live.breaker?.volumeThreshold).toBeGreaterThan(0);
  });

  it('names the missing or bad variable, without echoing secrets', () => {
    const { BNC_LIVE_MASTER_KEY: _k, ...noKey } = full;
    expect(() => loadBncConfig(noKey)).toThrow(new ConfigError('BNC_LIVE_MASTER_KEY', 'is required when BNC_LIVE_URL is set'));
    expect(() => loadBncConfig({ ...full, BNC_LIVE_CLIENT_GUID: 'not-a-guid' })).toThrow(/BNC_LIVE_CLIENT_GUID/);
    expect(() => loadBncConfig({ ...full, BNC_LIVE_ACCOUNT: '123' })).toThrow(/BNC_LIVE_ACCOUNT/);
    expect(() => loadBncConfig({ ...full, BNC_LIVE_TIMEOUT_MS: 'soon' })).toThrow(/BNC_LIVE_TIMEOUT_MS/);
    expect(() => loadBncConfig({ ...full, BNC_LIVE_URL: 'ftp://x' })).toThrow(/BNC_LIVE_URL/);
  });

  it('describes itself without the MasterKey', () => {
    expect(JSON.stringify(describeBncConfig(loadBncConfig(full)))).not.toContain('s3cr3t-master');
  });
});
