import { describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../ports/store';
import { PUBLIC_DESTINATIONS_ONLY } from '../runtime/destination';
import { checkEndpointUrl, signingSecrets, toEndpointView } from './webhook-endpoints';

const endpoint = (over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 'we_1',
  merchantId: 'm1',
  mode: 'test',
  url: 'https://hooks.example.com/x',
  events: ['transaccion.liquidada'],
  secret: 'whsec_new',
  active: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('webhook endpoint rules', () => {
  it('signs with the new secret, and with the previous one only until the overlap ends', () => {
    const rotated = endpoint({ previousSecret: { secret: 'whsec_old', until: '2026-06-01T00:00:00.000Z' } });
    expect(signingSecrets(rotated, new Date('2026-05-31T23:59:59.999Z'))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(rotated, new Date('2026-06-01T00:00:00.000Z'))).toEqual(['whsec_new']);
    expect(signingSecrets(endpoint(), new Date())).toEqual(['whsec_new']);
    expect(toEndpointView(rotated, new Date('2026-05-01T00:00:00.000Z')).rotacion_hasta).toBe('2026-06-01T00:00:00.000Z');
    expect(toEndpointView(rotated, new Date('2026-07-01T00:00:00.000Z')).rotacion_hasta).toBeNull();
    expect(JSON.stringify(toEndpointView(rotated))).not.toContain('whsec_');
  });

  it('accepts http(s) URLs without credentials to a public address; live mode wants https', async () => {
    const rules = {
      destinations: PUBLIC_DESTINATIONS_ONLY,
      rotationOverlapSeconds: 0,
      resolve: async () => [{ address: '93.184.216.34', family: 4 }],
    };
    // One rule for both modes (issue 26 item 6): loopback only where the operator allows it.
    expect(await checkEndpointUrl('http://127.0.0.1:9/x', 'test', rules)).toMatchObject({ status: 422, error: 'DESTINATION_REFUSED' });
    const local = { ...rules, destinations: { ...PUBLIC_DESTINATIONS_ONLY, allowLoopback: true } };
    expect(await checkEndpointUrl('http://127.0.0.1:9/x', 'test', local)).toBeNull();
    expect(await checkEndpointUrl('http://127.0.0.1:9/x', 'live', local)).toBeNull();
    expect(await checkEndpointUrl('http://127.0.0.1:9100/admin', 'test', local)).toMatchObject({ status: 422 });
    expect(await checkEndpointUrl('http://hooks.example.com/x', 'test', rules)).toBeNull();
    expect(await checkEndpointUrl('https://hooks.example.com/x', 'live', rules)).toBeNull();
    expect(await checkEndpointUrl('not a url', 'test', rules)).toMatchObject({ status: 400, detail: { url: 'is not a valid URL' } });
    expect(await checkEndpointUrl('ftp://a.example.com/x', 'test', rules)).toMatchObject({ status: 400 });
    expect(await checkEndpointUrl('https://u:p@a.example.com/x', 'test', rules)).toMatchObject({ status: 400 });
    expect(await checkEndpointUrl('http://hooks.example.com/x', 'live', rules)).toMatchObject({
      status: 400,
      detail: { url: 'must be https in live mode' },
    });
    const internal = { ...rules, resolve: async () => [{ address: '10.0.0.5', family: 4 }] };
    expect(await checkEndpointUrl('https://hooks.example.com/x', 'live', internal)).toMatchObject({
      status: 422,
      error: 'DESTINATION_REFUSED',
    });
    const priv = { ...internal, destinations: { ...PUBLIC_DESTINATIONS_ONLY, allowPrivate: true } };
    expect(await checkEndpointUrl('http://10.0.0.5/x', 'live', priv)).toBeNull();
  });
});
