import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * What a page says once after the form that changed something (Post/Redirect/Get): a message key,
 * its values, and at most one secret to show (a new key, a webhook secret, an invitation or reset link).
 */
export interface Flash {
  notice: string;
  vars?: Record<string, string>;
  secret?: { kind: 'key' | 'webhook' | 'rotated' | 'invite' | 'reset'; value: string; id?: string; until?: string };
}

/** The sealed flash kept in the session: its content opens only with the key in the redirect. */
export interface SealedFlash {
  id: string;
  box: string;
}

/** The query parameter of the redirect carrying `<id>.<key>`. */
export const FLASH_PARAM = 'aviso';
const TOKEN = /^([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

/**
 * Seals a flash under a fresh one-time key. The session keeps the ciphertext, the redirect URL the
 * key: a secret shown after the redirect is never in clear in the session store, and never in the
 * URL; the first page that opens it drops the ciphertext, so the key (in the browser's history) is
 * worth nothing afterwards, and a reload shows the page without it.
 */
export function sealFlash(flash: Flash): { sealed: SealedFlash; token: string } {
  const id = randomBytes(12).toString('base64url');
  const key = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(id));
  const body = Buffer.concat([cipher.update(JSON.stringify(flash), 'utf8'), cipher.final()]);
  const box = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  return { sealed: { id, box }, token: `${id}.${key.toString('base64url')}` };
}

/** Opens the session's flash with the redirect's token; null when absent, another flash's, or tampered. */
export function openFlash(sealed: SealedFlash | undefined, token: unknown): Flash | null {
  if (!sealed || typeof token !== 'string') return null;
  const match = TOKEN.exec(token);
  if (!match || match[1] !== sealed.id) return null;
  try {
    const raw = Buffer.from(sealed.box, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(match[2]!, 'base64url'), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(sealed.id));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as Flash;
  } catch {
    return null;
  }
}

/** `path` with the flash token added to its query. */
export function withFlash(path: string, token: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${FLASH_PARAM}=${token}`;
}
