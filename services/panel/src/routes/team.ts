import type { FastifyInstance } from 'fastify';
import { createInvite, EMAIL_PATTERN, normaliseEmail, PANEL_ROLES, type PanelRole } from '@switch/shared';
import type { PanelContext } from '../panel';

/** Team (owners invite), balances (the accounts register) and the audit log. */
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
    if (await store.panelUsers.get(email)) return again({ error: 'team.exists' }, 409);
    const { token } = await createInvite(store, { merchantId, email, role, invitedBy: request.panelUser!.id });
    await ctx.audit(request, 'user.invite', email, { role });
    return again({ invited: { email, link: `${ctx.base}/invitacion/${token}` }, email: '' }, 201);
  });

  app.get('/saldos', async (request, reply) => {
    const caller = ctx.caller(request);
    return ctx.page(request, reply, 'balances', { accounts: await store.accounts.list(caller.merchantId, caller.mode) });
  });

  app.get('/auditoria', async (request, reply) =>
    ctx.page(request, reply, 'audit', { entries: await store.audit.listForMerchant(request.panelUser!.merchantId, 200) }),
  );
}
