import { describe, expect, it } from 'vitest';
import {
  basicAuthorization,
  envelope,
  gatewayFault,
  isTokenRefusal,
  oauthError,
  parseBasicAuthorization,
  parseBearer,
  parseTokenResponse,
  TokenCache,
  unwrapEnvelope,
} from './protocol';

describe('WSO2 OAuth2 client_credentials', () => {
  it('sends Basic base64(consumerKey:consumerSecret)', () => {
    // RFC 7617 example pair, and a pair with a colon in the secret (only the first colon splits).
    expect(basicAuthorization('Aladdin', 'open sesame')).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
    expect(basicAuthorization('key', 'sec:ret')).toBe('Basic a2V5OnNlYzpyZXQ=');
    expect(parseBasicAuthorization('Basic a2V5OnNlYzpyZXQ=')).toEqual({ consumerKey: 'key', consumerSecret: 'sec:ret' });
    expect(parseBasicAuthorization('Bearer abc')).toBeNull();
  });

  it('reads the token answer and refuses one without token or lifetime', () => {
    expect(parseTokenResponse({ access_token: 'abc', scope: 'default', token_type: 'Bearer', expires_in: 3600 })).toEqual({
      accessToken: 'abc',
      expiresInSeconds: 3600,
      tokenType: 'Bearer',
    });
    expect(parseTokenResponse({ access_token: 'abc', expires_in: '3600' })?.expiresInSeconds).toBe(3600);
    expect(parseTokenResponse({ access_token: 'abc' })).toBeNull();
    expect(parseTokenResponse({ expires_in: 3600 })).toBeNull();
    expect(parseBearer('Bearer abc')).toBe('abc');
  });

  it('reads the OAuth2 error of the token endpoint', () => {
    expect(oauthError({ error: 'invalid_client', error_description: 'Client Authentication failed.' })).toEqual({
      error: 'invalid_client',
      description: 'Client Authentication failed.',
    });
    expect(oauthError({ access_token: 'x' })).toBeNull();
  });
});

describe('token cache', () => {
  it('gives the token out until 90% of its lifetime, then asks for a new one', () => {
    let t = Date.parse('2025-01-01T00:00:00Z');
    const cache = new TokenCache(() => new Date(t));
    expect(cache.current()).toBeNull();
    cache.store({ accessToken: 'one', expiresInSeconds: 3600, tokenType: 'Bearer' });
    t += 3239_000;
    expect(cache.current()).toBe('one');
    t += 1_000;
    expect(cache.current()).toBeNull();
  });

  it('drops only the token that was refused', () => {
    const cache = new TokenCache(() => new Date(0));
    cache.store({ accessToken: 'new', expiresInSeconds: 3600, tokenType: 'Bearer' });
    cache.invalidate('old');
    expect(cache.current()).toBe('new');
    cache.invalidate('new');
    expect(cache.current()).toBeNull();
  });
});

describe('gateway answers', () => {
  it('recognises a 401 the gateway gave for the token itself', () => {
    const invalid = { fault: { code: 900901, message: 'Invalid Credentials' } };
    expect(isTokenRefusal(401, invalid)).toBe(true);
    expect(isTokenRefusal(401, { fault: { code: '900902', message: 'Missing Credentials' } })).toBe(true);
    expect(isTokenRefusal(403, invalid)).toBe(false);
    expect(isTokenRefusal(401, { message: 'no' })).toBe(false);
    expect(gatewayFault(invalid)).toEqual({ code: '900901', message: 'Invalid Credentials', description: null });
  });

  it('unwraps the SOAP-shaped envelope whatever the case of the operation element', () => {
    const body = envelope('iniciarCreditoInmediatoAPIResponse', { codigoError: 0, secuencial: 12 });
    expect(unwrapEnvelope(body, 'iniciarCreditoInmediatoApiResponse')).toEqual({ codigoError: 0, secuencial: 12 });
    expect(
      unwrapEnvelope(
        JSON.parse('{"Envelope":{"Body":{"registrarPagoC2pApiResponse":{"out":{"codigoError":51}}}}}'),
        'registrarPagoC2pApiResponse',
      ),
    ).toEqual({ codigoError: 51 });
    expect(unwrapEnvelope({ Envelope: { Body: {} } }, 'registrarPagoC2pApiResponse')).toBeNull();
    expect(unwrapEnvelope('nope', 'x')).toBeNull();
  });
});
