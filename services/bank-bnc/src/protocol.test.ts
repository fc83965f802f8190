import { describe, expect, it } from 'vitest';
import { decryptValue, encryptValue, openValue, parseResponseEnvelope, sealRequest, sealResponse, validationOf } from './protocol';

const LOGON_INNER = '{"ClientGUID":"4A074C46-DD4E-4E54-8010-B80A6A8758F4"}';

describe('BNC envelope crypto (PROTOCOLS §1.2)', () => {
  it('reproduces the doc vector: Validation = sha256 of the inner JSON in UTF-8', () => {
    expect(validationOf(LOGON_INNER)).toBe('fb8443f34045bdba97a174776205f7fee4e8dd59ccf15cc915d5bf2d2c61841b');
  });

  it('reproduces our AES vector: PBKDF2-SHA1 "Ivan Medvedev" ×1000, AES-256-CBC over UTF-16LE, key test-master-key', () => {
    expect(encryptValue(LOGON_INNER, 'test-master-key')).toBe(
      'gt6OrczW5uCGhuXb1bnwQz3v0kilGiaSD8YI0bOQ6NeAuhygmWco7fMtRaQBzogmDcFbOt88FOo4Iar7WpLCGtmcEov6k0AYbzIuj7K20YJSdQrfp9PERugdAlqZD8P3cpBDAmfdpbT2H1cfVT3E6g==',
    );
  });

  it('encrypts UTF-16LE: 53 characters become 112 bytes, as the doc example', () => {
    expect(Buffer.from(encryptValue(LOGON_INNER, 'any key'), 'base64')).toHaveLength(112);
  });

  it('round-trips text with accents and refuses the wrong key', () => {
    const text = '{"Concept":"Pago de almuerzo, señor López"}';
    const value = encryptValue(text, 'dc33ec0e7de19f6da415b4d81f4dd704');
    expect(decryptValue(value, 'dc33ec0e7de19f6da415b4d81f4dd704')).toBe(text);
    expect(() => {
      const out = decryptValue(value, 'another key');
      if (out !== text) throw new Error('garbage');
    }).toThrow();
  });

  it('seals a request: the hash and the ciphertext cover the same JSON text', () => {
    const env = sealRequest({ clientGuid: 'G', reference: 'R1', inner: { A: 1, B: 'x' }, encryptionKey: 'k' });
    expect(env).toMatchObject({ ClientGUID: 'G', Reference: 'R1', swTestOperation: false });
    const plain = decryptValue(env.Value, 'k');
    expect(plain).toBe('{"A":1,"B":"x"}');
    expect(env.Validation).toBe(validationOf(plain));
  });

  it('opens an answer whatever the casing of its fields, and checks validation against the plaintext', () => {
    const sealed = sealResponse('OK', '000000Consulta exitosa', { PriceRateBCV: 36.6642 }, 'wk');
    const body = JSON.stringify({ Status: sealed.status, Message: sealed.message, Value: sealed.value, Validation: sealed.validation });
    const parsed = parseResponseEnvelope(body)!;
    expect(parsed.envelope.status).toBe('OK');
    expect(openValue(parsed.envelope, 'wk')).toMatchObject({ ok: true, value: { PriceRateBCV: 36.6642 } });
    expect(openValue({ ...parsed.envelope, validation: '00'.repeat(32) }, 'wk')).toEqual({
      ok: false,
      problem: 'validation does not match the decrypted value',
    });
    expect(openValue(parsed.envelope, 'other').ok).toBe(false);
  });

  it('the doc BCVRates answer: validation is the sha256 of the decrypted value', () => {
    expect(validationOf('{"PriceRateBCV":36.66420000,"dtRate":"07/08/2024"}')).toBe(
      '4aa6fe4be956d615886f2328d8ad7fcc370f6cf972a5ddfa28ca3c4844dee526',
    );
  });

  it('does not take an HTML error page for an envelope', () => {
    expect(parseResponseEnvelope('<html>500</html>')).toBeNull();
    expect(parseResponseEnvelope('{"status":"KO"}')).toBeNull();
    expect(parseResponseEnvelope('{"status":"KO","message":"EPIRWKPetición denegada","value":""}')!.envelope.value).toBeNull();
  });
});
