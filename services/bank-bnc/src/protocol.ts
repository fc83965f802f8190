import { createCipheriv, createDecipheriv, createHash, pbkdf2Sync } from 'node:crypto';

/**
 * BNC "ESolutions" envelope and crypto (PROTOCOLS §1.2), pure functions shared by the connector and
 * the emulator so both sides speak exactly the same bytes.
 *
 * Every call is `POST {ClientGUID, Reference, Value, Validation, swTestOperation}` where `Value` is
 * the inner JSON, UTF-16LE, AES-256-CBC/PKCS7 with key and IV from the classic .NET
 * `Rfc2898DeriveBytes(key, "Ivan Medvedev")` derivation, base64; `Validation` is the lowercase hex
 * SHA-256 of the same inner JSON in UTF-8. Answers are `{status, message, value, validation}`,
 * `value` encrypted with the key the request used.
 */

/** "Ivan Medvedev": the salt of the .NET snippet BNC's doc copies. */
export const BNC_SALT = Buffer.from([0x49, 0x76, 0x61, 0x6e, 0x20, 0x4d, 0x65, 0x64, 0x76, 0x65, 0x64, 0x65, 0x76]);
export const PBKDF2_ITERATIONS = 1000;

export interface KeyMaterial {
  key: Buffer;
  iv: Buffer;
}

// The derivation costs 1000 SHA-1 rounds; one key (the day's WorkingKey) serves every call.
const derived = new Map<string, KeyMaterial>();
const DERIVED_CACHE_LIMIT = 64;

export function deriveKeyMaterial(encryptionKey: string): KeyMaterial {
  const cached = derived.get(encryptionKey);
  if (cached) return cached;
  const dk = pbkdf2Sync(Buffer.from(encryptionKey, 'utf8'), BNC_SALT, PBKDF2_ITERATIONS, 48, 'sha1');
  const material = { key: dk.subarray(0, 32), iv: dk.subarray(32, 48) };
  if (derived.size >= DERIVED_CACHE_LIMIT) derived.delete(derived.keys().next().value as string);
  derived.set(encryptionKey, material);
  return material;
}

/** `Value`: base64 of AES-256-CBC over the UTF-16LE text. */
export function encryptValue(plaintext: string, encryptionKey: string): string {
  const { key, iv } = deriveKeyMaterial(encryptionKey);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([cipher.update(Buffer.from(plaintext, 'utf16le')), cipher.final()]).toString('base64');
}

/** Inverse of `encryptValue`; throws when the key is wrong (bad padding) or the text is not base64 AES. */
export function decryptValue(value: string, encryptionKey: string): string {
  const { key, iv } = deriveKeyMaterial(encryptionKey);
  const decipher = createDecipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([decipher.update(Buffer.from(value, 'base64')), decipher.final()]).toString('utf16le');
}

/** `Validation`: lowercase hex SHA-256 of the inner JSON in UTF-8 (not UTF-16: verified on the doc's vector). */
export function validationOf(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

export interface BncRequestEnvelope {
  ClientGUID: string;
  Reference: string;
  Value: string;
  Validation: string;
  swTestOperation: boolean;
}

/** Seals an inner request. The JSON string is made once, so the ciphertext and the hash cover the same text. */
export function sealRequest(input: { clientGuid: string; reference: string; inner: unknown; encryptionKey: string; testOperation?: boolean }): BncRequestEnvelope {
  const plaintext = JSON.stringify(input.inner);
  return {
    ClientGUID: input.clientGuid,
    Reference: input.reference,
    Value: encryptValue(plaintext, input.encryptionKey),
    Validation: validationOf(plaintext),
    swTestOperation: input.testOperation ?? false,
  };
}

export interface BncResponseEnvelope {
  status: string;
  message: string;
  value: string | null;
  validation: string | null;
}

/** Builds an answer the way BNC does (used by the emulator; `inner` null for answers without a value). */
export function sealResponse(status: 'OK' | 'KO', message: string, inner: unknown, encryptionKey: string | null): BncResponseEnvelope {
  if (inner === null || inner === undefined || encryptionKey === null) return { status, message, value: null, validation: null };
  const plaintext = JSON.stringify(inner);
  return { status, message, value: encryptValue(plaintext, encryptionKey), validation: validationOf(plaintext) };
}

/**
 * Reads a field whatever its casing: the bank is ASP.NET (case-insensitive binding) and clients in
 * the wild send `value` as well as `Value`.
 */
export function field(obj: Record<string, unknown>, name: string): unknown {
  if (name in obj) return obj[name];
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** Parses an answer body into the envelope, or null when it is not one (an HTML error page, a proxy's text). */
export function parseResponseEnvelope(body: string): { envelope: BncResponseEnvelope; json: Record<string, unknown> } | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const obj = json as Record<string, unknown>;
  const status = field(obj, 'status');
  const message = field(obj, 'message');
  if (typeof status !== 'string' || typeof message !== 'string') return null;
  const value = field(obj, 'value');
  const validation = field(obj, 'validation');
  return {
    envelope: {
      status: status.toUpperCase(),
      message,
      value: typeof value === 'string' && value !== '' ? value : null,
      validation: typeof validation === 'string' && validation !== '' ? validation : null,
    },
    json: obj,
  };
}

export type OpenedValue = { ok: true; value: unknown; plaintext: string } | { ok: true; value: null; plaintext: null } | { ok: false; problem: string };

/**
 * Decrypts and checks an answer's `value`: the validation must be the SHA-256 of the decrypted text
 * (verified on the doc's BCVRates example). An answer without a value opens to null.
 */
export function openValue(envelope: Pick<BncResponseEnvelope, 'value' | 'validation'>, encryptionKey: string): OpenedValue {
  if (envelope.value === null) return { ok: true, value: null, plaintext: null };
  let plaintext: string;
  try {
    plaintext = decryptValue(envelope.value, encryptionKey);
  } catch {
    return { ok: false, problem: 'value does not decrypt with the request key' };
  }
  if (envelope.validation !== null && envelope.validation.toLowerCase() !== validationOf(plaintext)) {
    return { ok: false, problem: 'validation does not match the decrypted value' };
  }
  try {
    return { ok: true, value: JSON.parse(plaintext) as unknown, plaintext };
  } catch {
    return { ok: false, problem: 'decrypted value is not JSON' };
  }
}

/** A WorkingKey as the doc shows it: 32 hex characters. */
export const WORKING_KEY_PATTERN = /^[0-9a-fA-F]{32}$/;
