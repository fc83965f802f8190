import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { signWebhook, standardWebhookHeaders, verifyStandardWebhook, verifyWebhook } from './webhook-signing';

describe('webhook signatures', () => {
  const body = '{"type":"transaccion.liquidada","data":{"monto":10.5}}';
  it('is sha256=<lowercase hex HMAC-SHA256 of the raw body>', () => {
    const hex = createHmac('sha256', 'whsec_test').update(body).digest('hex');
    expect(signWebhook(body, 'whsec_test')).toBe(`sha256=${hex}`);
    expect(signWebhook(body, 'whsec_test')).toMatch(/^sha256=[0-9a-f]{64}$/);
  });
  it('verifies only the exact bytes with the right secret', () => {
    const sig = signWebhook(body, 'whsec_test');
    expect(verifyWebhook(body, sig, 'whsec_test')).toBe(true);
    expect(verifyWebhook(JSON.stringify(JSON.parse(body), null, 1), sig, 'whsec_test')).toBe(false);
    expect(verifyWebhook(body, sig, 'whsec_other')).toBe(false);
    expect(verifyWebhook(body, undefined, 'whsec_test')).toBe(false);
    expect(verifyWebhook(body, 'sha256=00', 'whsec_test')).toBe(false);
  });
  it('adds replay-resistant Standard Webhooks headers that expire', () => {
    const h = standardWebhookHeaders('dlv_1', 1_700_000_000, body, 'whsec_test');
    expect(verifyStandardWebhook(body, h, 'whsec_test', 1_700_000_100)).toBe(true);
    expect(verifyStandardWebhook(body, h, 'whsec_test', 1_700_001_000)).toBe(false);
    expect(verifyStandardWebhook(body.replace('10.5', '99'), h, 'whsec_test', 1_700_000_100)).toBe(false);
  });
});
