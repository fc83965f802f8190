import type { Mode } from '@switch/core/contracts/bancos';

export const PANEL_ROLES = ['owner', 'developer', 'viewer'] as const;
export type PanelRole = (typeof PANEL_ROLES)[number];

/** A person who signs in to the merchant panel; `id` is the e-mail address in lower case (unique). */
export interface PanelUser {
  id: string;
  merchantId: string;
  role: PanelRole;
  /** argon2id PHC string; never leaves the store except to be verified. */
  passwordHash: string;
  active: boolean;
  invitedBy: string | null;
  createdAt: string;
  /**
   * Raised at every password change (absent: 0). A session remembers the one it signed in with and
   * ends when they differ, so a change or a reset ends every other session of the user.
   */
  passwordVersion?: number;
}

/** An invitation to the panel: the token is sent once (a link) and kept only as its SHA-256. */
export interface PanelInvite {
  tokenHash: string;
  merchantId: string;
  email: string;
  role: PanelRole;
  invitedBy: string | null;
  expiresAt: string;
  createdAt: string;
  /**
   * `reset`: a one-time link to set a new password for the existing user `email` (`invitedBy` is who
   * issued it); absent: an invitation. The two tokens have different prefixes and are hashed whole.
   */
  purpose?: 'reset';
}

/** A signed-in panel session, kept in the store so every panel replica knows it. */
export interface PanelSessionRecord {
  id: string;
  data: Record<string, unknown>;
  expiresAt: string;
}

/** One line of a merchant's audit log: who did what in the panel (or the operator for them). */
export interface AuditEntry {
  id: string;
  merchantId: string;
  at: string;
  /** The user's e-mail, or `operator` for the onboarding tool. */
  actor: string;
  action: string;
  mode: Mode | null;
  target: string | null;
  ip: string | null;
  detail?: Record<string, string>;
}

/** Who may use the merchant panel and what they did there: users, invitations, sessions, audit log. */
/** Which audit lines to list: all given conditions hold; `before` pages on (the last line shown). */
export interface AuditFilter {
  action?: string;
  actor?: string;
  /** ISO instants: `from` inclusive, `to` exclusive. */
  from?: string;
  to?: string;
  before?: { at: string; id: string };
}

export interface PanelAccess {
  panelUsers: {
    /** `false` when a user with that e-mail exists already (in any merchant). */
    insert(user: PanelUser): Promise<boolean>;
    get(id: string): Promise<PanelUser | null>;
    listForMerchant(merchantId: string): Promise<PanelUser[]>;
    update(id: string, patch: Partial<Pick<PanelUser, 'role' | 'passwordHash' | 'active' | 'passwordVersion'>>): Promise<boolean>;
  };
  panelInvites: {
    insert(invite: PanelInvite): Promise<void>;
    /** Reads an invitation without taking it (to check a request before the one-time token is spent). */
    get(tokenHash: string): Promise<PanelInvite | null>;
    /** Takes an invitation once: of concurrent takers exactly one gets it; null when unknown or taken. */
    take(tokenHash: string): Promise<PanelInvite | null>;
    /** A merchant's outstanding invitations and reset links (expired ones included), newest first. */
    listForMerchant(merchantId: string): Promise<PanelInvite[]>;
  };
  panelSessions: {
    /** The session, or null when unknown or expired at `now`. */
    get(id: string, now: string): Promise<PanelSessionRecord | null>;
    set(session: PanelSessionRecord): Promise<void>;
    destroy(id: string): Promise<void>;
  };
  audit: {
    append(entry: AuditEntry): Promise<void>;
    /** Newest first. */
    listForMerchant(merchantId: string, limit: number, filter?: AuditFilter): Promise<AuditEntry[]>;
  };
}
