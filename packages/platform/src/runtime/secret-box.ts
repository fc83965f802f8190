import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (DESIGN rule 7): webhook signing secrets and payers' OTPs are kept only sealed
 * with AES-256-GCM under a key that lives outside the database (`SWITCH_SECRETS_KEY`, from the
 * environment or a Kubernetes Secret). A sealed value names the key that sealed it:
 *
 *   `sb1.<key id>.<iv, base64url>.<ciphertext + tag, base64url>`
 *
 * `sb1` is the format version; the key id is the first 8 hex digits of the key's SHA-256 (it tells
 * keys apart, it reveals nothing about them). Opening accepts the current key and any previous key
 * (`SWITCH_SECRETS_PREVIOUS_KEYS`), so the key can be rotated without downtime: make the new key the
 * current one and the old one previous, re-seal what is stored (`npm run switch -- secrets reseal`),
 * then drop the old key (docs/operations.md "Rotating the secrets key").
 */
export const SEALED_PREFIX = 'sb1.';

/** Opens and seals secrets; what the domain needs of the secret box. */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

export class SecretBoxError extends Error {}

export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

export class SecretBox implements Sealer {
  private readonly keys = new Map<string, Buffer>();
  /** Id of the key every new seal uses. */
  readonly currentKeyId: string;

  constructor(
    private readonly current: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    for (const key of [current, ...previous]) {
      if (key.length !== KEY_BYTES) throw new SecretBoxError(`a secrets key is ${KEY_BYTES} bytes, got ${key.length}`);
      this.keys.set(keyIdOf(key), key);
    }
    this.currentKeyId = keyIdOf(current);
  }

  /** A box with a fresh random key: for a process whose store keeps nothing (`npm start`, tests). */
  static ephemeral(): SecretBox {
    return new SecretBox(randomBytes(KEY_BYTES));
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv);
    // The key id is authenticated too: a sealed value moved under another id does not open.
    cipher.setAAD(Buffer.from(this.currentKeyId));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_PREFIX}${this.currentKeyId}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  open(sealed: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 4 || `${parts[0]}.` !== SEALED_PREFIX) throw new SecretBoxError('not a sealed secret');
    const [, keyId, iv64, body64] = parts as [string, string, string, string];
    const key = this.keys.get(keyId);
    if (!key) throw new SecretBoxError(`sealed under key ${keyId}, which is neither the current nor a previous secrets key`);
    const iv = Buffer.from(iv64, 'base64url');
    const body = Buffer.from(body64, 'base64url');
    if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new SecretBoxError('malformed sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(keyId));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(`sealed secret under key ${keyId} does not open (tampered with, or another key with the same id)`);
    }
  }

  /** True when `sealed` was sealed under a key other than the current one: a rotation re-seals it. */
  isStale(sealed: string): boolean {
    return !sealed.startsWith(`${SEALED_PREFIX}${this.currentKeyId}.`);
  }

  /** The value sealed under the current key (unchanged when it already is). */
  reseal(sealed: string): string {
    return this.isStale(sealed) ? this.seal(this.open(sealed)) : sealed;
  }

  /**
   * A keyed digest of `plain` under the current key: stands for a secret in a comparison (an
   * idempotency fingerprint) without being reversible by trying every short value, as a bare hash is.
   */
  digest(label: string, plain: string): string {
    return createHmac('sha256', this.current).update(`${label}\u0000${plain}`).digest('base64url');
  }
}
