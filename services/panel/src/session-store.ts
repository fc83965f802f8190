import type { Session } from 'fastify';
import type { PanelAccess } from '@switch/platform/ports/panel-access';

type Callback = (err?: unknown) => void;
type SessionData = { cookie?: { expires?: string | Date | null } };

/**
 * @fastify/session's store over the panel access port (`panelSessions`): sessions live in the
 * shared database, so any panel replica serves any signed-in user, and a sign-out ends the session
 * everywhere at once.
 */
export class SwitchSessionStore {
  constructor(
    private readonly store: Pick<PanelAccess, 'panelSessions'>,
    private readonly idleMs: number,
  ) {}

  set(sessionId: string, session: Session, callback: Callback): void {
    // JSON form: the cookie's Date becomes a string, the same in every adapter.
    const data = JSON.parse(JSON.stringify(session)) as SessionData;
    const expires = data.cookie?.expires ? String(data.cookie.expires) : new Date(Date.now() + this.idleMs).toISOString();
    this.store.panelSessions
      .set({ id: sessionId, data: data as Record<string, unknown>, expiresAt: new Date(expires).toISOString() })
      .then(() => callback(), callback);
  }

  get(sessionId: string, callback: (err: unknown, result?: Session | null) => void): void {
    this.store.panelSessions.get(sessionId, new Date().toISOString()).then(
      (row) => callback(null, row ? (row.data as unknown as Session) : null),
      (error: unknown) => callback(error),
    );
  }

  destroy(sessionId: string, callback: Callback): void {
    this.store.panelSessions.destroy(sessionId).then(() => callback(), callback);
  }
}
