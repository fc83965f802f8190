import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normaliseEmail, recordAudit, takeInvite, type PanelUser, type Store } from '@switch/shared';
import type { PanelContext } from '../panel';
import { hashPassword, passwordProblem, verifyPassword } from '../passwords';

const WINDOW_MS = 15 * 60_000;

/**
 * Sign-in attempts per e-mail address and per source address, counted in the shared store per
 * 15-minute window, so every replica sees the same count. An attempt is reserved (the store's atomic
 * add, which answers the new count) before the password is verified: of any number of parallel
 * attempts at most `limit` get verified, where a read-then-count would let them all through. Past the
 * limit, sign-in is refused without checking the password (the same answer whether or not it was
 * right). A successful sign-in gives its attempt back, so people signing in behind one address are
 * not refused for it.
 */
function loginThrottle(store: Store, limit: number) {
  const windowOf = () => Math.floor(Date.now() / WINDOW_MS);
  const keys = (request: FastifyRequest, email: string, window: number) => [
    `panel-login|email|${email}|${window}`,
    `panel-login|ip|${request.ip}|${window}`,
  ];
  // The store forgets a window's counters once it is over.
  const keptUntil = (window: number) => new Date((window + 1) * WINDOW_MS).toISOString();
  return {
    /** Reserves one attempt; null when the limit is spent, else the way to give it back. */
    reserve: async (request: FastifyRequest, email: string): Promise<(() => Promise<void>) | null> => {
      const window = windowOf();
      const counted = keys(request, email, window);
      const counts = await Promise.all(counted.map((key) => store.counters.add(key, 0, 1, keptUntil(window))));
      if (counts.some((c) => c.count > limit)) return null;
      return async () => {
        await Promise.all(counted.map((key) => store.counters.add(key, 0, -1, keptUntil(window))));
      };
    },
  };
}

const text = (v: unknown, max: number): string => (typeof v === 'string' ? v.slice(0, max) : '');

export function authRoutes(app: FastifyInstance, ctx: PanelContext): void {
  const { store, base } = ctx;
  const throttle = loginThrottle(store, ctx.config.loginAttemptsPer15Min);

  app.get('/login', async (request, reply) => {
    if (request.panelUser) return reply.redirect(`${base}/transacciones`, 303);
    return ctx.page(request, reply, 'login', { email: '' });
  });

  app.post('/login', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const email = normaliseEmail(text(body.email, 254));
    const password = text(body.password, 256);
    const giveBack = await throttle.reserve(request, email);
    if (!giveBack) return ctx.page(request, reply, 'login', { email, error: 'login.throttled' }, 429);
    const user = email ? await store.panelUsers.get(email) : null;
    const ok = (await verifyPassword(user?.passwordHash ?? null, password)) && user?.active === true;
    if (!ok || !user) {
      if (user)
        await recordAudit(store, {
          merchantId: user.merchantId,
          actor: email,
          action: 'login.failed',
          mode: null,
          target: null,
          ip: request.ip,
        });
      return ctx.page(request, reply, 'login', { email, error: 'login.failed' }, 401);
    }
    await giveBack();
    await signIn(request, user);
    return reply.redirect(`${base}/transacciones`, 303);
  });

  app.post('/logout', async (request, reply) => {
    if (request.panelUser) await ctx.audit(request, 'logout', null);
    await request.session.destroy();
    return reply.redirect(`${base}/login`, 303);
  });

  app.get('/invitacion/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    return ctx.page(request, reply, 'invite', { token, invalid: !/^inv_[A-Za-z0-9_-]{20,64}$/.test(token) });
  });

  app.post('/invitacion/:token', async (request, reply) => {
    const { token } = request.params as { token: string };
    const body = (request.body ?? {}) as Record<string, unknown>;
    const password = text(body.password, 256);
    if (password !== text(body.password2, 256)) return ctx.page(request, reply, 'invite', { token, error: 'invite.mismatch' }, 400);
    // The password is checked before the invitation is taken: a refused password keeps it usable.
    const weak = passwordProblem(password, 'x@x');
    if (weak) return ctx.page(request, reply, 'invite', { token, error: weak }, 400);
    const invite = /^inv_[A-Za-z0-9_-]{20,64}$/.test(token) ? await takeInvite(store, token) : null;
    if (!invite) return ctx.page(request, reply, 'invite', { token, invalid: true }, 400);
    const emailWeak = passwordProblem(password, invite.email);
    const user: PanelUser = {
      id: invite.email,
      merchantId: invite.merchantId,
      role: invite.role,
      passwordHash: await hashPassword(password),
      active: true,
      invitedBy: invite.invitedBy,
      createdAt: new Date().toISOString(),
    };
    if (emailWeak || !(await store.panelUsers.insert(user))) {
      return ctx.page(request, reply, 'invite', { token, invalid: !emailWeak, error: emailWeak ?? 'team.exists' }, 400);
    }
    await recordAudit(store, {
      merchantId: user.merchantId,
      actor: user.id,
      action: 'user.join',
      mode: null,
      target: user.role,
      ip: request.ip,
    });
    await signIn(request, user);
    return reply.redirect(`${base}/transacciones`, 303);
  });

  /** A new session id at sign-in (no session fixation), keeping only the language. */
  async function signIn(request: FastifyRequest, user: PanelUser): Promise<void> {
    const lang = request.session.lang;
    await request.session.regenerate();
    request.session.userId = user.id;
    request.session.mode = 'test';
    if (lang) request.session.lang = lang;
    await recordAudit(store, { merchantId: user.merchantId, actor: user.id, action: 'login', mode: null, target: null, ip: request.ip });
  }
}
