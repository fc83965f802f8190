import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createInvite,
  createPasswordReset,
  EMAIL_PATTERN,
  inviteRefusal,
  normaliseEmail,
  PANEL_ROLES,
  type PanelRole,
} from '@switch/shared';
import type { PanelContext } from '../context';

/** Team (owners invite) and the audit log. */

export function teamRoutes(app: FastifyInstance, ctx: PanelContext): void {
  const { store } = ctx;
  const emailPattern = new RegExp(EMAIL_PATTERN);

  const teamPage = async (merchantId: string) =>
    (await store.panelUsers.listForMerchant(merchantId)).map(({ passwordHash: _h, ...u }) => u);

  app.get('/equipo', async (request, reply) =>
    ctx.page(request, reply, 'team', { users: await teamPage(request.panelUser!.merchantId), roles: PANEL_ROLES }),
  );

  app.post('/equipo/invitar', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'team'))) return reply;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const email = typeof body.email === 'string' ? normaliseEmail(body.email.slice(0, 254)) : '';
    const role = (PANEL_ROLES as readonly unknown[]).includes(body.role) ? (body.role as PanelRole) : null;
    const merchantId = request.panelUser!.merchantId;
    const again = async (extra: Record<string, unknown>, status: number) =>
      ctx.page(request, reply, 'team', { users: await teamPage(merchantId), roles: PANEL_ROLES, email, ...extra }, status);
    if (!emailPattern.test(email) || !role) return again({ error: 'team.bad_email' }, 400);
    // Only this team's own members are refused; an account at another merchant is answered as a new
    // address is (docs/decisions.md, "Panel accounts").
    const refusal = await inviteRefusal(store, merchantId, email);
    if (refusal) return again({ error: refusal === 'member' ? 'team.exists' : 'team.deactivated' }, 409);
    const { token } = await createInvite(store, { merchantId, email, role, invitedBy: request.panelUser!.id });
    await ctx.audit(request, 'user.invite', email, { role });
    return again({ invited: { email, link: ctx.link(`/invitacion/${token}`) }, email: '' }, 201);
  });

  // A one-time link for a teammate to set a new password (they forgot it, or it may be known).
  app.post('/equipo/:id/restablecer', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'team'))) return reply;
    const user = await teammate(request, (request.params as { id: string }).id);
    if (!user?.active) return reply.callNotFound();
    const { token } = await createPasswordReset(store, { email: user.id, issuedBy: request.panelUser!.id });
    await ctx.audit(request, 'user.reset_link', user.id);
    const users = await teamPage(request.panelUser!.merchantId);
    return ctx.page(
      request,
      reply,
      'team',
      { users, roles: PANEL_ROLES, reset: { email: user.id, link: ctx.link(`/restablecer/${token}`) } },
      201,
    );
  });

  /** A teammate of the owner's merchant (never the owner themself: nobody locks themself out), or null. */
  const teammate = async (request: FastifyRequest, id: string) => {
    const user = await store.panelUsers.get(id);
    return user && user.merchantId === request.panelUser!.merchantId && user.id !== request.panelUser!.id ? user : null;
  };

  app.post('/equipo/:id/rol', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'team'))) return reply;
    const user = await teammate(request, (request.params as { id: string }).id);
    const role = (request.body as Record<string, unknown>).role;
    if (!user) return reply.callNotFound();
    if (!(PANEL_ROLES as readonly unknown[]).includes(role)) return reply.code(400).send();
    await store.panelUsers.update(user.id, { role: role as PanelRole });
    await ctx.audit(request, 'user.role', user.id, { role: role as string });
    return reply.redirect(`${ctx.base}/equipo`, 303);
  });

  app.post('/equipo/:id/activo', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'team'))) return reply;
    const user = await teammate(request, (request.params as { id: string }).id);
    if (!user) return reply.callNotFound();
    const active = (request.body as Record<string, unknown>).activo === 'true';
    // A deactivated user is signed out at their next request (the panel reloads the user every time).
    await store.panelUsers.update(user.id, { active });
    await ctx.audit(request, active ? 'user.enable' : 'user.disable', user.id);
    return reply.redirect(`${ctx.base}/equipo`, 303);
  });

  app.get('/auditoria', async (request, reply) =>
    ctx.page(request, reply, 'audit', { entries: await store.audit.listForMerchant(request.panelUser!.merchantId, 200) }),
  );
}
