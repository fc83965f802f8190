import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Mode } from './bancos';
import type { AuditEntry, PanelInvite, PanelRole, Store } from '../ports/store';

/**
 * Who may do what in the merchant panel, and how people get in: the operator invites a merchant's
 * first user (onboarding tool, admin API) and that user invites teammates (panel). The same rules
 * for both doors, here.
 */

export const INVITE_TTL_MS = 7 * 86_400_000;
export const EMAIL_PATTERN = '^[^\\s@]{1,64}@[^\\s@]{1,190}\\.[^\\s@]{2,63}$';

/** What each role may do; checked on the server for every action, whatever the page showed. */
const PERMISSIONS = {
  owner: ['read', 'keys.test', 'keys.live', 'endpoints', 'redeliver', 'team'],
  developer: ['read', 'keys.test', 'endpoints', 'redeliver'],
  viewer: ['read'],
} as const satisfies Record<PanelRole, readonly string[]>;
export type PanelAction = (typeof PERMISSIONS)[PanelRole][number];

export function can(role: PanelRole, action: PanelAction): boolean {
  return (PERMISSIONS[role] as readonly string[]).includes(action);
}

/** Managing keys of a mode: live keys are for owners only. */
export const keyAction = (mode: Mode): PanelAction => (mode === 'live' ? 'keys.live' : 'keys.test');

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
export const hashInviteToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Creates an invitation; the returned token is shown once (in the link) and stored only hashed. */
export async function createInvite(
  store: Store,
  input: { merchantId: string; email: string; role: PanelRole; invitedBy: string | null },
  now = new Date(),
): Promise<{ invite: PanelInvite; token: string }> {
  const token = `inv_${randomBytes(24).toString('base64url')}`;
  const invite: PanelInvite = {
    tokenHash: hashInviteToken(token),
    merchantId: input.merchantId,
    email: normaliseEmail(input.email),
    role: input.role,
    invitedBy: input.invitedBy,
    expiresAt: new Date(now.getTime() + INVITE_TTL_MS).toISOString(),
    createdAt: now.toISOString(),
  };
  await store.panelInvites.insert(invite);
  return { invite, token };
}

/** The invitation behind a token, taken once; null when unknown, used or expired. */
export async function takeInvite(store: Store, token: string, now = new Date()): Promise<PanelInvite | null> {
  const invite = await store.panelInvites.take(hashInviteToken(token));
  return invite && invite.expiresAt > now.toISOString() ? invite : null;
}

/** Appends one line to the merchant's audit log. */
export async function recordAudit(store: Store, entry: Omit<AuditEntry, 'id' | 'at'> & { at?: string }): Promise<void> {
  await store.audit.append({
    id: `aud_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
    at: entry.at ?? new Date().toISOString(),
    ...entry,
  });
}
