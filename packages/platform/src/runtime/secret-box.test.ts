import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSettings, type EnvSource } from '../config/env';
import { SecretsSettings, secretBox } from '../config/infra';
import { keyIdOf, SecretBox, SecretBoxError } from './secret-box';

const loadSecretBox = (env: EnvSource, persistent: boolean) => secretBox(readSettings(SecretsSettings, env), persistent);

const key = () => randomBytes(32);

describe('SecretBox: secrets sealed at rest', () => {
  it('seals to a versioned form naming its key, never the secret, and opens it again', () => {
    const k = key();
    const box = new SecretBox(k);
    const sealed = box.seal('whsec_c2VjcmV0');
    expect(sealed).toMatch(new RegExp(`^sb1\\.${keyIdOf(k)}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    expect(sealed).not.toContain('c2VjcmV0');
    expect(box.seal('whsec_c2VjcmV0')).not.toBe(sealed); // a fresh IV each time
    expect(box.open(sealed)).toBe('whsec_c2VjcmV0');
  });

  it('refuses a tampered value, an unknown key and anything unsealed', () => {
    const box = new SecretBox(key());
    const sealed = box.seal('12345678');
    const [v, id, iv, body] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([v, id, iv, flipped.toString('base64url')].join('.'))).toThrow(SecretBoxError);
    expect(() => new SecretBox(key()).open(sealed)).toThrow(/neither the current nor a previous/);
    expect(() => box.open('12345678')).toThrow(SecretBoxError);
  });

  it('rotation: the previous key still opens, reseal moves a value to the current key', () => {
    const old = key();
    const sealedOld = new SecretBox(old).seal('whsec_b2xk');
    const rotated = new SecretBox(key(), [old]);
    expect(rotated.isStale(sealedOld)).toBe(true);
    expect(rotated.open(sealedOld)).toBe('whsec_b2xk');
    const resealed = rotated.reseal(sealedOld);
    expect(rotated.isStale(resealed)).toBe(false);
    expect(rotated.reseal(resealed)).toBe(resealed);
    // Once the old key is dropped, only the resealed value opens.
    const after = new SecretBox((rotated as unknown as { current: Buffer }).current);
    expect(after.open(resealed)).toBe('whsec_b2xk');
    expect(() => after.open(sealedOld)).toThrow(SecretBoxError);
  });

  it('configuration: a persistent store requires SWITCH_SECRETS_KEY; memory gets an ephemeral key', () => {
    expect(() => loadSecretBox({}, true)).toThrow(/SWITCH_SECRETS_KEY: is required/);
    expect(loadSecretBox({}, false)).toBeInstanceOf(SecretBox);
    expect(() => loadSecretBox({ SWITCH_SECRETS_KEY: 'c2hvcnQ=' }, true)).toThrow(/32 random bytes/);
    const current = key();
    const previous = key();
    const box = loadSecretBox(
      { SWITCH_SECRETS_KEY: current.toString('base64'), SWITCH_SECRETS_PREVIOUS_KEYS: ` ${previous.toString('base64')} ,` },
      true,
    );
    expect(box.currentKeyId).toBe(keyIdOf(current));
    expect(box.open(new SecretBox(previous).seal('x'))).toBe('x');
    expect(() => loadSecretBox({ SWITCH_SECRETS_KEY: current.toString('base64'), SWITCH_SECRETS_PREVIOUS_KEYS: 'nope' }, true)).toThrow(
      /SWITCH_SECRETS_PREVIOUS_KEYS/,
    );
  });

  it('digest: keyed, so a short value cannot be found by trying them all without the key', () => {
    const a = new SecretBox(key());
    const b = new SecretBox(key());
    expect(a.digest('otp', '12345678')).toBe(a.digest('otp', '12345678'));
    expect(a.digest('otp', '12345678')).not.toBe(b.digest('otp', '12345678'));
    expect(a.digest('otp', '12345678')).not.toContain('12345678');
  });
});
