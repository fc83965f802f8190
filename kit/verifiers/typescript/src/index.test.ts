import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { standardKey, verifyWebhook } from './index';

/** Signs like the switch does (packages/core/src/contracts/webhook.ts), to test the edges; real deliveries: test/kit. */
function delivery(secret: string, body: string, ts: number) {
  return {
    'x-service-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(ts),
    'webhook-signature': `v1,${createHmac('sha256', standardKey(secret)).update(`msg_1.${ts}.${body}`).digest('base64')}`,
  };
}

describe('verifyWebhook', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = '{"type":"transaccion.liquidada","data":{"monto":10.5}}';
  const now = () => 1_700_000_000;

  it('reads a Fetch Headers object as well as a plain one, and keeps UTF-8 bytes exact', () => {
    const utf8 = '{"type":"transaccion.liquidada","data":{"concepto":"ñandú"}}';
    const h = delivery(secret, utf8, 1_700_000_000);
    expect(verifyWebhook(Buffer.from(utf8), new Headers(h), { secret, nowSeconds: now })).toMatchObject({ ok: true });
    expect(verifyWebhook(utf8, h, { secret, nowSeconds: now })).toMatchObject({ ok: true });
  });
  it('names what is missing, and checks only the SPEC header when told', () => {
    const h = delivery(secret, body, 1_700_000_000);
    const { 'webhook-signature': _drop, ...specOnly } = h;
    expect(verifyWebhook(body, specOnly, { secret, nowSeconds: now })).toEqual({ ok: false, reason: 'missing_standard_headers' });
    expect(verifyWebhook(body, specOnly, { secret, nowSeconds: now, schemes: ['spec'] })).toMatchObject({ ok: true, schemes: ['spec'] });
    expect(verifyWebhook(body, { ...h, 'x-service-signature': undefined }, { secret, nowSeconds: now })).toEqual({
      ok: false,
      reason: 'missing_signature',
    });
    expect(verifyWebhook(body, { ...h, 'webhook-timestamp': '17e8' }, { secret, nowSeconds: now })).toEqual({
      ok: false,
      reason: 'bad_timestamp',
    });
    expect(verifyWebhook(body, h, { secret: [], nowSeconds: now })).toEqual({ ok: false, reason: 'no_secret' });
  });
  it('accepts a timestamp within the tolerance either side, not beyond', () => {
    const h = delivery(secret, body, 1_700_000_000);
    expect(verifyWebhook(body, h, { secret, nowSeconds: () => 1_700_000_000 - 300 }).ok).toBe(true);
    expect(verifyWebhook(body, h, { secret, nowSeconds: () => 1_700_000_000 + 301 })).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(verifyWebhook(body, h, { secret, nowSeconds: () => 1_700_000_000 + 301, toleranceSeconds: 600 }).ok).toBe(true);
  });
});
