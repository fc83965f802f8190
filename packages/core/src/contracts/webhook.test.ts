import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { newWebhookSecret, signWebhook, standardWebhookHeaders, standardWebhookKey, verifyStandardWebhook, verifyWebhook } from './webhook';

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

describe('endpoint secrets and the Standard Webhooks key', () => {
  const body = '{"type":"transaccion.liquidada","data":{"monto":10.5}}';
  const hmacB64 = (key: Buffer | string, id: string, ts: number) =>
    createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');

  it('issues whsec_ + standard base64 of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });
  it('keys the Standard Webhooks signature with the base64-decoded secret, the SPEC header with the secret as text', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    expect(standardWebhookHeaders('msg_1', 1_700_000_000, body, secret)['webhook-signature']).toBe(
      `v1,${hmacB64(key, 'msg_1', 1_700_000_000)}`,
    );
    expect(signWebhook(body, secret)).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  });
  it('keys a string that is not standard base64 (never issued) by its text, as the kit verifiers do', () => {
    const odd = 'whsec_not base64!';
    expect(standardWebhookKey(odd)).toEqual(Buffer.from(odd));
    const h = standardWebhookHeaders('msg_1', 1_700_000_000, body, odd);
    expect(h['webhook-signature']).toBe(`v1,${hmacB64(odd, 'msg_1', 1_700_000_000)}`);
    expect(verifyStandardWebhook(body, h, odd, 1_700_000_000)).toBe(true);
    expect(verifyWebhook(body, signWebhook(body, odd), odd)).toBe(true);
  });
});
