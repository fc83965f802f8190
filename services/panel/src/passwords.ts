import { hash, verify } from '@node-rs/argon2';

/**
 * Passwords: argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane). A wrong address is answered
 * after the same work as a wrong password (a dummy verification), so timing tells nothing.
 */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

let dummy: Promise<string> | undefined;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    dummy ??= hashPassword('not-a-real-password-at-all');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

/** Null when acceptable, else the reason's message key. */
export function passwordProblem(password: string, email: string): 'password.short' | 'password.long' | 'password.email' | null {
  if (password.length < MIN_PASSWORD_LENGTH) return 'password.short';
  if (password.length > MAX_PASSWORD_LENGTH) return 'password.long';
  if (password.toLowerCase().includes(email.split('@')[0]!.toLowerCase())) return 'password.email';
  return null;
}
