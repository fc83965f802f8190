import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Mode } from '@switch/core/contracts/bancos';
import type { AuditEntry, PanelAccess, PanelInvite, PanelRole, PanelUser } from '@switch/platform/ports/panel-access';

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
  store: PanelAccess,
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

/** A merchant's invitations not yet accepted (reset links are not invitations), newest first. */
export async function pendingInvites(store: PanelAccess, merchantId: string): Promise<PanelInvite[]> {
  return (await store.panelInvites.listForMerchant(merchantId)).filter((i) => i.purpose === undefined);
}

/**
 * Withdraws every invitation of `email` to `merchantId`: its links stop working. Answers the
 * invitations withdrawn (none: nothing was pending).
 */
export async function revokeInvites(store: PanelAccess, merchantId: string, email: string): Promise<PanelInvite[]> {
  const address = normaliseEmail(email);
  const mine = (await pendingInvites(store, merchantId)).filter((i) => i.email === address);
  const taken = await Promise.all(mine.map((i) => store.panelInvites.take(i.tokenHash)));
  return taken.filter((i): i is PanelInvite => i !== null);
}

/**
 * Invites `email`, or sends the invitation again when one is pending: one address has one working
 * link, so the earlier link stops working and the new one (with a fresh week) replaces it. `resent`
 * says which happened.
 */
export async function inviteOnce(
  store: PanelAccess,
  input: { merchantId: string; email: string; role: PanelRole; invitedBy: string | null },
  now = new Date(),
): Promise<{ invite: PanelInvite; token: string; resent: boolean }> {
  const withdrawn = await revokeInvites(store, input.merchantId, input.email);
  return { ...(await createInvite(store, input, now)), resent: withdrawn.length > 0 };
}

export const INVITE_TOKEN_PATTERN = /^inv_[A-Za-z0-9_-]{20,64}$/;
export const RESET_TOKEN_PATTERN = /^rst_[A-Za-z0-9_-]{20,64}$/;
/** A password reset link works for a day: long enough to reach its person, short for a stolen one. */
export const RESET_TTL_MS = 86_400_000;

const usable = (invite: PanelInvite | null, purpose: PanelInvite['purpose'], now: Date): PanelInvite | null =>
  invite && invite.purpose === purpose && invite.expiresAt > now.toISOString() ? invite : null;

/**
 * The invitation behind a token, read without spending it (to check the request first); null when
 * unknown, used, expired or not an invitation.
 */
export async function peekInvite(store: PanelAccess, token: string, now = new Date()): Promise<PanelInvite | null> {
  if (!INVITE_TOKEN_PATTERN.test(token)) return null;
  return usable(await store.panelInvites.get(hashInviteToken(token)), undefined, now);
}

/** The invitation behind a token, taken once; null when unknown, used, expired or not an invitation. */
export async function takeInvite(store: PanelAccess, token: string, now = new Date()): Promise<PanelInvite | null> {
  if (!INVITE_TOKEN_PATTERN.test(token)) return null;
  return usable(await store.panelInvites.take(hashInviteToken(token)), undefined, now);
}

/**
 * Why an invitation of `email` to `merchantId` is refused, or null to invite. Someone of the team
 * already is (409, their own team is theirs to know); someone the team deactivated is never brought
 * back by an invitation (reactivating them is the team page's decision). An address with an account
 * at another merchant is not refused here: the answer must not tell that it exists elsewhere (its
 * invitation is then created, and refused when taken, as a used one is).
 */
export async function inviteRefusal(store: PanelAccess, merchantId: string, email: string): Promise<'member' | 'deactivated' | null> {
  const user = await store.panelUsers.get(normaliseEmail(email));
  if (!user || user.merchantId !== merchantId) return null;
  return user.active ? 'member' : 'deactivated';
}

/**
 * A one-time link to set a new password for the existing user `email`, issued by the operator or an
 * owner of the user's merchant. The token is shown once and stored only hashed, beside invitations
 * (the same one-time take), with `purpose: 'reset'`.
 */
export async function createPasswordReset(
  store: PanelAccess,
  input: { email: string; issuedBy: string },
  now = new Date(),
): Promise<{ reset: PanelInvite; token: string }> {
  const user = await store.panelUsers.get(normaliseEmail(input.email));
  if (!user) throw new Error(`no panel user ${input.email}`);
  const token = `rst_${randomBytes(24).toString('base64url')}`;
  const reset: PanelInvite = {
    tokenHash: hashInviteToken(token),
    merchantId: user.merchantId,
    email: user.id,
    role: user.role,
    invitedBy: input.issuedBy,
    expiresAt: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
    createdAt: now.toISOString(),
    purpose: 'reset',
  };
  await store.panelInvites.insert(reset);
  return { reset, token };
}

/** The reset behind a token, read without spending it; null when unknown, used, expired or not a reset. */
export async function peekPasswordReset(store: PanelAccess, token: string, now = new Date()): Promise<PanelInvite | null> {
  if (!RESET_TOKEN_PATTERN.test(token)) return null;
  return usable(await store.panelInvites.get(hashInviteToken(token)), 'reset', now);
}

/** The reset behind a token, taken once. */
export async function takePasswordReset(store: PanelAccess, token: string, now = new Date()): Promise<PanelInvite | null> {
  if (!RESET_TOKEN_PATTERN.test(token)) return null;
  return usable(await store.panelInvites.take(hashInviteToken(token)), 'reset', now);
}

/**
 * Sets a user's password (already hashed) and raises their password version: every session signed in
 * before ends at its next request (the panel compares versions).
 */
export async function setPassword(store: PanelAccess, user: PanelUser, passwordHash: string): Promise<number> {
  const passwordVersion = (user.passwordVersion ?? 0) + 1;
  await store.panelUsers.update(user.id, { passwordHash, passwordVersion });
  return passwordVersion;
}

/** Appends one line to the merchant's audit log. */
export async function recordAudit(store: PanelAccess, entry: Omit<AuditEntry, 'id' | 'at'> & { at?: string }): Promise<void> {
  await store.audit.append({
    id: `aud_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
    at: entry.at ?? new Date().toISOString(),
    ...entry,
  });
}
