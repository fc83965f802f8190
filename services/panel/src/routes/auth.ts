import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formOf, PageQuery, PathParams } from '../fields';
import {
  INVITE_TOKEN_PATTERN,
  normaliseEmail,
  peekInvite,
  peekPasswordReset,
  RESET_TOKEN_PATTERN,
  recordAudit,
  setPassword,
  takeInvite,
  takePasswordReset,
} from '@switch/usecases/panel-access';
import type { PanelUser } from '@switch/platform/ports/panel-access';
import type { PanelStore } from '../ports';
import type { PanelContext } from '../context';
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
function loginThrottle(store: PanelStore, limit: number) {
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
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store, base } = ctx;
  const throttle = loginThrottle(store, ctx.config.loginAttemptsPer15Min);

  routes.get('/login', { schema: { querystring: PageQuery } }, async (request, reply) => {
    if (request.panelUser) return reply.redirect(`${base}/resumen`, 303);
    return ctx.page(request, reply, 'login', { email: '', reset: request.query.restablecida === '1' });
  });

  app.post('/login', async (request, reply) => {
    const body = formOf(request);
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
    return reply.redirect(`${base}/resumen`, 303);
  });

  app.post('/logout', async (request, reply) => {
    if (request.panelUser) await ctx.audit(request, 'logout', null);
    await request.session.destroy();
    return reply.redirect(`${base}/login`, 303);
  });

  routes.get('/invitacion/:token', { schema: { params: PathParams('token') } }, async (request, reply) => {
    const { token } = request.params;
    return ctx.page(request, reply, 'invite', { token, invalid: !INVITE_TOKEN_PATTERN.test(token) });
  });

  routes.post('/invitacion/:token', { schema: { params: PathParams('token') } }, async (request, reply) => {
    const { token } = request.params;
    const body = formOf(request);
    const password = text(body.password, 256);
    const again = (extra: Record<string, unknown>) => ctx.page(request, reply, 'invite', { token, ...extra }, 400);
    if (password !== text(body.password2, 256)) return again({ error: 'invite.mismatch' });
    // Everything is checked before the one-time invitation is taken: a refused password keeps it
    // usable. An address with an account already (deactivated here, or at another merchant) is
    // answered as a used invitation is.
    const invite = await peekInvite(store, token);
    if (!invite || (await store.panelUsers.get(invite.email))) return again({ invalid: true });
    const weak = passwordProblem(password, invite.email);
    if (weak) return again({ error: weak });
    const passwordHash = await hashPassword(password);
    const taken = await takeInvite(store, token);
    const user: PanelUser = {
      id: invite.email,
      merchantId: invite.merchantId,
      role: invite.role,
      passwordHash,
      active: true,
      invitedBy: invite.invitedBy,
      createdAt: new Date().toISOString(),
    };
    // Of concurrent acceptances one takes the invitation; the unique e-mail settles the rest.
    if (!taken || !(await store.panelUsers.insert(user))) return again({ invalid: true });
    await recordAudit(store, {
      merchantId: user.merchantId,
      actor: user.id,
      action: 'user.join',
      mode: null,
      target: user.role,
      ip: request.ip,
    });
    await signIn(request, user);
    return reply.redirect(`${base}/resumen`, 303);
  });

  // A one-time link (issued by the operator or an owner) to set a new password.
  routes.get('/restablecer/:token', { schema: { params: PathParams('token') } }, async (request, reply) => {
    const { token } = request.params;
    return ctx.page(request, reply, 'reset', { token, invalid: !RESET_TOKEN_PATTERN.test(token) });
  });

  routes.post('/restablecer/:token', { schema: { params: PathParams('token') } }, async (request, reply) => {
    const { token } = request.params;
    const body = formOf(request);
    const password = text(body.password, 256);
    const again = (extra: Record<string, unknown>) => ctx.page(request, reply, 'reset', { token, ...extra }, 400);
    if (password !== text(body.password2, 256)) return again({ error: 'invite.mismatch' });
    // Checked before the link is spent, as an invitation is.
    const reset = await peekPasswordReset(store, token);
    const user = reset ? await store.panelUsers.get(reset.email) : null;
    if (!reset || !user?.active || user.merchantId !== reset.merchantId) return again({ invalid: true });
    const weak = passwordProblem(password, user.id);
    if (weak) return again({ error: weak });
    const passwordHash = await hashPassword(password);
    if (!(await takePasswordReset(store, token))) return again({ invalid: true });
    // Every session of the user ends (the password version changes); they sign in with the new one.
    await setPassword(store, user, passwordHash);
    await recordAudit(store, {
      merchantId: user.merchantId,
      actor: user.id,
      action: 'user.password_reset',
      mode: null,
      target: reset.invitedBy,
      ip: request.ip,
    });
    if (request.session.userId) await request.session.destroy();
    return reply.redirect(`${base}/login?restablecida=1`, 303);
  });

  // The signed-in user's own account: change the password, giving the current one.
  routes.get('/cuenta', { schema: { querystring: PageQuery } }, async (request, reply) =>
    ctx.page(request, reply, 'account', { changed: request.query.cambiada === '1' }),
  );

  app.post('/cuenta', async (request, reply) => {
    const user = request.panelUser!;
    const body = formOf(request);
    const current = text(body.actual, 256);
    const password = text(body.password, 256);
    const again = (error: string, status: number) => ctx.page(request, reply, 'account', { error }, status);
    if (password !== text(body.password2, 256)) return again('invite.mismatch', 400);
    const weak = passwordProblem(password, user.id);
    if (weak) return again(weak, 400);
    // The current password is a password guess like a sign-in's: the same reserved attempts.
    const giveBack = await throttle.reserve(request, user.id);
    if (!giveBack) return again('login.throttled', 429);
    if (!(await verifyPassword(user.passwordHash, current))) {
      await ctx.audit(request, 'user.password_failed', user.id);
      return again('account.wrong_current', 401);
    }
    await giveBack();
    const passwordVersion = await setPassword(store, user, await hashPassword(password));
    await ctx.audit(request, 'user.password', user.id);
    // Other sessions end; this one goes on under a new id with the new version.
    await signIn(request, { ...user, passwordVersion }, false);
    return reply.redirect(`${base}/cuenta?cambiada=1`, 303);
  });

  /**
   * A new session id at sign-in (no session fixation), keeping only the language (and the mode when
   * the same user goes on after changing their password). The session remembers the password version
   * it signed in with: a later change ends it.
   */
  async function signIn(request: FastifyRequest, user: PanelUser, fresh = true): Promise<void> {
    const { lang, mode } = request.session;
    await request.session.regenerate();
    request.session.userId = user.id;
    request.session.passwordVersion = user.passwordVersion ?? 0;
    request.session.mode = fresh ? 'test' : (mode ?? 'test');
    if (lang) request.session.lang = lang;
    if (fresh)
      await recordAudit(store, { merchantId: user.merchantId, actor: user.id, action: 'login', mode: null, target: null, ip: request.ip });
  }
}
